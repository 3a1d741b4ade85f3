import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { ObjectHost } from "../../../src/objects/host.js"
import { idFromName, objectDir } from "../../../src/objects/ids.js"
import { ObjectStorage } from "../../../src/objects/storage.js"
import { Fixture, Keys, waitFor } from "../../helpers/ink.js"
import { ObjectsDirContext } from "../../../tui/screens/objects-data.js"
import { ObjectsScreen } from "../../../tui/screens/objects.js"
import { shortBookmark } from "../../../tui/screens/objects-data.js"

const fixture = new Fixture()
const dirs: Array<string> = []
afterEach(async () => {
  await fixture.dispose()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** A state dir with one object: a key, a table, and two bookmarks' worth of history. */
const seeded = async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-tui-objects-"))
  dirs.push(dir)
  const id = idFromName("Counter", "alpha")
  const odir = objectDir(dir, "Counter", id)
  fs.mkdirSync(odir, { recursive: true })
  fs.writeFileSync(path.join(odir, "name"), "alpha")
  const s = new ObjectStorage(odir)
  await s.put("greeting", "hello")
  s.sql.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('first')")
  // The commit's own bookmark, as the history lists it (getCurrentBookmark advances on each call).
  const first = await s.committedBookmark()
  await new Promise((r) => setTimeout(r, 5))
  await s.put("greeting", "changed")
  await s.put("later", 1)
  await s.setAlarm(Date.UTC(2030, 0, 1))
  await s.sync()
  s.close()
  return { dir, odir, first }
}

const mount = (dir: string) =>
  fixture.within(
    fixture.local(),
    <ObjectsDirContext.Provider value={dir}>
      <ObjectsScreen active />
    </ObjectsDirContext.Provider>
  )

describe("Objects screen", () => {
  it("lists stored objects; opens one: alarm, keys and values, the SQL console", async () => {
    const { dir } = await seeded()
    const app = await mount(dir)
    await app.waitForText("alpha")
    expect(app.frame()).toMatch(/Counter\s+alpha/)
    await app.press(Keys.enter, "greeting")
    expect(app.frame()).toContain("changed")
    expect(app.frame()).toMatch(/alarm 2030-01-01T00:00:00Z \(in \d+d \d+h\)/)
    await app.press("\t", "type SQL")
    await app.press(Keys.enter, "_cf_ tables are reserved")
    await app.press("SELECT v FROM t", "SELECT v FROM t")
    await app.press(Keys.enter, "first")
    expect(app.frame()).toContain("1 row(s); rows read 1, rows written 0")
    await app.press(Keys.enter, "_cf_ tables are reserved")
    await app.press("SELECT * FROM _cf_KV")
    await app.press(Keys.enter, "error: sql: access to _cf_KV.key is prohibited")
  })

  it("restores from the bookmark timeline and shows the undo bookmark", async () => {
    const { dir, odir, first } = await seeded()
    const app = await mount(dir)
    await app.waitForText("alpha")
    await app.press(Keys.enter, "greeting")
    await app.press("\t", "type SQL")
    await app.press("\t", "BOOKMARK")
    expect(app.frame()).toContain(shortBookmark(first))
    await app.press("G")
    await waitFor(() => app.frame().includes(`› ${shortBookmark(first)}`), app.frame)
    await app.press(Keys.enter, "Restore Counter alpha")
    await app.press("y", "undo bookmark")
    expect(app.frame()).toMatch(/restored; undo bookmark [0-9a-f-]+/)
    expect(app.frame()).toContain("restore")
    const s = new ObjectStorage(odir)
    try {
      expect(await s.get("greeting")).toBe("hello")
      expect(await s.get("later")).toBeUndefined()
    } finally {
      s.close()
    }
  })

  it("marks a SQL result out of date once the object changes (seen on r, or after a restore); a new run clears the mark", async () => {
    const { dir, odir, first } = await seeded()
    const app = await mount(dir)
    await app.waitForText("alpha")
    await app.press(Keys.enter, "greeting")
    await app.press("\t", "type SQL")
    await app.press(Keys.enter, "_cf_ tables are reserved")
    await app.press("SELECT v FROM t", "SELECT v FROM t")
    await app.press(Keys.enter, "1 row(s); rows read 1")
    expect(app.frame()).not.toContain("out of date")
    // r with nothing changed: still current.
    await app.press("r")
    await new Promise((r) => setTimeout(r, 100))
    expect(app.frame()).not.toContain("out of date")
    // Another writer (here: a storage handle of this process) changes the object; r reads it again.
    const s = new ObjectStorage(odir)
    s.sql.exec("INSERT INTO t VALUES ('second')")
    await s.sync()
    s.close()
    await app.press("r", "out of date: the object changed since this query ran")
    expect(app.frame()).toContain("first")
    // A new run is current again; a restore makes it out of date.
    await app.press(Keys.enter, "_cf_ tables are reserved")
    await app.press("SELECT v FROM t", "SELECT v FROM t")
    await app.press(Keys.enter, (f) => f.includes("second") && !f.includes("out of date"))
    await app.press("\t", "BOOKMARK")
    // Down to the seed's first commit (how many commits its writes made depends on when they flushed).
    for (let i = 0; i < 12 && !app.frame().includes(`› ${shortBookmark(first)}`); i++) await app.press("j")
    await waitFor(() => app.frame().includes(`› ${shortBookmark(first)}`), app.frame)
    await app.press(Keys.enter, "Restore Counter alpha")
    await app.press("y", "undo: ")
    await app.press("\t", "KEY")
    await app.press("\t", "out of date")
  })

  it("an object another process holds: the error names the process, and what to do next", async () => {
    const { dir, odir } = await seeded()
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" })
    try {
      fs.writeFileSync(
        path.join(odir, "owner.lock"),
        JSON.stringify({ pid: holder.pid, command: "edgectl objects dev src/objects.ts" })
      )
      const app = await mount(dir)
      await app.waitForText("alpha")
      await app.press(Keys.enter, "hint:")
      expect(app.frame()).toContain(`pid ${holder.pid} (edgectl objects dev src/objects.ts)`)
      expect(app.frame()).toContain("hint: stop that process (or wait for it to end), then press r; esc goes back")
      expect(app.frame()).not.toContain("loading the object")
      // Once it is gone, r opens the object.
      holder.kill()
      await new Promise((r) => holder.once("exit", r))
      await app.press("r", "greeting")
      expect(app.frame()).not.toContain("hint:")
    } finally {
      holder.kill()
    }
  })

  it("through a host in this process: an object that fails to start shows the error (never loading), r retries; writes appear by themselves; the host's end is noticed", async () => {
    const { dir, odir } = await seeded()
    // The seeded alarm is not this test's concern: the host would run it.
    const s = new ObjectStorage(odir)
    await s.deleteAlarm()
    await s.sync()
    s.close()
    let failing = true
    class Counter {
      constructor(private readonly ctx: { storage: ObjectStorage }) {
        if (failing) throw new Error("Counter cannot start: its configuration is missing")
      }
      async fetch(): Promise<Response> {
        await this.ctx.storage.put("greeting", "from the host")
        return new Response("ok")
      }
    }
    const host = await ObjectHost.start({ module: { Counter: Counter as never }, persistTo: dir })
    let closed = false
    try {
      const app = await mount(dir)
      await app.waitForText(`running in a host: pid ${process.pid}`)
      // Not started yet: no mark on its row.
      expect(app.frame()).toMatch(/› {4}Counter\s+alpha/)
      await app.press(Keys.enter, "could not open the object")
      expect(app.frame()).toContain("Counter cannot start: its configuration is missing")
      expect(app.frame()).not.toContain("loading the object")
      failing = false
      await app.press("r", "live in pid")
      expect(app.frame()).toMatch(/● Counter alpha {2}live in pid \d+/)
      expect(app.frame()).not.toContain("could not open")
      await (await host.namespace("Counter").get(idFromName("Counter", "alpha")).fetch("/")).text()
      await app.waitForText("from the host")
      // A writing query is an event of the running object: it sees the row at once.
      await app.press("\t", "type SQL")
      await app.press(Keys.enter, "_cf_ tables are reserved")
      await app.press("INSERT INTO t VALUES ('typed'); SELECT count(*) AS n FROM t", "SELECT count(*)")
      await app.press(Keys.enter, "rows written 1")
      expect(app.frame()).not.toContain("out of date")
      const rows = await host.event("Counter", idFromName("Counter", "alpha"), (inst) =>
        inst.storage.sql.exec("SELECT v FROM t ORDER BY rowid").toArray()
      )
      expect(rows).toEqual([{ v: "first" }, { v: "typed" }])
      await app.press("\t", "BOOKMARK")
      await app.press("\t", "KEY")
      await host.close()
      closed = true
      await waitFor(() => !app.frame().includes("live in pid"), app.frame)
      expect(app.frame()).toContain("from the host")
      await app.press(Keys.escape, "alpha")
      await waitFor(() => !app.frame().includes("running in a host") && !app.frame().includes("●"), app.frame)
    } finally {
      if (!closed) await host.close()
    }
  })

  it("a state directory that cannot be listed: the error, whole, never loading", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-tui-objects-"))
    dirs.push(dir)
    fs.writeFileSync(path.join(dir, "objects"), "not a directory")
    const app = await mount(dir)
    await app.waitForText("could not list the objects")
    expect(app.frame()).toContain("ENOTDIR")
    expect(app.frame()).not.toContain("loading")
  })

  it("a value it does not edit (not a string): the command it suggests acts on the screen's state directory", async () => {
    const { dir } = await seeded()
    const app = await mount(dir)
    await app.waitForText("alpha")
    await app.press(Keys.enter, "greeting")
    await app.press("j")
    await app.press("e", "only a string value is edited here")
    // The notice wraps inside its bar: read it as one line.
    expect(app.frame().replace(/┃/g, "").replace(/\s+/g, " ")).toContain(
      `edgectl objects kv Counter NAME put KEY JSON --value-json --persist-to ${dir}\``
    )
  })

  it("says where objects come from when there are none", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-tui-objects-"))
    dirs.push(dir)
    const app = await mount(dir)
    await app.waitForText("No objects under")
    // The commands it suggests act on the same state directory (not the default one).
    const text = app.frame().replace(/\s+/g, " ")
    expect(text).toContain(`edgectl objects dev MODULE --persist-to ${dir}\``)
    expect(text).toContain(`edgectl objects kv CLASS NAME put KEY VALUE --persist-to ${dir}\``)
  })
})
