/**
 * The checked entries (or keys) of a bulk request, held from the moment each is checked until the
 * request's one transaction writes them all: up to `memoryLimit` bytes in memory, beyond that in a
 * private temporary file (bulk-source.ts's Spool), so a 100 MB bulk does not hold 100 MB of values
 * while its body is still arriving. Records are length-prefixed fields, read back in order.
 */
import { Spool } from "./bulk-source.js"
import type { WriteEntry } from "./validate.js"

/** Small records are gathered into blocks of this size before they go to the spool. */
const BlockBytes = 1 << 20
/** A field's length; -1 is null. */
const LengthBytes = 4

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

  /** The records in the order they were appended (a field is a view of the block it was read into). */
  *read(): Generator<Array<Buffer | null>> {
    this.flush()
    const queue = new ByteQueue()
    let record: Array<Buffer | null> = []
    let length: number | undefined
    for (const block of this.spool.read()) {
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
        if (record.length === this.fields) {
          yield record
          record = []
        }
      }
    }
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
export const StagingMemoryBytes = 16 << 20

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

  *entries(): Generator<WriteEntry> {
    for (const [key, value, metadata, expiration] of this.records.read()) {
      yield {
        key: key!.toString("utf8"),
        value: value!,
        metadata: metadata === null ? null : metadata!.toString("utf8"),
        expiration: expiration === null ? null : expiration!.readDoubleLE(0)
      }
    }
  }

  release(): void {
    this.records.release()
  }
}

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
