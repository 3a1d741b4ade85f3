// The control channel of a running ObjectHost: a Unix domain socket that only the same user can
// reach, and a registration file beside it, both in `<state>/.host/` (a 0700 directory; the
// socket and the file are 0600). A socket rather than a loopback port: a port is open to every
// user of the machine and would need a secret to check, where the file system's permissions
// already say who may connect, and a socket needs no port to pick or collide on.
//
// One request per connection, each way one frame: a 4-byte big-endian length, then the message in
// V8's serialization (the values an object stores, Maps, ArrayBuffers and all, cross unchanged).
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as v8 from "node:v8"
import { nodeCrypto } from "../lazy-builtins.js"
import { makeDirectory } from "../make-directory.js"

const HOST_DIR = ".host"
// sockaddr_un holds 108 bytes with the final NUL; longer state paths get a socket in a private
// directory under the system's temporary directory instead (its path is in the registration).
const SOCKET_PATH_MAX = 100

export interface Registration {
  readonly pid: number
  readonly start?: string
  readonly socket: string
  readonly classes: ReadonlyArray<string>
  readonly module: string
}

export const hostDir = (state: string): string => path.join(state, HOST_DIR)

export const privateDir = (dir: string): string => {
  makeDirectory(dir, 0o700)
  fs.chmodSync(dir, 0o700)
  return dir
}

export const socketPath = (state: string, name: string): string => {
  const inState = path.join(hostDir(state), `${name}.sock`)
  if (Buffer.byteLength(inState) <= SOCKET_PATH_MAX) return inState
  const uid = typeof process.getuid === "function" ? process.getuid() : 0
  const hash = nodeCrypto().createHash("sha256").update(path.resolve(state)).digest("hex").slice(0, 16)
  return path.join(os.tmpdir(), `edgectl-${uid}`, `${hash}-${name}.sock`)
}

export const readRegistrations = (state: string): Array<Registration & { file: string }> => {
  let names: Array<string>
  try {
    names = fs.readdirSync(hostDir(state))
  } catch {
    return []
  }
  const out: Array<Registration & { file: string }> = []
  for (const n of names.sort()) {
    if (!n.endsWith(".json")) continue
    const file = path.join(hostDir(state), n)
    try {
      const r = JSON.parse(fs.readFileSync(file, "utf8")) as Registration
      if (typeof r.pid === "number" && typeof r.socket === "string" && Array.isArray(r.classes))
        out.push({ ...r, file })
    } catch {
      // Half-written or removed meanwhile: not a host to talk to.
    }
  }
  return out
}

export const writeRegistration = (file: string, r: Registration): void => {
  const tmp = `${file}.tmp`
  fs.writeFileSync(tmp, JSON.stringify(r), { mode: 0o600 })
  fs.renameSync(tmp, file)
}

// --- framing ------------------------------------------------------------------------------------

export const frame = (message: unknown): Buffer => {
  const body = v8.serialize(message)
  const head = Buffer.alloc(4)
  head.writeUInt32BE(body.length)
  return Buffer.concat([head, body])
}

/** Collects chunks until one whole frame has arrived; returns its message, or undefined for more. */
export class FrameReader {
  private chunks: Array<Buffer> = []
  private size = 0
  push(chunk: Buffer): { message: unknown } | undefined {
    this.chunks.push(chunk)
    this.size += chunk.length
    if (this.size < 4) return undefined
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks)
    this.chunks = [all]
    const length = all.readUInt32BE(0)
    if (all.length < 4 + length) return undefined
    return { message: v8.deserialize(all.subarray(4, 4 + length)) }
  }
}

/** An error as it crosses the channel, and as the other side throws it again. */
export interface WireError {
  readonly name: string
  readonly message: string
}
export const toWire = (e: unknown): WireError =>
  e instanceof Error ? { name: e.name, message: e.message } : { name: "Error", message: String(e) }
export const fromWire = (w: WireError): Error => {
  const e = new Error(w.message)
  e.name = w.name
  return e
}
