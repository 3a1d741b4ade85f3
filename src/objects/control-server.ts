// The host's side of the control channel (see control-channel.ts): each request runs as one event
// of its object, behind the object's input gate and answered after its output gate, on the
// instance the host runs, so a read sees what the object's own cache holds and a write is one
// more event that a concurrent fetch sees all or nothing of. A restore resets the object instead
// (see ObjectHost.restore).
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import { FrameReader, frame, hostDir, privateDir, socketPath, toWire, writeRegistration } from "./control-channel.js"
import { type Addressed, type ObjectRequest, type RestoreResult, runRequest } from "./control-ops.js"
import { ObjectId } from "./ids.js"
import type { Instance } from "./instance.js"
import { processStart } from "./owner-lock.js"

export interface ControlTarget {
  readonly persistTo: string
  readonly classes: Record<string, unknown>
  event<T>(className: string, id: ObjectId, f: (inst: Instance) => Promise<T> | T): Promise<T>
  restore(className: string, id: ObjectId, to: { bookmark?: string; at?: number }): Promise<RestoreResult>
}

export interface ControlServer {
  readonly socket: string
  // The host now runs these classes (after a reload).
  refresh(classes: ReadonlyArray<string>): void
  close(): void
}

let served = 0

const answer = async (host: ControlTarget, message: unknown): Promise<unknown> => {
  const { target, request } = message as { target: Addressed; request: ObjectRequest }
  if (host.classes[target.className] === undefined) {
    throw new TypeError(
      `this host does not run ${JSON.stringify(target.className)} (it runs: ${Object.keys(host.classes).join(", ")})`
    )
  }
  const id = new ObjectId(target.id, target.name)
  if (request.op === "restore") return host.restore(target.className, id, request)
  return host.event(target.className, id, (inst) => runRequest(inst.storage, request))
}

/** Listens on the host's socket and registers it in `<state>/.host/`; close() undoes both. */
export const serveControl = async (host: ControlTarget, module: string): Promise<ControlServer> => {
  const name = `${process.pid}-${++served}`
  privateDir(hostDir(host.persistTo))
  const socket = socketPath(host.persistTo, name)
  privateDir(path.dirname(socket))
  // Only a process with our pid, now gone, can have left a socket of this name.
  fs.rmSync(socket, { force: true })
  const server = net.createServer((conn) => {
    const reader = new FrameReader()
    conn.on("error", () => undefined)
    conn.on("data", (chunk: Buffer) => {
      const got = reader.push(chunk)
      if (got === undefined) return
      conn.pause()
      answer(host, got.message).then(
        (result) => conn.end(frame({ ok: true, result })),
        (e: unknown) => conn.end(frame({ ok: false, error: toWire(e) }))
      )
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(socket, () => resolve())
  })
  fs.chmodSync(socket, 0o600)
  // The socket must not keep a process alive that has nothing else to do.
  server.unref()
  const registration = path.join(hostDir(host.persistTo), `${name}.json`)
  const start = processStart(process.pid)
  const register = (classes: ReadonlyArray<string>) =>
    writeRegistration(registration, {
      pid: process.pid,
      ...(start !== undefined ? { start } : {}),
      socket,
      classes,
      module
    })
  register(Object.keys(host.classes))
  return {
    socket,
    refresh: register,
    close: () => {
      server.close()
      fs.rmSync(registration, { force: true })
      fs.rmSync(socket, { force: true })
    }
  }
}
