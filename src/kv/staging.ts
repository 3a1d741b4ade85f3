/**
 * The checked entries (or keys) of a bulk request, held from the moment each is checked until the
 * request's one transaction writes them all: up to `memoryLimit` bytes in memory, beyond that in a
 * private temporary file (bulk-source.ts's Spool), so a 100 MB bulk does not hold 100 MB of values
 * while its body is still arriving. Records are length-prefixed fields, read back in order, here or
 * (a large bulk, see src/store/commit-worker.ts) by the thread that commits them (`handoff`).
 */
import * as fs from "node:fs"
import { Spool } from "./bulk-source.js"
import type { WriteEntry } from "./entry-checks.js"

/** Small records are gathered into blocks of this size before they go to the spool. */
const BlockBytes = 1 << 20
/** A field's length; -1 is null. */
const LengthBytes = 4
/** A handed-off temporary file is read back in blocks of this size. */
const ReadBlockBytes = 4 << 20

/**
 * Staged records handed to another thread of this process: a copy in shared memory (a bulk that
 * stayed in memory: its blocks may be views of larger buffers, which a message would copy whole), or
 * the temporary file's descriptor (descriptors belong to the process), valid until `release`.
 */
export type StagedBytes = { readonly memory: SharedArrayBuffer } | { readonly fd: number; readonly size: number }

const blocksOf = function* (staged: StagedBytes): Generator<Buffer> {
  if ("memory" in staged) {
    yield Buffer.from(staged.memory)
    return
  }
  for (let at = 0; at < staged.size;) {
    const block = Buffer.allocUnsafe(Math.min(ReadBlockBytes, staged.size - at))
    const n = fs.readSync(staged.fd, block, 0, block.length, at)
    if (n === 0) return
    at += n
    yield block.subarray(0, n)
  }
}

/** The records of `fields` fields each in `blocks` (a field is a view of the block it was read into). */
const recordsOf = function* (blocks: Iterable<Buffer>, fields: number): Generator<Array<Buffer | null>> {
  const queue = new ByteQueue()
  let record: Array<Buffer | null> = []
  let length: number | undefined
  for (const block of blocks) {
    queue.add(block)
    for (;;) {
      if (length === undefined) {
        const head = queue.take(LengthBytes)
        if (head === undefined) break
        length = head.readInt32LE(0)
      }
      const field = length <= 0 ? (length === 0 ? Buffer.alloc(0) : null) : queue.take(length)
      if (field === undefined) break
      record.push(field)
      length = undefined
      if (record.length === fields) {
        yield record
        record = []
      }
    }
  }
}

type Field = Uint8Array | null

/** A spool of records of `fields` fields each. */
class RecordSpool {
  private readonly spool: Spool
  private block = Buffer.allocUnsafe(BlockBytes)
  private used = 0
  private records = 0

  constructor(
    private readonly fields: number,
    memoryLimit: number
  ) {
    this.spool = new Spool(memoryLimit)
  }

  get count(): number {
    return this.records
  }

  get bytes(): number {
    return this.spool.bytes + this.used
  }

  append(record: ReadonlyArray<Field>): void {
    for (const field of record) {
      if (this.used + LengthBytes > BlockBytes) this.flush()
      this.used = this.block.writeInt32LE(field === null ? -1 : field.length, this.used)
      if (field === null || field.length === 0) continue
      if (field.length > BlockBytes - this.used) {
        // A large field (a value of a few MiB) goes to the spool as it is, not copied into blocks.
        this.flush()
        this.spool.append(Buffer.from(field.buffer, field.byteOffset, field.byteLength))
      } else {
        this.block.set(field, this.used)
        this.used += field.length
      }
    }
    this.records++
  }

  private flush() {
    if (this.used === 0) return
    this.spool.append(this.block.subarray(0, this.used))
    this.block = Buffer.allocUnsafe(BlockBytes)
    this.used = 0
  }

  /** The records in the order they were appended. */
  read(): Generator<Array<Buffer | null>> {
    this.flush()
    return recordsOf(this.spool.read(), this.fields)
  }

  handoff(): StagedBytes {
    this.flush()
    const where = this.spool.location()
    if ("fd" in where) return where
    const memory = new SharedArrayBuffer(this.spool.bytes)
    const view = Buffer.from(memory)
    let at = 0
    for (const block of where.blocks) at += block.copy(view, at)
    return { memory }
  }

  release(): void {
    this.block = Buffer.alloc(0)
    this.used = 0
    this.spool.release()
  }
}

/** Bytes from successive blocks, taken in exact lengths (a view when they lie in one block). */
class ByteQueue {
  private blocks: Array<Buffer> = []
  private at = 0
  private size = 0

  add(block: Buffer) {
    this.blocks.push(block)
    this.size += block.length
  }

  take(n: number): Buffer | undefined {
    if (this.size - this.at < n) return undefined
    const first = this.blocks[0]!
    let out: Buffer
    if (first.length - this.at >= n) out = first.subarray(this.at, this.at + n)
    else {
      out = Buffer.allocUnsafe(n)
      let filled = 0
      let i = 0
      let from = this.at
      while (filled < n) {
        filled += this.blocks[i]!.copy(out, filled, from, Math.min(this.blocks[i]!.length, from + n - filled))
        from = 0
        i++
      }
    }
    this.at += n
    while (this.blocks.length > 0 && this.at >= this.blocks[0]!.length) {
      this.at -= this.blocks[0]!.length
      this.size -= this.blocks[0]!.length
      this.blocks.shift()
    }
    return out
  }
}

/** In memory up to this much; a larger bulk's checked entries go to a temporary file. */
const StagingMemoryBytes = 16 << 20

const utf8 = (s: string) => Buffer.from(s, "utf8")

/** Checked entries of a bulk write. */
export class StagedEntries {
  private readonly records: RecordSpool

  constructor(memoryLimit = StagingMemoryBytes) {
    this.records = new RecordSpool(4, memoryLimit)
  }

  get count(): number {
    return this.records.count
  }

  add(e: WriteEntry): void {
    const expiration = e.expiration === null ? null : Buffer.allocUnsafe(8)
    expiration?.writeDoubleLE(e.expiration!, 0)
    this.records.append([utf8(e.key), e.value, e.metadata === null ? null : utf8(e.metadata), expiration])
  }

  /** The staged size in bytes (keys, values, metadata and framing). */
  get bytes(): number {
    return this.records.bytes
  }

  entries(): Generator<WriteEntry> {
    return toEntries(this.records.read())
  }

  /** The staged entries for another thread to read with `stagedEntries` (until `release`). */
  handoff(): StagedBytes {
    return this.records.handoff()
  }

  release(): void {
    this.records.release()
  }
}

const toEntries = function* (records: Iterable<Array<Buffer | null>>): Generator<WriteEntry> {
  for (const [key, value, metadata, expiration] of records) {
    yield {
      key: key!.toString("utf8"),
      value: value!,
      metadata: metadata === null ? null : metadata!.toString("utf8"),
      expiration: expiration === null ? null : expiration!.readDoubleLE(0)
    }
  }
}

/** The entries of a `StagedEntries.handoff()`, in the order they were staged. */
export const stagedEntries = (staged: StagedBytes): Generator<WriteEntry> => toEntries(recordsOf(blocksOf(staged), 4))

/** Checked keys of a bulk delete. */
export class StagedKeys {
  private readonly records: RecordSpool

  constructor(memoryLimit = StagingMemoryBytes) {
    this.records = new RecordSpool(1, memoryLimit)
  }

  get count(): number {
    return this.records.count
  }

  add(key: string): void {
    this.records.append([utf8(key)])
  }

  *keys(): Generator<string> {
    for (const [key] of this.records.read()) yield key!.toString("utf8")
  }

  release(): void {
    this.records.release()
  }
}
