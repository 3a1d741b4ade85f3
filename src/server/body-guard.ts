/**
 * What every request body must satisfy before a route sees it: the platform's size limit (refused
 * from Content-Length before reading, or while reading once crossed), a multipart type that names
 * its boundary, and JSON nested no deeper than a decoder can walk without exhausting the stack.
 * Bodies are read here chunk by chunk, from a socket or from the in-process transport's bytes, and a
 * body refused before its end is left unread, its connection closed after the answer.
 */
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as UrlParams from "@effect/platform/UrlParams"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { ApiError, InvalidInput } from "../domain/errors.js"
import { jsonDepthOver, JsonMaxDepth } from "../domain/json-depth.js"
import { BulkMaxBytes, humanBytes } from "../domain/kv-limits.js"
import { nodeHttp } from "../lazy-builtins.js"
import { JsonBodyReader, type JsonBody } from "./json-body.js"

/** The platform's request body limit (its plans' smallest, 100 MB), for every route. */
export const BodyMaxBytes = BulkMaxBytes

export const isTooLarge = (e: unknown): boolean => e instanceof ApiError && e.status === 413

export const bodyTooLarge = (what: string, limit: number, size?: number) =>
  new ApiError({
    status: 413,
    code: 1004,
    message:
      size === undefined
        ? `${what} is larger than the limit of ${limit} bytes (${humanBytes(limit)})`
        : `${what} is ${size} bytes (${humanBytes(size)}), the limit is ${limit} bytes (${humanBytes(limit)})`
  })

const declaredLength = (request: HttpServerRequest.HttpServerRequest): number | undefined => {
  const h = request.headers["content-length"]
  const n = h === undefined ? NaN : Number(h)
  return Number.isFinite(n) ? n : undefined
}

export const tooDeep = (what: string) =>
  new InvalidInput({
    message: `${what} is nested more than ${JsonMaxDepth} levels deep (arrays and objects), the limit is ${JsonMaxDepth}`
  })

/** A body over its limit: `size` is its whole size when `exact` (declared, or in memory), else the bytes read when it crossed. */
/**
 * A body read here that is not JSON, as the route sees it (`JSON.parse`'s SyntaxError, with a class
 * of its own): the error middleware answers it as a bad body however the route hands it on (a
 * failure, or a defect where the payload decoding dies with it), where a SyntaxError thrown by a
 * handler is the store's (a JSON column that does not parse: errors.ts).
 */
export class RequestBodyNotJson extends SyntaxError {}

export class TooLarge {
  constructor(
    readonly size: number,
    readonly exact: boolean
  ) {}
}

/**
 * How the in-process transport hands a request's body over: the bytes the client made, read from
 * there in slices (no copy), within the same limits as a body read from a socket.
 */
export const InMemoryBody: unique symbol = Symbol.for("edgectl/InMemoryBody")
interface InMemoryRequest {
  readonly [InMemoryBody]: Uint8Array | undefined
}

const noBytes = Buffer.alloc(0)

const inMemory = (request: HttpServerRequest.HttpServerRequest): Buffer | undefined => {
  if (!(InMemoryBody in request)) return undefined
  const bytes = (request as unknown as InMemoryRequest)[InMemoryBody]
  return bytes === undefined ? noBytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

const nodeSource = (request: HttpServerRequest.HttpServerRequest): IncomingMessage | undefined => {
  // An in-process request has no Node source: node:http stays unloaded in local mode.
  if (InMemoryBody in request) return undefined
  const source = (request as unknown as { source?: unknown }).source
  return source instanceof nodeHttp().IncomingMessage ? source : undefined
}

/** In-process bodies are handed over in slices of this size, the event loop turning between them. */
const SliceBytes = 1 << 20

const nextTurn = Effect.async<void>((resume) => {
  const t = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(t))
})

/** How long a refused request's connection stays open after its answer, unread, before it is destroyed. */
const LingerMs = 2000

/**
 * Node's `destroySoon` for the socket of a refused request: the answer is flushed and the connection
 * half-closed (FIN) at once, and the socket destroyed a moment later. Node destroys it as soon as the
 * answer is written, and closing a socket with unread bytes sends a reset that can overtake the
 * answer: a client still uploading would see ECONNRESET instead of the 413.
 */
function lingeringDestroySoon(this: Socket) {
  if (this.writable) this.end()
  const timer = setTimeout(() => this.destroy(), LingerMs)
  timer.unref()
  this.once("close", () => clearTimeout(timer))
}

/**
 * Leaves the rest of a refused body unread and closes the connection after the answer, as the
 * platform does. Left alone, Node would "dump" the rest after the answer to keep the connection:
 * read every remaining byte (600 MB of a 600 MB upload) and discard it. Instead the stream is paused
 * and marked as consumed (`read(0)`: Node then does not dump it), so at most its buffer (16 KiB)
 * and the kernel's are filled and TCP stops the client; the answer says `Connection: close`.
 */
const abandonBody = (request: HttpServerRequest.HttpServerRequest): void => {
  const node = nodeSource(request)
  if (node === undefined || node.readableEnded) return
  node.pause()
  node.read(0)
  const response = (request as unknown as { resolvedResponse?: ServerResponse }).resolvedResponse
  if (response !== undefined && !response.headersSent) response.shouldKeepAlive = false
  if (node.socket !== null) node.socket.destroySoon = lingeringDestroySoon
}

const unreadable = () => new InvalidInput({ message: "cannot read the request body" })

/**
 * Hands the body to `onChunk` as it arrives and answers its size; refused with TooLarge at once
 * from Content-Length, or as soon as the bytes cross `limit` (the rest then left unread). A socket's
 * chunks come as they are read (the event loop serves other requests between them); in-process
 * bytes in slices of 1 MiB with a turn of the event loop between slices.
 */
export const forEachChunk = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  onChunk: (chunk: Buffer) => void
): Effect.Effect<number, TooLarge | InvalidInput> => {
  const bytes = inMemory(request)
  if (bytes !== undefined) {
    if (bytes.length > limit) return Effect.fail(new TooLarge(bytes.length, true))
    return Effect.gen(function* () {
      for (let at = 0; at < bytes.length; at += SliceBytes) {
        if (at > 0) yield* nextTurn
        onChunk(bytes.subarray(at, at + SliceBytes))
      }
      return bytes.length
    })
  }
  const declared = declaredLength(request)
  if (declared !== undefined && declared > limit) {
    abandonBody(request)
    return Effect.fail(new TooLarge(declared, true))
  }
  const node = nodeSource(request)
  if (node === undefined) {
    return Effect.suspend(() => {
      let size = 0
      return Stream.runForEach(request.stream, (chunk) => {
        size += chunk.length
        if (size > limit) return Effect.fail(new TooLarge(size, false))
        return Effect.sync(() => onChunk(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)))
      }).pipe(
        Effect.mapError((e) => (e instanceof TooLarge ? e : unreadable())),
        Effect.as(size)
      )
    })
  }
  return Effect.async<number, TooLarge | InvalidInput>((resume) => {
    if (node.readableEnded) return resume(Effect.succeed(0))
    let size = 0
    const stop = () => {
      node.off("data", onData)
      node.off("end", onEnd)
      node.off("error", onError)
    }
    function onData(chunk: Buffer) {
      size += chunk.length
      if (size > limit) {
        stop()
        abandonBody(request)
        return resume(Effect.fail(new TooLarge(size, false)))
      }
      try {
        onChunk(chunk)
      } catch (e) {
        stop()
        abandonBody(request)
        resume(Effect.die(e))
      }
    }
    function onEnd() {
      stop()
      resume(Effect.succeed(size))
    }
    function onError() {
      stop()
      resume(Effect.fail(unreadable()))
    }
    node.on("data", onData)
    node.once("end", onEnd)
    node.once("error", onError)
    return Effect.sync(stop)
  })
}

/** The body as one buffer (chunks kept and joined once), refused with TooLarge over `limit`. */
export const readLimited = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Buffer, TooLarge | InvalidInput> => {
  const bytes = inMemory(request)
  if (bytes !== undefined)
    return bytes.length > limit ? Effect.fail(new TooLarge(bytes.length, true)) : Effect.succeed(bytes)
  return Effect.suspend(() => {
    const chunks: Array<Buffer> = []
    return Effect.map(
      forEachChunk(request, limit, (chunk) => chunks.push(chunk)),
      (size) => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
    )
  })
}

/** `maxBytes exceeded`: how the server's body readers say the limit was crossed while reading. */
export const isOverLimit = (failure: unknown): boolean => {
  const cause = (failure as { cause?: unknown } | null)?.cause
  return cause instanceof Error && cause.message === "maxBytes exceeded"
}

// KV values are bytes stored verbatim and bulk bodies are read by kv-body.ts with their own limits.
const readsOwnBody = (url: string) =>
  /\/storage\/kv\/namespaces\/[^/]+\/(values\/|bulk(\/delete)?$)/.test(url.split("?")[0]!)

/**
 * Runs `app` with the request `req` (as the route will read it): refuses what cannot be accepted and
 * bounds every read by the body limit.
 */
export const guardBody = <A, E, R>(req: HttpServerRequest.HttpServerRequest, app: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    // An in-process body's size is known before it is read, as a declared one is.
    const declared =
      req.method === "GET" || req.method === "HEAD" ? undefined : (declaredLength(req) ?? inMemory(req)?.length)
    if (declared !== undefined && declared > BodyMaxBytes) {
      abandonBody(req)
      return yield* Effect.fail(bodyTooLarge("the request body", BodyMaxBytes, declared))
    }
    const type = (req.headers["content-type"] ?? "").toLowerCase()
    if (type.startsWith("multipart/") && !/;\s*boundary=/.test(type)) {
      return yield* Effect.fail(
        new InvalidInput({ message: `invalid request body: content-type "${type}" has no boundary parameter` })
      )
    }
    const bounded = HttpIncomingMessage.withMaxBodySize(app, Option.some(BodyMaxBytes))
    if (req.method === "GET" || req.method === "HEAD" || !type.includes("json") || readsOwnBody(req.url))
      return yield* bounded
    if (declared !== undefined && declared <= SmallJsonBytes) {
      // Decoded where the bytes are read: the buffer is not kept (by this frame) while the route runs.
      const text = yield* readLimited(req, BodyMaxBytes).pipe(
        Effect.map((bytes) => bytes.toString("utf8")),
        Effect.mapError(tooLargeError)
      )
      if (jsonDepthOver(text, JsonMaxDepth)) return yield* Effect.fail(tooDeep("the JSON body"))
      handOver(req, { _tag: "Text", text })
      return yield* bounded
    }
    const reader = new JsonBodyReader(JsonMaxDepth)
    yield* forEachChunk(req, BodyMaxBytes, (chunk) => reader.push(chunk)).pipe(Effect.mapError(tooLargeError))
    const body = reader.end()
    if (body._tag === "TooDeep") return yield* Effect.fail(tooDeep("the JSON body"))
    handOver(req, body)
    return yield* bounded
  })

/** Up to this size a JSON body is read whole and parsed at once (most are under 1 KB); larger, as it arrives (json-body.ts). */
const SmallJsonBytes = 1 << 20

const tooLargeError = (e: TooLarge | InvalidInput) =>
  e instanceof TooLarge ? bodyTooLarge("the request body", BodyMaxBytes, e.exact ? e.size : undefined) : e

/**
 * Gives the route the body read here: as the request's cached text (the node and the in-process
 * request both keep it there), or, for a body parsed on the way, as its `json` (the getter the
 * contract's payload decoding calls), shadowed on this request. A body that is not JSON fails there
 * as `JSON.parse` would, so it is answered where and as it was before (after routing and auth).
 */
const handOver = (req: HttpServerRequest.HttpServerRequest, body: Exclude<JsonBody, { _tag: "TooDeep" }>) => {
  const cache = req as unknown as { textEffect?: Effect.Effect<string, unknown> }
  if (body._tag === "Text") {
    if ("textEffect" in cache) cache.textEffect = Effect.succeed(body.text)
    return
  }
  const json: Effect.Effect<unknown, unknown> =
    body._tag === "Value"
      ? Effect.succeed(body.value)
      : Effect.fail(new RequestBodyNotJson("the request body is not JSON"))
  Object.defineProperty(req, "json", { value: json, configurable: true })
  if ("textEffect" in cache)
    cache.textEffect = body._tag === "Value" ? Effect.sync(() => JSON.stringify(body.value)) : json.pipe(Effect.as(""))
}

/**
 * The body of a route the contract types for its callers but whose server reads the body itself
 * (`handleRaw`), so that one answer names every problem of it (the firewall, rulesets, WAF, DNS and
 * legacy writes): what HttpApiBuilder would hand a route declared with an unknown payload, read the
 * same way (JSON, as every JSON-ish type is by then: jsonBodies in errors.ts; a form's fields;
 * other text; bytes), and a body that does not parse dies as it does there.
 */
export const requestPayload = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown> => {
  const header = request.headers["content-type"]
  const type = header ? header.toLowerCase().trim() : "application/json"
  if (type.includes("application/json")) return Effect.orDie(request.json)
  // The builder's multipart read needs a Scope and the file system, which its routes do not declare:
  // it types them away, as here, so that a multipart body fares as it did on a typed route.
  if (type.includes("multipart/form-data")) return Effect.orDie(request.multipart) as unknown as Effect.Effect<unknown>
  if (type.includes("x-www-form-urlencoded"))
    return Effect.map(Effect.orDie(request.urlParamsBody), (params) => UrlParams.toRecord(params))
  if (type.startsWith("text/")) return Effect.orDie(request.text)
  return Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => new Uint8Array(buffer))
}
