/**
 * `v` on the firewall → custom rules migration's confirmation (issue 29, "What is missing"): the
 * exact requests `a`'s `y` sends, as `edgectl firewall migrate --dry-run` prints them (one
 * rendering, src/domain/request-text.ts; the plan from the engine). Shown must equal done: after
 * `y`, the zone's custom rules, read back through the CLI, are the ones the shown PUT carried. The
 * undo's confirmation (`u`) shows on `v` the journal's inverse steps it sends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, json, tempDir } from "../helpers/cli.js"
import { PtyTui } from "../helpers/pty.js"
import { flat, openFirewallTab } from "../helpers/tui-screen.js"

const Zone = "globex.com"

/** The dialog's rows (inside its border) with every blank gone: a request line cut at any width reads whole. */
const squeezed = (screen: string): string =>
  screen
    .split("\n")
    .map((l) => /│ │ (.*?)\s*│ │\s*$/.exec(l)?.[1] ?? "")
    .join("")
    .replace(/\s+/g, "")

describe.each([
  { columns: 80, rows: 24, oneRead: true },
  { columns: 120, rows: 40, oneRead: false }
])("the migration's requests on v at $columns x $rows", ({ oneRead, ...size }) => {
  let tui: PtyTui
  let dir: string
  beforeAll(async () => {
    dir = tempDir("edgectl-migration-requests-")
    tui = await PtyTui.start({ ...size, persistTo: dir })
    await openFirewallTab(tui, Zone)
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("a then v shows every request of `firewall migrate --dry-run`, in order; y sends them", async () => {
    const dry = await edgectlAsync(["firewall", "migrate", "--zone", Zone, "--dry-run", "--persist-to", dir])
    expect(dry.status, dry.stderr).toBe(0)
    const printed = dry.stdout.split("\n")
    const from = printed.findIndex((l) => l.startsWith("Dry run: nothing was changed."))
    const to = printed.findIndex((l) => l.startsWith("and zone "))
    const requests = printed.slice(from + 2, to - 1)
    expect(requests[0]).toMatch(/^PUT \/zones\/\w+\/rulesets\/phases\/http_request_firewall_custom\/entrypoint$/)
    const count = requests.filter((l) => /^(PUT|POST|PATCH|DELETE) \//.test(l)).length
    tui.write("m")
    await tui.waitFor("a apply")
    if (oneRead) tui.write("av")
    else await tui.type(["a", "v"])
    const first = await tui.waitFor((s) => flat(s).includes(`${count} request(s) y sends`))
    expect(flat(first)).toContain(`Migrate the firewall rules of ${Zone}?`)
    // Scrolled to the end, every line the dry run printed is shown, in its order.
    let seen = squeezed(first)
    for (let i = 0; i < 300; i++) {
      const m = /lines (\d+)-(\d+) of (\d+)/.exec(flat(tui.screen()))
      if (m === null || m[2] === m[3]) break
      tui.write("j")
      await tui.waitFor((s) => !flat(s).includes(`lines ${m[1]}-${m[2]} of`))
      seen += squeezed(tui.screen())
    }
    let at = 0
    for (const line of requests) {
      const want = line.replace(/\s+/g, "")
      if (want === "") continue
      const found = seen.indexOf(want, at)
      expect(found, `shown: ${line}`).toBeGreaterThanOrEqual(0)
      at = found
    }
    const body = JSON.parse(
      requests
        .slice(
          1,
          requests.findIndex((l, i) => i > 0 && l === "")
        )
        .join("\n")
    ) as {
      rules: Array<{ description?: string; expression: string; action: string }>
    }
    tui.write("y")
    await tui.waitFor(`Wrote ${body.rules.length} custom rules on ${Zone}`)
    const list = await edgectlAsync(["custom-rules", "list", "--zone", Zone, "--json", "--persist-to", dir])
    expect(list.status, list.stderr).toBe(0)
    const after = json<Array<{ description?: string; expression: string; action: string }>>(list)
    expect(after.map((r) => [r.action, r.expression, r.description])).toEqual(
      body.rules.map((r) => [r.action, r.expression, r.description])
    )
  })

  it("u then v shows the undo's requests, the steps' inverses last first; y restores the zone", async () => {
    const paused = async () => {
      const r = await edgectlAsync(["firewall", "rules", "list", "--zone", Zone, "--json", "--persist-to", dir])
      expect(r.status, r.stderr).toBe(0)
      return json<Array<{ id: string; paused: boolean }>>(r).filter((x) => x.paused).length
    }
    expect(await paused()).toBeGreaterThan(0)
    // The apply left the tab on the custom rules: m goes back to the migration.
    tui.write("m")
    await tui.waitFor("u undo")
    if (oneRead) tui.write("uv")
    else await tui.type(["u", "v"])
    const shown = await tui.waitFor((s) => /\d+ request\(s\) y sends/.test(flat(s)))
    expect(flat(shown)).toContain(`Undo the migration of ${Zone}?`)
    // The last step (a rule's pause) is undone first: a PUT of that rule, paused false.
    expect(squeezed(shown)).toMatch(/PUT\/zones\/\w+\/firewall\/rules\/\w+\{/)
    // Its body, scrolled to where a small terminal shows it.
    for (let i = 0; i < 40 && !squeezed(tui.screen()).includes('"paused":false'); i++) {
      tui.write("j")
      await tui.settle(60)
    }
    expect(squeezed(tui.screen())).toContain('"paused":false')
    tui.write("y")
    await tui.waitFor(`Rolled back the migration of ${Zone}`)
    expect(await paused()).toBe(0)
  })
})
