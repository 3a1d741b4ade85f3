// The client's side of the control channel (see control-channel.ts): finds the running host that
// owns an object (the lock names its pid) or that runs its class (its registration), and sends it
// one request.
import * as fs from "node:fs"
import * as net from "node:net"
import {
  FrameReader,
  frame,
  fromWire,
  readRegistrations,
  type Registration,
  type WireError
} from "./control-channel.js"
import { type Addressed, type ObjectRequest, type ResultOf, runRequest } from "./control-ops.js"
import { type ObjectId, objectDir } from "./ids.js"
import { holderAlive, lockHolder } from "./owner-lock.js"
import { ObjectStorage } from "./storage.js"

// A host that takes this long over one request is stopped or stuck: say so rather than hang.
const HOST_TIMEOUT_MS = 60_000

/** No host answered before the request was sent: nothing happened, the caller may go direct. */
export class HostUnreachable extends Error {
  override readonly name = "HostUnreachable"
}

/**
 * The host to go through for an object in `dir`: the one holding its lock, else a running host of
 * its class. Undefined when the object is not running anywhere (or its lock is held by a process
 * that is not a host: opening the storage then refuses, naming it). Registrations of hosts that
 * are gone are removed.
 */
export const findHost = (state: string, className: string, dir: string): Registration | undefined => {
  const registrations = readRegistrations(state)
  if (registrations.length === 0) return undefined
  const live = registrations.filter((r) => {
    if (holderAlive(r)) return true
    fs.rmSync(r.file, { force: true })
    fs.rmSync(r.socket, { force: true })
    return false
  })
  const holder = lockHolder(dir)
  if (holder !== undefined) return live.find((r) => r.pid === holder.pid && r.classes.includes(className))
  return live.find((r) => r.classes.includes(className))
}

export const callHost = <R extends ObjectRequest>(
  host: Registration,
  target: Addressed,
  request: R
): Promise<ResultOf<R>> =>
  new Promise((resolve, reject) => {
    let sent = false
    let settled = false
    const done = (f: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      conn.destroy()
      f()
    }
    const reader = new FrameReader()
    const conn = net.createConnection(host.socket, () => {
      sent = true
      conn.write(frame({ target, request }))
    })
    const timer = setTimeout(
      () =>
        done(() =>
          reject(
            new Error(`the host (pid ${host.pid}) did not answer within ${HOST_TIMEOUT_MS / 1000} s; is it stopped?`)
          )
        ),
      HOST_TIMEOUT_MS
    )
    conn.on("data", (chunk: Buffer) => {
      const got = reader.push(chunk)
      if (got === undefined) return
      const m = got.message as { ok: true; result: ResultOf<R> } | { ok: false; error: WireError }
      done(() => (m.ok ? resolve(m.result) : reject(fromWire(m.error))))
    })
    conn.on("error", (e) =>
      done(() =>
        reject(
          sent
            ? new Error(`the host (pid ${host.pid}) went away before answering: ${e.message}`)
            : new HostUnreachable(e.message)
        )
      )
    )
    conn.on("close", () =>
      done(() =>
        reject(
          sent
            ? new Error(`the host (pid ${host.pid}) went away before answering`)
            : new HostUnreachable("connection closed")
        )
      )
    )
  })

/**
 * A request for an object, through the host running it if there is one (see findHost), else on
 * its storage opened here for the request (a restore is applied before this returns). For
 * programs other than the CLI (the TUI): the CLI routes the same way (src/cli/commands/objects/live.ts).
 */
export const requestObject = async <R extends ObjectRequest>(
  state: string,
  className: string,
  id: ObjectId,
  request: R
): Promise<ResultOf<R>> => (await routeObject(state, className, id, request)).result

/** requestObject, saying which host answered (undefined: the storage was opened here). */
export const routeObject = async <R extends ObjectRequest>(
  state: string,
  className: string,
  id: ObjectId,
  request: R
): Promise<{ result: ResultOf<R>; host: Registration | undefined }> => {
  const dir = objectDir(state, className, id)
  const host = findHost(state, className, dir)
  if (host !== undefined) {
    try {
      return {
        result: await callHost(
          host,
          { className, id: id.hex, ...(id.name !== undefined ? { name: id.name } : {}) },
          request
        ),
        host
      }
    } catch (e) {
      if (!(e instanceof HostUnreachable)) throw e
    }
  }
  const opened = <A>(f: (s: ObjectStorage) => Promise<A>): Promise<A> => {
    const s = new ObjectStorage(dir)
    return f(s)
      .then(async (a) => (await s.sync(), a))
      .finally(() => s.close())
  }
  if (request.op !== "restore") return { result: await opened((s) => runRequest(s, request)), host: undefined }
  const marked = await opened(async (s) => {
    const target = request.bookmark ?? (await s.getBookmarkForTime(request.at ?? Number.NaN))
    return { target, undo: await s.onNextSessionRestoreBookmark(target) }
  })
  const pages = await opened(async (s) => s.restoredPages)
  return { result: { ...marked, pages } as ResultOf<R>, host: undefined }
}
