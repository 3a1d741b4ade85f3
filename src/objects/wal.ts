// Reads committed frames from a SQLite write-ahead log (SQLite's documented WAL format): a 32-byte
// header (magic, version, page size, checkpoint sequence, salt-1, salt-2, checksums) and frames of
// a 24-byte header (page number, database size after commit or 0, salt-1, salt-2, checksums) plus
// one page. Frames after the last commit frame belong to no committed transaction.
//
// As SQLite's own recovery does, a frame counts only when its salts match the header's and its
// cumulative checksum is right: after a power loss the log may end in a torn frame, and the frames
// from there on are not part of the database.
import * as fs from "node:fs"

interface WalFrame {
  readonly pgno: number
  readonly data: Buffer
}
interface WalCommit {
  readonly frames: ReadonlyArray<WalFrame>
  readonly size: number
}
/** The running checksum at a point of the log (two unsigned 32-bit words). */
export type WalChecksum = readonly [number, number]
export interface WalRead {
  readonly commits: ReadonlyArray<WalCommit>
  readonly offset: number
  readonly salt: string
  readonly pageSize: number
  /** The checksum at `offset`, from which the next read goes on. */
  readonly checksum: WalChecksum
}

const HEADER = 32
const FRAME_HEADER = 24

/** SQLite's WAL checksum of `buf[from, to)`, seeded with `seed`; words in the log's byte order. */
const littleEndianHost = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

const checksum = (buf: Buffer, from: number, to: number, seed: WalChecksum, bigEndian: boolean): [number, number] => {
  let s0 = seed[0]
  let s1 = seed[1]
  if (bigEndian !== littleEndianHost && (buf.byteOffset + from) % 4 === 0) {
    // The log's byte order is the machine's (SQLite writes it so): read whole words.
    const words = new Uint32Array(buf.buffer, buf.byteOffset + from, (to - from) >>> 2)
    for (let i = 0; i < words.length; i += 2) {
      s0 = (s0 + words[i]! + s1) >>> 0
      s1 = (s1 + words[i + 1]! + s0) >>> 0
    }
    return [s0, s1]
  }
  for (let i = from; i < to; i += 8) {
    const x0 = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i)
    const x1 = bigEndian ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4)
    s0 = (s0 + x0 + s1) >>> 0
    s1 = (s1 + x1 + s0) >>> 0
  }
  return [s0, s1]
}

/**
 * The commits from `offset` to the end of the last valid commit. `offset` and `seed` (the checksum
 * there) come from the previous read of the same log (same salt); without a seed the log is read
 * from its header and only commits past `offset` are returned.
 */
export const readWal = (
  file: string,
  offset: number,
  salt: string | null,
  seed: WalChecksum | null = null
): WalRead | null => {
  let fd: number
  try {
    fd = fs.openSync(file, "r")
  } catch {
    return null
  }
  try {
    const size = fs.fstatSync(fd).size
    if (size < HEADER) return null
    const head = Buffer.alloc(HEADER)
    fs.readSync(fd, head, 0, HEADER, 0)
    const magic = head.readUInt32BE(0)
    if (magic !== 0x377f0682 && magic !== 0x377f0683) return null
    const bigEndian = magic === 0x377f0683
    const headerSum: WalChecksum = [head.readUInt32BE(24), head.readUInt32BE(28)]
    const computed = checksum(head, 0, 24, [0, 0], bigEndian)
    if (computed[0] !== headerSum[0] || computed[1] !== headerSum[1]) return null
    const pageSize = head.readUInt32BE(8) === 1 ? 65536 : head.readUInt32BE(8)
    const s1 = head.readUInt32BE(16)
    const s2 = head.readUInt32BE(20)
    const fileSalt = `${s1}:${s2}`
    const sameLog = fileSalt === salt && offset >= HEADER
    const resume = sameLog && seed !== null
    const from = resume ? offset : HEADER
    // Commits that end at or before this were returned by an earlier read.
    const skipUntil = sameLog && !resume ? offset : HEADER
    let sum: WalChecksum = resume ? seed : headerSum
    if (size <= from) return { commits: [], offset: from, salt: fileSalt, pageSize, checksum: sum }
    const buf = Buffer.alloc(size - from)
    fs.readSync(fd, buf, 0, buf.length, from)
    const frameSize = FRAME_HEADER + pageSize
    const commits: Array<WalCommit> = []
    let pending: Array<WalFrame> = []
    let end = from
    let endSum = sum
    for (let at = 0; at + frameSize <= buf.length; at += frameSize) {
      if (buf.readUInt32BE(at + 8) !== s1 || buf.readUInt32BE(at + 12) !== s2) break
      const next = checksum(
        buf,
        at + FRAME_HEADER,
        at + frameSize,
        checksum(buf, at, at + 8, sum, bigEndian),
        bigEndian
      )
      if (next[0] !== buf.readUInt32BE(at + 16) || next[1] !== buf.readUInt32BE(at + 20)) break
      sum = next
      const pgno = buf.readUInt32BE(at)
      const commitSize = buf.readUInt32BE(at + 4)
      pending.push({ pgno, data: buf.subarray(at + FRAME_HEADER, at + frameSize) })
      if (commitSize !== 0) {
        if (from + at + frameSize > skipUntil) commits.push({ frames: pending, size: commitSize })
        pending = []
        end = from + at + frameSize
        endSum = sum
      }
    }
    return { commits, offset: end, salt: fileSalt, pageSize, checksum: endSum }
  } finally {
    fs.closeSync(fd)
  }
}
