/**
 * KV namespaces in the TUI (issue 29): `n` creates one, `R` renames it, `D` deletes it; each
 * confirmation shows on `v` the exact request, and each write is read back through the CLI. Keys go
 * in one read; the title is pasted (bracketed at 80x24, plain at 120x40).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

const sizes = [
  { columns: 80, rows: 24, bracketed: true },
  { columns: 120, rows: 40, bracketed: false }
] as const

/** A dialog's lines joined with nothing between them: a request line cut at the dialog's width reads whole. */
const joined = (screen: string): string =>
  screen
    .split("\n")
    .map((l) => /│ │ (.*?)\s*│ │\s*$/.exec(l)?.[1] ?? "")
    .join("")

describe.each(sizes)("KV namespaces at $columns x $rows", ({ bracketed, ...size }) => {
  let tui: PtyTui
  let dir: string
  const titles = async () => {
    const r = await edgectlAsync(["kv", "namespace", "list", "--persist-to", dir])
    expect(r.status, r.stderr).toBe(0)
    return (JSON.parse(r.stdout) as ReadonlyArray<{ id: string; title: string }>).map((n) => n.title)
  }
  const title = `tui-ns-${size.columns}`
  beforeAll(async () => {
    dir = tempDir("edgectl-kv-ns-")
    tui = await PtyTui.start({ ...size, persistTo: dir })
    tui.write("5")
    await tui.waitFor("acme-feature-flags")
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("n creates a namespace: its title, v shows the POST, y sends it", async () => {
    tui.write("n")
    await tui.waitFor("New KV namespace in")
    tui.write(bracketed ? `\u001b[200~${title}\u001b[201~` : title)
    tui.write(PtyKeys.enter)
    await tui.waitFor(`Create namespace ${title}?`)
    tui.write("v")
    await tui.waitFor((s) =>
      /POST \/accounts\/[0-9a-f]{32}\/storage\/kv\/namespaces\{ {2}"title": "tui-ns-\d+"\}/.test(joined(s))
    )
    expect(await titles()).not.toContain(title)
    tui.write("y")
    await tui.waitFor(`Created namespace ${title}`)
    expect(await titles()).toContain(title)
  })

  it("R renames it and D deletes it, each after v shows the request", async () => {
    tui.write(`/${title}${PtyKeys.enter}`)
    await tui.waitFor((s) => s.includes(`filter: ${title}`) && s.includes("1/1"))
    tui.write(`R${PtyKeys.ctrlU}${title}-renamed${PtyKeys.enter}`)
    await tui.waitFor(`Rename namespace ${title} to ${title}-renamed?`)
    tui.write("v")
    await tui.waitFor((s) => joined(s).includes(`"title": "${title}-renamed"`) && joined(s).includes("PUT /accounts/"))
    tui.write("y")
    await tui.waitFor(`Renamed namespace ${title} to ${title}-renamed`)
    expect(await titles()).toContain(`${title}-renamed`)
    tui.write(PtyKeys.escape)
    await tui.waitFor("/ to filter by title")
    tui.write(`/renamed${PtyKeys.enter}`)
    await tui.waitFor((s) => s.includes("filter: renamed") && s.includes("1/1"))
    tui.write("Dv")
    await tui.waitFor((s) => /DELETE \/accounts\/[0-9a-f]{32}\/storage\/kv\/namespaces\/[0-9a-f]{32}/.test(joined(s)))
    tui.write("y")
    await tui.waitFor(`Deleted namespace ${title}-renamed`)
    expect(await titles()).not.toContain(`${title}-renamed`)
  })
})
