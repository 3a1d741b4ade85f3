import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach } from "vitest"
import { ObjectStorage, type StorageConfig } from "../../src/objects/index.js"

const open: Array<ObjectStorage> = []
const dirs: Array<string> = []

export const tempDir = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-objects-"))
  dirs.push(d)
  return d
}

export const openStorage = (dir = tempDir(), config?: StorageConfig): ObjectStorage => {
  const s = new ObjectStorage(dir, config)
  open.push(s)
  return s
}

// A seeded generator (mulberry32) of integers in [0, n): the same sequence on every run.
export const random = (seed: number): ((n: number) => number) => {
  let a = seed >>> 0
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)
  }
}

export const turn = (): Promise<void> => new Promise((r) => setImmediate(r))

afterEach(() => {
  for (const s of open.splice(0)) s.close()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

// Everything an object stores: key-value pairs, user schema and rows, and the alarm.
export const dump = async (s: ObjectStorage): Promise<unknown> => {
  const kv = [...(await s.list())]
  const schema = s.sql
    .exec("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name")
    .toArray()
  const tables: Record<string, unknown> = {}
  for (const t of schema) {
    if (t.type === "table") {
      const rows = s.sql
        .exec(`SELECT * FROM "${String(t.name)}"`)
        .raw()
        .toArray()
      tables[String(t.name)] = rows.map((r) => JSON.stringify(r)).sort()
    }
  }
  return { kv, schema, tables, alarm: await s.getAlarm() }
}
