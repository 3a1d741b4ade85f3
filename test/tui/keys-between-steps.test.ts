/**
 * A key that comes in its own read right after a form step's enter, before the next step has
 * rendered, goes to that next step (issue 29: `block⏎`, then a lone `⏎` for the priority, went to
 * the Action step again and the form stood still). Each flow sends its keys as separate writes,
 * nothing waited for between them but a few milliseconds (swept, so that the TUI reads them
 * apart at some point of its work on the key before, as from a fast typist or a laggy link),
 * then reads the result back through the CLI.
 */
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The gaps between writes: from none (the pty may join them into one read) to past a render. */
const gaps = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15]

/** Writes each part on its own, `gapMs` apart, waiting for nothing on the screen. */
const apart = async (t: PtyTui, parts: ReadonlyArray<string>, gapMs: number) => {
  for (const part of parts) {
    t.write(part)
    await sleep(gapMs)
  }
}

const cliJson = async <A>(args: ReadonlyArray<string>): Promise<A> => {
  const r = await edgectlAsync([...args, "--json"])
  expect(r.status, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as A
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("keys in separate reads between a form's steps, at $columns x $rows", (size) => {
  it("firewall create: block⏎, then a lone ⏎ for the priority and one for the description", async () => {
    const t = (tui = await PtyTui.start(size))
    await openFirewallTab(t, "acme-api.com")
    await t.waitFor("No firewall rules on this zone.")
    for (const [i, gap] of gaps.entries()) {
      t.write("n")
      await t.waitFor("its filter expression")
      t.write(`http.request.uri.path eq "/sep${i}"\r`)
      await t.waitFor("Action")
      await apart(t, ["block\r", PtyKeys.enter, PtyKeys.enter], gap)
      // The table counts the rules (`1/3`): every rule so far was created.
      await t.waitFor(new RegExp(`\\b\\d+/${i + 1}\\b`))
    }
    const rules = await cliJson<ReadonlyArray<{ action: string; filter: { expression: string } }>>([
      "firewall",
      "rules",
      "list",
      "--zone",
      "acme-api.com",
      "--persist-to",
      t.persistTo
    ])
    expect(rules.map((r) => r.filter.expression).sort()).toEqual(
      gaps.map((_, i) => `http.request.uri.path eq "/sep${i}"`).sort()
    )
    expect(rules.every((r) => r.action === "block")).toBe(true)
  })

  it("custom rule form: each step's keys in their own reads", async () => {
    const t = (tui = await PtyTui.start(size))
    await openFirewallTab(t, "acme-shop.com")
    t.write("c")
    await t.waitFor("Custom rules of acme-shop.com")
    for (const [i, gap] of gaps.entries()) {
      // n opens the form: the expression typed in the next read goes to it, not to the list. Then
      // enter for each step: the first action, no description, on, last.
      await apart(t, ["n", `http.host eq "sep${i}.example"`, ...Array<string>(5).fill(PtyKeys.enter)], gap)
      // (the expression may be cut at 80 columns)
      await t.waitFor(new RegExp(`› #${i + 1}\\s+block\\s+on\\s+http\\.host eq "sep${i}\\.`))
    }
    const rules = await cliJson<ReadonlyArray<{ expression: string; action: string }>>([
      "custom-rules",
      "list",
      "--zone",
      "acme-shop.com",
      "--persist-to",
      t.persistTo
    ])
    expect(rules.map((r) => r.expression)).toEqual(gaps.map((_, i) => `http.host eq "sep${i}.example"`))
    expect(rules.every((r) => r.action === "block")).toBe(true)
  })

  it("KV put: n, the key, tab, the value and enter, each in its own read", async () => {
    const t = (tui = await PtyTui.start(size))
    t.write("5")
    await t.waitFor("acme-feature-flags")
    t.write(PtyKeys.enter)
    await t.waitFor("n new key")
    for (const [i, gap] of gaps.entries()) {
      // A line end followed by text in one read would be a paste: the parts never join so.
      await apart(t, ["n", `sep-${i}`, PtyKeys.tab, `v${i}`, PtyKeys.enter], gap)
      // A saved key opens its value; esc goes back to the list.
      await t.waitFor((s) => s.includes(`Saved key "sep-${i}"`) && !s.includes("New key in"))
      t.write(PtyKeys.escape)
      await t.waitFor("n new key")
    }
    const namespaces = await cliJson<ReadonlyArray<{ id: string; title: string }>>([
      "kv",
      "namespace",
      "list",
      "--persist-to",
      t.persistTo
    ])
    const id = namespaces.find((n) => n.title.includes("acme-feature-flags"))!.id
    const keys = await cliJson<ReadonlyArray<{ name: string }>>([
      "kv",
      "key",
      "list",
      "--namespace-id",
      id,
      "--persist-to",
      t.persistTo
    ])
    for (const [i] of gaps.entries()) {
      const got = await edgectlAsync([
        "kv",
        "key",
        "get",
        "--namespace-id",
        id,
        `sep-${i}`,
        "--persist-to",
        t.persistTo
      ])
      expect(got.stdout, `sep-${i}`).toBe(`v${i}`)
    }
    expect(keys.filter((k) => k.name.startsWith("sep-")).length).toBe(gaps.length)
  })
})
