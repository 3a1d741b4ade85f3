/**
 * Bulk files (`kv bulk put` / `kv bulk delete`): a JSON array of entries, or of keys (strings or
 * `{name}`). A file is read twice, streaming: first every entry is checked (nothing is sent until
 * the whole file is valid, so an invalid file changes nothing), then it is cut into request bodies
 * of at most `maxEntries` entries and `maxBytes` bytes, each entry sent as it was written.
 */
import * as fs from "node:fs"
import { JsonArrayError, JsonArrayScanner, lineColumn, parseElement } from "./json-array.js"
import { MaxReportedProblems } from "./problems.js"
import { checkEntry, checkKeyItem, type Problem } from "./validate.js"

export type BulkKind = "entries" | "keys"

const ChunkBytes = 4 << 20

export interface UnknownProperty {
  readonly property: string
  /** The first entries (indexes) that have it. */
  readonly indexes: ReadonlyArray<number>
  readonly count: number
}

export interface CheckedFile {
  readonly file: string
  readonly size: number
  readonly count: number
  /** The first problems (at most MaxReportedProblems) and how many there are in all. */
  readonly problems: ReadonlyArray<Problem>
  readonly problemCount: number
  readonly unknown: ReadonlyArray<UnknownProperty>
  /** Every item is a plain key string (a keys file can then be sent as it is). */
  readonly plainKeys: boolean
}

/** A file that cannot be read or is not a JSON array: where and why. */
export class BulkFileError {
  readonly _tag = "BulkFileError"
  constructor(readonly message: string) {}
}

const readError = (file: string, e: unknown) => {
  const code = (e as NodeJS.ErrnoException).code
  const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : String((e as Error).message)
  return new BulkFileError(`cannot read ${file}: ${why}`)
}

const syntaxError = (file: string, e: JsonArrayError) => {
  const { line, column } = lineColumn(file, e.offset)
  return new BulkFileError(`${file}:${line}:${column}: ${e.message}`)
}

/** Reads `file` chunk by chunk into `scanner`, calling `afterChunk` with the bytes read so far. */
const feed = (file: string, scanner: JsonArrayScanner, afterChunk: (bytesRead: number) => void) => {
  const fd = fs.openSync(file, "r")
  let read = 0
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(ChunkBytes)
      const n = fs.readSync(fd, chunk, 0, ChunkBytes, null)
      if (n === 0) break
      read += n
      scanner.push(chunk.subarray(0, n))
      afterChunk(read)
    }
  } finally {
    fs.closeSync(fd)
  }
  scanner.end()
}

/**
 * Pass 1: checks every item of the file (entries with `now` as the time of the write), without
 * keeping them. `onProgress` gets bytes read and the file size.
 */
export const checkFile = (
  file: string,
  kind: BulkKind,
  now: number,
  onProgress?: (bytesRead: number, size: number, items: number) => void
): CheckedFile | BulkFileError => {
  let size: number
  try {
    const st = fs.statSync(file)
    if (st.isDirectory()) return new BulkFileError(`cannot read ${file}: it is a directory`)
    size = st.size
  } catch (e) {
    return readError(file, e)
  }
  const problems: Array<Problem> = []
  let problemCount = 0
  let plainKeys = true
  const unknown = new Map<string, { indexes: Array<number>; count: number }>()
  const check = (item: unknown, index: number) => {
    if (kind === "keys") {
      if (typeof item !== "string") plainKeys = false
      const r = checkKeyItem(item, index)
      if ("field" in r) {
        problemCount++
        if (problems.length < MaxReportedProblems) problems.push(r)
      }
      return
    }
    const r = checkEntry(item, index, now, false)
    if (r.problems.length > 0) {
      problemCount += r.problems.length
      for (const p of r.problems) if (problems.length < MaxReportedProblems) problems.push(p)
    }
    for (const property of r.unknown) {
      const u = unknown.get(property) ?? { indexes: [], count: 0 }
      if (u.indexes.length < 5) u.indexes.push(index)
      u.count++
      unknown.set(property, u)
    }
  }
  // Elements are parsed a thousand at a time (one JSON.parse each); a batch that does not parse
  // is parsed element by element, to place the error.
  let texts: Array<string> = []
  let offsets: Array<number> = []
  let first = 0
  const flush = () => {
    if (texts.length === 0) return
    let items: Array<unknown>
    try {
      items = JSON.parse(`[${texts.join(",")}]`) as Array<unknown>
      if (items.length !== texts.length) throw new Error("element count")
    } catch {
      items = texts.map((t, i) => parseElement(t, offsets[i]!))
    }
    for (let i = 0; i < items.length; i++) check(items[i], first + i)
    first += texts.length
    texts = []
    offsets = []
  }
  const scanner = new JsonArrayScanner((text, _index, offset) => {
    texts.push(text)
    offsets.push(offset)
    if (texts.length >= 1000) flush()
  })
  try {
    feed(file, scanner, (read) => onProgress?.(read, size, scanner.elements))
    flush()
  } catch (e) {
    if (e instanceof JsonArrayError) return syntaxError(file, e)
    return readError(file, e)
  }
  return {
    file,
    size,
    count: scanner.elements,
    problems,
    problemCount,
    unknown: [...unknown].map(([property, u]) => ({ property, ...u })),
    plainKeys
  }
}

export interface Batch {
  /** A JSON array, ready to send. */
  readonly body: Uint8Array
  readonly count: number
}

export interface BatchLimits {
  readonly maxEntries: number
  readonly maxBytes: number
}

/**
 * Pass 2: the request bodies of a checked file, in order, read as they are asked for. A file that
 * fits one body is sent as it is (its bytes, without a byte order mark).
 */
export function* batches(checked: CheckedFile, kind: BulkKind, limits: BatchLimits): Generator<Batch> {
  if (checked.count === 0) return
  if (checked.count <= limits.maxEntries && checked.size <= limits.maxBytes && (kind === "entries" || checked.plainKeys)) {
    const bytes = fs.readFileSync(checked.file)
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
    yield { body: bom ? bytes.subarray(3) : bytes, count: checked.count }
    return
  }
  const ready: Array<Batch> = []
  let texts: Array<string> = []
  let bytes = 2
  const flush = () => {
    if (texts.length === 0) return
    ready.push({ body: Buffer.from(`[${texts.join(",")}]`, "utf8"), count: texts.length })
    texts = []
    bytes = 2
  }
  const scanner = new JsonArrayScanner((text, _index, offset) => {
    const item = kind === "keys" ? JSON.stringify((checkKeyItem(parseElement(text, offset), 0) as { key: string }).key) : text
    const size = Buffer.byteLength(item, "utf8") + 1
    if (texts.length > 0 && (texts.length >= limits.maxEntries || bytes + size > limits.maxBytes)) flush()
    texts.push(item)
    bytes += size
  })
  const fd = fs.openSync(checked.file, "r")
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(ChunkBytes)
      const n = fs.readSync(fd, chunk, 0, ChunkBytes, null)
      if (n === 0) break
      scanner.push(chunk.subarray(0, n))
      while (ready.length > 0) yield ready.shift()!
    }
  } finally {
    fs.closeSync(fd)
  }
  scanner.end()
  flush()
  while (ready.length > 0) yield ready.shift()!
}
