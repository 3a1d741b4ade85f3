// Reads committed frames from a SQLite write-ahead log (SQLite's documented WAL format): a 32-byte
// header (magic, version, page size, checkpoint sequence, salt-1, salt-2, checksums) and frames of
// a 24-byte header (page number, database size after commit or 0, salt-1, salt-2, checksums) plus
// one page. Frames after the last commit frame belong to no committed transaction.
import * as fs from "node:fs"

export interface WalFrame {
  readonly pgno: number
  readonly data: Buffer
}
export interface WalCommit {
  readonly frames: ReadonlyArray<WalFrame>
  readonly size: number
}
export interface WalRead {
  readonly commits: ReadonlyArray<WalCommit>
  readonly offset: number
  readonly salt: string
  readonly pageSize: number
}

const HEADER = 32
const FRAME_HEADER = 24

// From `offset` (0 means a fresh file: start after the header) to the end of the last commit.
export const readWal = (file: string, offset: number, salt: string | null): WalRead | null => {
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
    const pageSize = head.readUInt32BE(8) === 1 ? 65536 : head.readUInt32BE(8)
    const s1 = head.readUInt32BE(16)
    const s2 = head.readUInt32BE(20)
    const fileSalt = `${s1}:${s2}`
    const from = fileSalt === salt && offset >= HEADER ? offset : HEADER
    if (size <= from) return { commits: [], offset: from, salt: fileSalt, pageSize }
    const buf = Buffer.alloc(size - from)
    fs.readSync(fd, buf, 0, buf.length, from)
    const frameSize = FRAME_HEADER + pageSize
    const commits: Array<WalCommit> = []
    let pending: Array<WalFrame> = []
    let end = from
    for (let at = 0; at + frameSize <= buf.length; at += frameSize) {
      if (buf.readUInt32BE(at + 8) !== s1 || buf.readUInt32BE(at + 12) !== s2) break
      const pgno = buf.readUInt32BE(at)
      const commitSize = buf.readUInt32BE(at + 4)
      pending.push({ pgno, data: buf.subarray(at + FRAME_HEADER, at + frameSize) })
      if (commitSize !== 0) {
        commits.push({ frames: pending, size: commitSize })
        pending = []
        end = from + at + frameSize
      }
    }
    return { commits, offset: end, salt: fileSalt, pageSize }
  } finally {
    fs.closeSync(fd)
  }
}
