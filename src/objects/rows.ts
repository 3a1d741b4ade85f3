// Row objects of the SQL cursor. better-sqlite3 returns each row as an array (`raw` mode, the
// cheapest way out of SQLite); the cursor turns it into an object with a function generated once
// per list of column names: an object literal with constant keys gets its shape at once, where
// assigning the names one by one in a loop costs a property insertion each.
export type SqlValue = ArrayBuffer | string | number | null
export type RowBuilder = (raw: ReadonlyArray<unknown>) => Record<string, SqlValue>

// BLOBs come back as ArrayBuffers, as on the platform.
export const out = (v: unknown): SqlValue => {
  if (Buffer.isBuffer(v)) return v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer
  if (typeof v === "bigint") return Number(v)
  return v as SqlValue
}

const value = (v: unknown): SqlValue =>
  (typeof v === "object" && v !== null) || typeof v === "bigint" ? out(v) : (v as SqlValue)

// Wider rows are built by a loop: a literal of hundreds of keys is a large function to compile.
const MAX_GENERATED = 128
const CACHE_LIMIT = 256
const builders = new Map<string, RowBuilder>()

const generate = (names: ReadonlyArray<string>): RowBuilder => {
  // Each name as a quoted key; `__proto__` computed, so that it is an own property and never the
  // prototype. A later duplicate name wins, as it does when assigning in order.
  const fields = names.map((n, i) => `${n === "__proto__" ? `[${JSON.stringify(n)}]` : JSON.stringify(n)}: v(r[${i}])`)
  return new Function("v", `"use strict"; return (r) => ({ ${fields.join(", ")} })`)(value) as RowBuilder
}

const loop =
  (names: ReadonlyArray<string>): RowBuilder =>
  (r) => {
    const row: Record<string, SqlValue> = {}
    for (let i = 0; i < names.length; i++)
      Object.defineProperty(row, names[i]!, {
        value: value(r[i]),
        writable: true,
        enumerable: true,
        configurable: true
      })
    return row
  }

export const rowBuilder = (names: ReadonlyArray<string>): RowBuilder => {
  // SQLite's column names are C strings: no NUL inside.
  const id = names.join("\u0000")
  let b = builders.get(id)
  if (b === undefined) {
    b = names.length > MAX_GENERATED ? loop(names) : generate(names)
    if (builders.size >= CACHE_LIMIT) builders.delete(builders.keys().next().value!)
    builders.set(id, b)
  }
  return b
}
