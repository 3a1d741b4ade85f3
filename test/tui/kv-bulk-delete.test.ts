/**
 * KV bulk delete from a file in the TUI (issue 29, "What is missing"): on the namespaces, `b` asks
 * for a keys file (the file name pasted, bracketed at 80x24 and plain at 120x40), checks it whole
 * as `edgectl kv bulk delete` does (a bad file names every problem and deletes nothing), then a
 * confirmation naming the namespace and the count; the deleted keys are read back through the CLI.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat } from "../helpers/tui-screen.js"

const sizes = [
  { columns: 80, rows: 24, bracketed: true },
  { columns: 120, rows: 40, bracketed: false }
] as const

describe.each(sizes)("KV bulk delete at $columns x $rows", ({ bracketed, ...size }) => {
  let tui: PtyTui
  let dir: string
  let nsId: string
  const cli = (...args: Array<string>) => edgectlAsync([...args, "--persist-to", dir])
  const keys = async () => {
    const r = await cli("kv", "key", "list", "--namespace-id", nsId)
    expect(r.status, r.stderr).toBe(0)
    return (JSON.parse(r.stdout) as ReadonlyArray<{ name: string }>).map((k) => k.name)
  }
  const paste = (text: string) => (bracketed ? `\u001b[200~${text}\u001b[201~` : text)

  beforeAll(async () => {
    dir = tempDir("edgectl-kv-bulk-delete-")
    const list = await cli("kv", "namespace", "list")
    nsId = (JSON.parse(list.stdout) as ReadonlyArray<{ id: string; title: string }>).find((n) =>
      n.title.includes("acme-feature-flags")
    )!.id
    for (const k of ["gone-1", "gone-2", "kept"])
      expect((await cli("kv", "key", "put", k, "v", "--namespace-id", nsId)).status).toBe(0)
    tui = await PtyTui.start({ ...size, persistTo: dir })
    tui.write("5")
    await tui.waitFor("acme-feature-flags")
    tui.write(`/acme-feature-flags${PtyKeys.enter}`)
    await tui.waitFor((s) => s.includes("filter: acme-feature-flags") && s.includes("1/1"))
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("a bad keys file is refused whole, naming the problem; nothing is deleted", async () => {
    const bad = path.join(dir, "bad.json")
    fs.writeFileSync(bad, JSON.stringify(["gone-1", 42]))
    tui.write("b")
    await tui.waitFor("the keys listed in file")
    tui.write(paste(bad))
    tui.write(PtyKeys.enter)
    const error = flat(await tui.waitFor("any key dismisses")).replace(/\s*┃\s*/g, " ")
    expect(error).toContain(`could not read ${bad}`)
    expect(error).toContain("entry 1: must be a key string")
    expect(await keys()).toEqual(expect.arrayContaining(["gone-1", "gone-2", "kept"]))
    tui.write(PtyKeys.escape)
    await tui.waitFor((s) => !s.includes("any key dismisses"))
  })

  it("b deletes the keys a file lists, after a confirmation naming the namespace and the count", async () => {
    const file = path.join(dir, "keys.json")
    fs.writeFileSync(file, JSON.stringify(["gone-1", "gone-2"]))
    tui.write("b")
    await tui.waitFor("the keys listed in file")
    tui.write(paste(file))
    tui.write(PtyKeys.enter)
    const confirm = flat(await tui.waitFor("Delete keys listed in a file"))
    expect(confirm).toContain("Delete the 2 keys listed in")
    expect(confirm).toContain("acme-feature-flags")
    expect(await keys()).toContain("gone-1")
    tui.write("y")
    await tui.waitFor((s) => flat(s).includes("Deleted the 2 keys of"))
    const left = await keys()
    expect(left).not.toContain("gone-1")
    expect(left).not.toContain("gone-2")
    expect(left).toContain("kept")
  })
})
