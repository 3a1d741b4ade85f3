/**
 * Bulk files (`kv bulk put|get|delete`): a JSON array of entries, or of keys (strings or `{name}`).
 * A file is read once (./bulk-source.ts: a pipe or `-` works as well as a regular file) and
 * checked as it streams in: nothing is sent until the whole file is valid, so an invalid file
 * changes nothing. The bytes read are then cut into request bodies of at most `maxEntries` entries
 * and `maxBytes` bytes, each entry sent as it was written.
 */
import * as Either from "effect/Either"
import { BulkMaxBytes } from "../domain/kv-limits.js"
import { JsonArrayError, JsonArrayScanner, lineColumn, parseElement } from "./json-array.js"
import { readOnce, type Spool } from "./bulk-source.js"
import { checkEntry, checkKeyItem } from "./entry-checks.js"
import { type Problem } from "./validate.js"
import { readProblem } from "../domain/file-errors.js"

export type BulkKind = "entries" | "keys"

interface UnknownProperty {
  readonly property: string
  /** The first entries (indexes) that have it. */
  readonly indexes: ReadonlyArray<number>
  readonly count: number
}

export interface CheckedFile {
  /** The file as messages name it (`<stdin>` for `-`). */
  readonly file: string
  readonly size: number
  readonly count: number
  /** Every problem, in file order, and the number of entries that have one. */
  readonly problems: ReadonlyArray<Problem>
  readonly problemCount: number
  readonly invalidEntries: number
  readonly unknown: ReadonlyArray<UnknownProperty>
  /** Every item is a plain key string (a keys file can then be sent as it is). */
  readonly plainKeys: boolean
  /** The bytes that were checked: what is sent. */
  readonly spool: Spool
}

/** How messages name a bulk file argument. */
export const fileLabel = (file: string) => (file === "-" ? "<stdin>" : file)

/** A file that cannot be read or is not a JSON array: where and why. */
export class BulkFileError {
  readonly _tag = "BulkFileError"
  constructor(readonly message: string) {}
}

const readError = (file: string, e: unknown) => {
  return new BulkFileError(`cannot read ${fileLabel(file)}: ${readProblem(e)}`)
}

const syntaxError = (label: string, bytes: Uint8Array, e: JsonArrayError) => {
  const { line, column } = lineColumn(bytes, e.offset)
  return new BulkFileError(`${label}:${line}:${column}: ${e.message}`)
}

/**
 * Reads `file` once and checks every item (entries with `now` as the time of the write), keeping
 * the bytes (up to `memoryLimit` in memory, the rest in a temp file) for `batches`, not the items.
 * `onProgress` gets bytes read and the file size (the bytes read so far for a pipe). The caller
 * releases `spool` once done with it.
 */
export const checkFile = (
  file: string,
  kind: BulkKind,
  now: number,
  onProgress?: (bytesRead: number, size: number, items: number) => void,
  memoryLimit = BulkMaxBytes
): Either.Either<CheckedFile, BulkFileError> => {
  const label = fileLabel(file)
  const problems: Array<Problem> = []
  let invalidEntries = 0
  let plainKeys = true
  const unknown = new Map<string, { indexes: Array<number>; count: number }>()
  const check = (item: unknown, index: number) => {
    if (kind === "keys") {
      if (typeof item !== "string") plainKeys = false
      const r = checkKeyItem(item, index)
      if (Either.isLeft(r)) {
        invalidEntries++
        problems.push(r.left)
      }
      return
    }
    const r = checkEntry(item, index, now, false)
    if (r.problems.length > 0) {
      invalidEntries++
      for (const p of r.problems) problems.push(p)
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
  let syntax: JsonArrayError | undefined
  // Syntax errors stop the reading; the bytes read until then place the error.
  const guard = (f: () => void) => {
    try {
      f()
    } catch (e) {
      if (!(e instanceof JsonArrayError)) throw e
      syntax = e
    }
  }
  let spool: Spool
  try {
    spool = readOnce(file, memoryLimit, (piece, read, size) => {
      guard(() => scanner.push(piece))
      onProgress?.(read, size ?? read, scanner.elements)
      return syntax === undefined
    })
  } catch (e) {
    return Either.left(readError(file, e))
  }
  if (syntax === undefined) {
    guard(() => {
      scanner.end()
      flush()
    })
  }
  if (syntax !== undefined) {
    const e = syntaxError(label, spool.prefix(syntax.offset), syntax)
    spool.release()
    return Either.left(e)
  }
  return Either.right({
    file: label,
    size: spool.bytes,
    count: scanner.elements,
    problems,
    problemCount: problems.length,
    invalidEntries,
    unknown: [...unknown].map(([property, u]) => ({ property, ...u })),
    plainKeys,
    spool
  })
}

/** The key of an item of a checked keys file (checked: it is a key). */
const checkedKey = (text: string, offset: number, index: number): string =>
  Either.getOrThrow(checkKeyItem(parseElement(text, offset), index))

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
 * The request bodies of a checked file, in order, cut from the bytes that were checked as they are
 * asked for. A file that fits one body is sent as it is (its bytes, without a byte order mark).
 */
export function* batches(checked: CheckedFile, kind: BulkKind, limits: BatchLimits): Generator<Batch> {
  if (checked.count === 0) return
  const whole = checked.size <= limits.maxBytes ? checked.spool.whole() : undefined
  if (whole !== undefined && checked.count <= limits.maxEntries && (kind === "entries" || checked.plainKeys)) {
    const bom = whole.length >= 3 && whole[0] === 0xef && whole[1] === 0xbb && whole[2] === 0xbf
    yield { body: bom ? whole.subarray(3) : whole, count: checked.count }
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
    const item = kind === "keys" ? JSON.stringify(checkedKey(text, offset, 0)) : text
    const size = Buffer.byteLength(item, "utf8") + 1
    if (texts.length > 0 && (texts.length >= limits.maxEntries || bytes + size > limits.maxBytes)) flush()
    texts.push(item)
    bytes += size
  })
  for (const block of checked.spool.read()) {
    scanner.push(block)
    while (ready.length > 0) yield ready.shift()!
  }
  scanner.end()
  flush()
  while (ready.length > 0) yield ready.shift()!
}

/**
 * How many bodies `batches` cuts the file into, when that is known without cutting it: when no
 * body can reach `maxBytes` (the whole file is under it: an item is sent at most as long as it was
 * written), every body but the last holds `maxEntries` entries. Else undefined.
 */
export const batchCount = (checked: CheckedFile, limits: BatchLimits): number | undefined => {
  if (checked.count === 0) return 0
  if (checked.size > limits.maxBytes) return undefined
  return Number.isFinite(limits.maxEntries) ? Math.ceil(checked.count / limits.maxEntries) : 1
}

/** The keys of a checked keys file, each once, in the file's order (`kv bulk get`). */
export const keysOf = (checked: CheckedFile): Array<string> => {
  const keys = new Set<string>()
  const scanner = new JsonArrayScanner((text, index, offset) => {
    keys.add(checkedKey(text, offset, index))
  })
  for (const block of checked.spool.read()) scanner.push(block)
  scanner.end()
  return [...keys]
}
