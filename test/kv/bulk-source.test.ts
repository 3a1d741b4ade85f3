/** Units: a bulk file is read once (src/kv/bulk-source.ts) and sent from the bytes that were checked. */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { batches, checkFile, keysOf, type CheckedFile } from "../../src/kv/bulk-file.js"

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-kvsource-"))
const now = 1_700_000_000
const entries = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ key: `key-${String(i).padStart(4, "0")}`, value: "v".repeat(50) }))
const bodies = (checked: CheckedFile, maxEntries = Infinity) =>
  [...batches(checked, "entries", { maxEntries, maxBytes: 100 << 20 })].flatMap(
    (b) => JSON.parse(Buffer.from(b.body).toString("utf8")) as Array<unknown>
  )
const spills = () => fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith("edgectl-bulk-"))

describe("bulk files are read once", () => {
  it("what is sent is what was checked, even when the file changes after the check", () => {
    const file = path.join(tmp(), "entries.json")
    fs.writeFileSync(file, JSON.stringify(entries(3)))
    const checked = Either.getOrThrow(checkFile(file, "entries", now))
    fs.writeFileSync(file, JSON.stringify([{ key: "unchecked", value: 1 }]))
    expect(bodies(checked)).toEqual(entries(3))
    expect(bodies(checked, 2)).toEqual(entries(3))
  })

  it("beyond the memory limit the bytes go to a private temp file, deleted on release", () => {
    const file = path.join(tmp(), "big.json")
    fs.writeFileSync(file, JSON.stringify(entries(2000)))
    const before = spills()
    const checked = Either.getOrThrow(checkFile(file, "entries", now, undefined, 16 * 1024))
    const spilled = spills().filter((d) => !before.includes(d))
    expect(spilled).toHaveLength(1)
    expect(fs.statSync(path.join(os.tmpdir(), spilled[0]!, "file.json")).mode & 0o777).toBe(0o600)
    expect(checked.spool.whole()).toBeUndefined()
    fs.rmSync(file)
    expect(bodies(checked)).toEqual(entries(2000))
    checked.spool.release()
    expect(spills().filter((d) => !before.includes(d))).toEqual([])
  })

  it("a syntax error past the memory limit is placed by line and column", () => {
    const file = path.join(tmp(), "broken.json")
    fs.writeFileSync(file, `${JSON.stringify(entries(500)).slice(0, -1)},\n  {"key": 1 2}]`)
    const before = spills()
    const r = Either.getOrThrow(Either.flip(checkFile(file, "entries", now, undefined, 4096)))
    expect(r).toMatchObject({ _tag: "BulkFileError", message: `${file}:2:13: invalid JSON: expected ','` })
    expect(spills().filter((d) => !before.includes(d))).toEqual([])
  })

  it("keysOf: every key once, in the file's order", () => {
    const file = path.join(tmp(), "keys.json")
    fs.writeFileSync(file, JSON.stringify(["b", { name: "a" }, "b", "c"]))
    const checked = Either.getOrThrow(checkFile(file, "keys", now))
    expect(keysOf(checked)).toEqual(["b", "a", "c"])
  })
})
