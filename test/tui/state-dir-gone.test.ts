/**
 * The state directory deleted under a running TUI (issue 29): SQLite went on writing to the
 * unlinked file and every write said `✓`. Now a write of the local platform (a DNS record's delete)
 * and of the Objects screen (a key put) fail with an error that names the directory and says how
 * to recover; `edgectl serve` refuses a write the same way. At 80x24 and 120x40.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { startServe, type Served } from "../helpers/serve.js"
import { flat as flatPane } from "../helpers/tui-screen.js"

// The footer's error box too: its lines start with a bar.
const flat = (screen: string) => flatPane(screen).replace(/\s*┃\s*/g, " ")

let tui: PtyTui | undefined
let served: Served | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
  served?.close()
  served = undefined
})

const Gone = "is gone (deleted or moved while edgectl ran): nothing was written"

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the state directory deleted under the TUI at $columns x $rows", (size) => {
  it("a DNS record's delete fails, saying the directory is gone and how to recover (d y in one read)", async () => {
    const parent = tempDir("edgectl-gone-")
    const state = path.join(parent, "state")
    const t = (tui = await PtyTui.start({ ...size, persistTo: state, cwd: parent }))
    t.write(PtyKeys.enter)
    await t.waitFor("[DNS records]")
    await t.waitFor(/\d+\/\d+/)
    fs.rmSync(state, { recursive: true, force: true })
    t.write("d")
    await t.waitFor(/Delete \S+ .*\?/)
    t.write("y")
    const shown = flat(await t.waitFor("any key dismisses"))
    expect(shown).toContain(`the state directory ${state} ${Gone}`)
    expect(shown).toContain("start edgectl again to make a new state")
    expect(shown).not.toContain("✓")
    expect(fs.existsSync(state)).toBe(false)
  })

  it("an object's key put fails the same way, and the directory is not made again", async () => {
    const parent = tempDir("edgectl-gone-")
    const state = path.join(parent, "state")
    const made = await edgectlAsync(["objects", "kv", "Counter", "a", "put", "k", "v", "--persist-to", state])
    expect(made.status, made.stderr).toBe(0)
    const t = (tui = await PtyTui.start({ ...size, persistTo: state, cwd: parent }))
    t.write("6")
    await t.waitFor(/›.*Counter\s+a\b/)
    t.write(PtyKeys.enter)
    await t.waitFor("KEY")
    fs.rmSync(state, { recursive: true, force: true })
    t.write(`n`)
    await t.waitFor("its name")
    t.write(`k2${PtyKeys.enter}`)
    await t.waitFor('the value of "k2"')
    t.write(`v2${PtyKeys.enter}`)
    const shown = flat(await t.waitFor("any key dismisses"))
    expect(shown).toContain(`the state directory ${state} is gone (deleted or moved while edgectl ran)`)
    expect(shown).toContain("start edgectl again to make a new state")
    expect(shown).not.toContain("✓ Stored")
    expect(fs.existsSync(state)).toBe(false)
  })
})

describe("the state directory deleted under edgectl serve", () => {
  it("a --remote write is refused, naming the directory (exit 1)", async () => {
    const parent = tempDir("edgectl-gone-")
    const state = path.join(parent, "state")
    served = await startServe(state)
    const env = served.remoteEnv()
    const args = ["dns", "create", "acme.com", "--type", "A", "--name", "w", "--content", "192.0.2.7", "--remote"]
    const before = await edgectlAsync(args, { env })
    expect(before.status, before.stderr).toBe(0)
    fs.rmSync(state, { recursive: true, force: true })
    const after = await edgectlAsync([...args.slice(0, 6), "w2", ...args.slice(7)], { env })
    expect(after.status).toBe(1)
    expect(after.stderr).toContain(`error: dns create: the state directory ${state} ${Gone}`)
  })
})
