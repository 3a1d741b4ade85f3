/**
 * The `fetch` the client uses against a remote platform: node:http(s) with two time limits, where
 * the global fetch has one of five minutes that no option changes. `connect`: until the connection
 * (and TLS) is up; nothing was sent when it runs out. `answer`: how long nothing may move once the
 * request is under way (no byte sent or received), so a 100 MB upload on a slow link is not cut
 * off, but a platform that takes the request and never answers is given up on `answer` seconds
 * after the last byte. Either ends the request with a `TimedOut` (which the client reports: a
 * write that got no answer may have been applied, ./client.ts).
 */
import type * as http from "node:http"

export interface Timeouts {
  /** Seconds to connect (TCP and TLS). */
  readonly connect: number
  /** Seconds without a byte moving, once connected: the wait for the answer after the upload. */
  readonly answer: number
}

/** The request ran out of one of its time limits (`phase`) after `seconds`. */
export class TimedOut extends Error {
  constructor(
    readonly phase: "connect" | "answer",
    readonly seconds: number
  ) {
    super(phase === "connect" ? `no connection in ${seconds} s` : `no answer in ${seconds} s`)
  }
}

/** Statuses whose answer has no body (a web Response refuses one). */
const NullBody = new Set([101, 103, 204, 205, 304])

const toBytes = (body: unknown): Uint8Array | undefined => {
  if (body === undefined || body === null) return undefined
  if (body instanceof Uint8Array) return body
  if (typeof body === "string") return Buffer.from(body, "utf8")
  // The client sends bytes or nothing (src/api/client.ts); anything else is a programming error.
  throw new TypeError(`timed fetch: unsupported body ${Object.prototype.toString.call(body)}`)
}

/** A `fetch` (what FetchHttpClient calls) with `t`'s time limits. */
export const timedFetch =
  (t: Timeouts) =>
  (input: string | URL | Request, init: RequestInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url)
      const headers: Record<string, string> = {}
      new Headers(init.headers).forEach((v, k) => (headers[k] = v))
      const body = toBytes(init.body)
      if (body !== undefined) headers["content-length"] = String(body.byteLength)
      headers["user-agent"] ??= "edgectl"
      const signal = init.signal ?? undefined
      if (signal?.aborted) return reject(signal.reason)
      // Loaded on the first remote request: every start evaluates this module (the target's layer).
      const transport = process.getBuiltinModule(url.protocol === "https:" ? "node:https" : "node:http")
      const request = transport.request(url, { method: init.method ?? "GET", headers })
      let answer: http.IncomingMessage | undefined
      // Once the answer has begun, its body carries the failure to whoever reads it.
      const fail = (e: Error) => (answer !== undefined ? answer.destroy(e) : request.destroy(e))
      const connect = setTimeout(() => fail(new TimedOut("connect", t.connect)), t.connect * 1000)
      const connected = () => clearTimeout(connect)
      request.once("socket", (socket) => {
        if (request.reusedSocket || !socket.connecting) return connected()
        const tls = process.getBuiltinModule("node:tls")
        socket.once(socket instanceof tls.TLSSocket ? "secureConnect" : "connect", connected)
      })
      // Set on the socket once it is connected: Node counts from the last byte in either direction.
      request.setTimeout(t.answer * 1000, () => fail(new TimedOut("answer", t.answer)))
      const onAbort = () => fail(signal!.reason instanceof Error ? signal!.reason : new Error("aborted"))
      signal?.addEventListener("abort", onAbort, { once: true })
      request.once("close", () => {
        clearTimeout(connect)
        signal?.removeEventListener("abort", onAbort)
      })
      request.on("error", reject)
      request.once("response", (response) => {
        answer = response
        const answerHeaders = new Headers()
        const raw = response.rawHeaders
        for (let i = 0; i + 1 < raw.length; i += 2) answerHeaders.append(raw[i]!, raw[i + 1]!)
        const status = response.statusCode ?? 0
        if (NullBody.has(status)) response.on("error", () => undefined).resume()
        resolve(
          new Response(
            NullBody.has(status)
              ? null
              : (process.getBuiltinModule("node:stream").Readable.toWeb(response) as ReadableStream<Uint8Array>),
            {
              status,
              statusText: response.statusMessage ?? "",
              headers: answerHeaders
            }
          )
        )
      })
      send(request, body)
    })

/**
 * A body written a piece at a time, each after the last has gone: Node counts the socket's idle
 * time from the start or end of a write, so one write of 100 MB on a slow link would run out of
 * `answer` while it was still going.
 */
const PieceBytes = 1 << 20
const send = (request: http.ClientRequest, body: Uint8Array | undefined) => {
  if (body === undefined) return void request.end()
  let at = 0
  const next = () => {
    while (at < body.byteLength) {
      const piece = body.subarray(at, at + PieceBytes)
      at += piece.byteLength
      if (!request.write(piece)) return void request.once("drain", next)
    }
    request.end()
  }
  next()
}
