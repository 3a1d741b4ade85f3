/**
 * The KV screen's export (`x`) to a path as users give it, in a pty: pasted (bracketed at 80x24,
 * plain at 120x40) with its enter in the same read. A directory that is not there is named in the
 * error, shown whole (it said "this is a bug in edgectl"), and nothing is made; a long path's result
 * is shown whole, wrapped (it was cut at the line's end), and the file holds every key, read back
 * through the CLI's own export.
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

describe.each(sizes)("KV export to a path at $columns x $rows", ({ bracketed, ...size }) => {
  let tui: PtyTui
  let dir: string
  /** The namespace's id, as its row shows it. */
  let nsId: string
  const paste = (text: string) => (bracketed ? `\u001b[200~${text}\u001b[201~` : text)
  /** Whether the screen shows `text`, wherever it wrapped it (a path is cut across lines). */
  const shows = (screen: string, text: string) =>
    flat(screen)
      .replace(/[\s┃]+/g, "")
      .includes(text.replace(/\s+/g, ""))

  beforeAll(async () => {
    dir = tempDir("edgectl-kv-export-paths-")
    tui = await PtyTui.start({ ...size, persistTo: dir })
    tui.write("5")
    await tui.waitFor("globex-translations")
    tui.write(`/globex-translations${PtyKeys.enter}`)
    const screen = await tui.waitFor((s) => s.includes("filter: globex-translations") && s.includes("1/1"))
    nsId = /› globex-translations\s+([0-9a-f]{32})/.exec(screen)![1]!
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("a directory that is not there is named, with the way out; nothing is made", async () => {
    const base = fs.mkdtempSync(path.join(dir, "out-"))
    const file = path.join(base, "no", "such", "globex.json")
    tui.write("x")
    await tui.waitFor("Export globex-translations to file")
    // ctrl+u clears the title it offers; the path pasted, its enter in the same read.
    tui.write(`\u0015${paste(file)}${PtyKeys.enter}`)
    const error = await tui.waitFor("any key dismisses")
    expect(
      shows(
        error,
        `could not export globex-translations: cannot write ${file}: no such directory: ${path.dirname(file)}`
      ),
      error
    ).toBe(true)
    expect(shows(error, "hint: change what was typed and try again"), error).toBe(true)
    expect(error).not.toContain("bug")
    expect(fs.readdirSync(base)).toEqual([])
    tui.write(PtyKeys.escape)
    await tui.waitFor((s) => !s.includes("any key dismisses"))
  })

  it("a long path's result is shown whole, and the file holds what the CLI's export writes", async () => {
    const deep = path.join(dir, "exports", "a-directory-with-a-rather-long-name", "and-another-one-below-it")
    fs.mkdirSync(deep, { recursive: true })
    const file = path.join(deep, "globex-translations-before-the-migration.json")
    tui.write("x")
    await tui.waitFor("Export globex-translations to file")
    tui.write(`\u0015${paste(file)}${PtyKeys.enter}`)
    const done = await tui.waitFor((s) => shows(s, `✓ Exported 4 keys of globex-translations to ${file}.`))
    // Wider than the screen: the result took more than one line, none of it cut.
    expect(done.split("\n").some((l) => l.includes("✓ Exported") && !l.includes(file))).toBe(true)
    const cli = path.join(dir, "cli.json")
    const exported = await edgectlAsync(["kv", "export", "-o", cli, "--namespace-id", nsId, "--persist-to", dir])
    expect(exported.status, exported.stderr).toBe(0)
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(JSON.parse(fs.readFileSync(cli, "utf8")))
  })
})
