/**
 * A bulk file read once: from a regular file, a pipe, a FIFO, `/dev/stdin`, a `<(…)` substitution
 * or `-` (standard input). The bytes are kept while the file is checked so that the same bytes
 * are sent afterwards: a pipe cannot be read twice, and a file that changes between the check and
 * the send must not be written half-checked. Up to `memoryLimit` bytes stay in memory (a file
 * that fits one request is sent from there, as it was read); beyond it they go to a private temp
 * file, deleted when the command ends, however it ends (./spool-files.ts).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { makeSpoolDir, sweepOnce, track, untrack } from "./spool-files.js"

const BlockBytes = 4 << 20

/** `/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`: the descriptor they name, for when open() cannot reopen it. */
const inheritedFd = (file: string): number | undefined => {
  if (file === "/dev/stdin") return 0
  const m = /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(file)
  return m ? Number(m[1]) : undefined
}

/** The descriptor to read `file` from and whether it is ours to close. Throws the fs error. */
const openSource = (file: string): { readonly fd: number; readonly owned: boolean } => {
  if (file === "-") return { fd: 0, owned: false }
  try {
    return { fd: fs.openSync(file, "r"), owned: true }
  } catch (e) {
    // A socket (what Node and many supervisors give a child as stdin) cannot be opened again by
    // its /proc path; the descriptor itself reads fine.
    const fd = inheritedFd(file)
    if (fd !== undefined && (e as NodeJS.ErrnoException).code === "ENXIO") return { fd, owned: false }
    throw e
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4))

/** readSync that waits on a non-blocking descriptor (a stdin someone set O_NONBLOCK on) instead of failing. */
const readBlocking = (fd: number, into: Buffer, at: number): number => {
  for (;;) {
    try {
      return fs.readSync(fd, into, at, into.length - at, null)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e
      Atomics.wait(pause, 0, 0, 5)
    }
  }
}

/** The bytes of a bulk file as read, in memory or spilled to a temp file. */
export class Spool {
  private blocks: Array<Buffer> = []
  private size = 0
  private spill: { readonly dir: string; readonly fd: number } | undefined

  constructor(private readonly memoryLimit: number) {
    // A bulk starts here (the file read, or a body staged): the time to remove what killed ones left.
    sweepOnce()
  }

  get bytes(): number {
    return this.size
  }

  /** Keeps `block` (which the caller no longer changes). */
  append(block: Buffer): void {
    if (block.length === 0) return
    this.size += block.length
    if (this.spill === undefined && this.size <= this.memoryLimit) {
      this.blocks.push(block)
      return
    }
    if (this.spill === undefined) {
      const dir = makeSpoolDir()
      this.spill = { dir, fd: fs.openSync(path.join(dir, "file.json"), "w+", 0o600) }
      track(this.release)
      for (const b of this.blocks) fs.writeSync(this.spill.fd, b)
      this.blocks = []
    }
    fs.writeSync(this.spill.fd, block)
  }

  /** Where the content is, for a reader in another thread of this process (the descriptor is shared). */
  location(): { readonly blocks: ReadonlyArray<Buffer> } | { readonly fd: number; readonly size: number } {
    return this.spill === undefined ? { blocks: this.blocks } : { fd: this.spill.fd, size: this.size }
  }

  /** The whole content as one buffer when it is held in memory, else undefined. */
  whole(): Buffer | undefined {
    if (this.spill !== undefined) return undefined
    return this.blocks.length === 1 ? this.blocks[0]! : Buffer.concat(this.blocks, this.size)
  }

  /** The content again, block by block. */
  *read(): Generator<Buffer> {
    if (this.spill === undefined) {
      yield* this.blocks
      return
    }
    let at = 0
    while (at < this.size) {
      const block = Buffer.allocUnsafe(Math.min(BlockBytes, this.size - at))
      const n = fs.readSync(this.spill.fd, block, 0, block.length, at)
      if (n === 0) break
      at += n
      yield block.subarray(0, n)
    }
  }

  /** The first `length` bytes (to place a syntax error). */
  prefix(length: number): Buffer {
    const out = Buffer.alloc(Math.min(length, this.size))
    let at = 0
    for (const block of this.read()) {
      if (at >= out.length) break
      at += block.copy(out, at, 0, Math.min(block.length, out.length - at))
    }
    return out
  }

  /** Drops the bytes and deletes the temp file, if any. */
  readonly release = (): void => {
    this.blocks = []
    if (this.spill !== undefined) {
      const { dir, fd } = this.spill
      this.spill = undefined
      untrack(this.release)
      try {
        fs.closeSync(fd)
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}

/**
 * Reads `file` once to its end into a Spool, handing each piece to `onBytes` as it arrives (with
 * the bytes read so far and the size when it is known beforehand); `onBytes` returns false to stop
 * early (the spool then holds at least the bytes it was given). Throws the fs error.
 */
export const readOnce = (
  file: string,
  memoryLimit: number,
  onBytes: (piece: Buffer, read: number, size: number | undefined) => boolean
): Spool => {
  const { fd, owned } = openSource(file)
  const spool = new Spool(memoryLimit)
  try {
    const st = fs.fstatSync(fd)
    if (st.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" })
    const size = st.isFile() && owned ? st.size : undefined
    let read = 0
    for (;;) {
      // A regular file that fits in memory is read into one buffer of its size (as readFileSync
      // would); anything else in blocks, each filled by as many reads as it takes (a pipe gives
      // 64 KiB at a time).
      const want = size !== undefined && size > 0 && size <= memoryLimit && read === 0 ? size : BlockBytes
      const block = Buffer.allocUnsafe(want)
      let filled = 0
      let more = true
      while (more && filled < block.length) {
        const n = readBlocking(fd, block, filled)
        if (n === 0) break
        const piece = block.subarray(filled, filled + n)
        filled += n
        read += n
        more = onBytes(piece, read, size)
      }
      spool.append(block.subarray(0, filled))
      if (!more || filled < block.length) break
    }
    return spool
  } catch (e) {
    spool.release()
    throw e
  } finally {
    if (owned) fs.closeSync(fd)
  }
}
