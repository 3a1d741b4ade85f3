/**
 * What every request body must satisfy before a route sees it: the platform's size limit (refused
 * from Content-Length before reading, or while reading once crossed), a multipart type that names
 * its boundary, and JSON nested no deeper than a decoder can walk without exhausting the stack.
 */
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { IncomingMessage } from "node:http"
import * as Option from "effect/Option"
import { ApiError, InvalidInput } from "../domain/errors.js"
import { jsonDepthOver, JsonMaxDepth } from "../domain/json-depth.js"
import { BulkMaxBytes, humanBytes } from "../domain/kv-limits.js"

export { jsonDepthOver, JsonMaxDepth }

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

export const declaredLength = (request: HttpServerRequest.HttpServerRequest): number | undefined => {
  const h = request.headers["content-length"]
  const n = h === undefined ? NaN : Number(h)
  return Number.isFinite(n) ? n : undefined
}

export const tooDeep = (what: string) =>
  new InvalidInput({
    message: `${what} is nested more than ${JsonMaxDepth} levels deep (arrays and objects), the limit is ${JsonMaxDepth}`
  })

export class TooLarge {
  constructor(readonly size: number) {}
}

/**
 * The body as one buffer: chunks kept and joined once (linear), refused with TooLarge once they
 * cross `limit`. On a socket the rest is then discarded as it arrives, not destroyed: the 413 must
 * still reach the client (Effect's own readers destroy the stream, and with it the answer).
 */
export const readLimited = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Buffer, TooLarge | InvalidInput> => {
  const declared = declaredLength(request)
  if (declared !== undefined && declared > limit) return Effect.fail(new TooLarge(declared))
  const source = (request as unknown as { source?: unknown }).source
  if (!(source instanceof IncomingMessage)) {
    return HttpIncomingMessage.withMaxBodySize(request.arrayBuffer, Option.some(limit)).pipe(
      Effect.mapError((e) =>
        isOverLimit(e) ? new TooLarge(limit + 1) : new InvalidInput({ message: "cannot read the request body" })
      ),
      Effect.map((b) => Buffer.from(b))
    )
  }
  const node: IncomingMessage = source
  return Effect.async<Buffer, TooLarge | InvalidInput>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const stop = () => {
      node.off("data", onData)
      node.off("end", onEnd)
      node.off("error", onError)
    }
    function onData(chunk: Buffer) {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      stop()
      chunks.length = 0
      node.resume()
      resume(Effect.fail(new TooLarge(size)))
    }
    function onEnd() {
      stop()
      resume(Effect.succeed(Buffer.concat(chunks, size)))
    }
    function onError() {
      stop()
      resume(Effect.fail(new InvalidInput({ message: "cannot read the request body" })))
    }
    node.on("data", onData)
    node.once("end", onEnd)
    node.once("error", onError)
    return Effect.sync(stop)
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
    const declared = req.method === "GET" || req.method === "HEAD" ? undefined : declaredLength(req)
    if (declared !== undefined && declared > BodyMaxBytes)
      return yield* Effect.fail(bodyTooLarge("the request body", BodyMaxBytes, declared))
    const type = (req.headers["content-type"] ?? "").toLowerCase()
    if (type.startsWith("multipart/") && !/;\s*boundary=/.test(type)) {
      return yield* Effect.fail(
        new InvalidInput({ message: `invalid request body: content-type "${type}" has no boundary parameter` })
      )
    }
    const bounded = HttpIncomingMessage.withMaxBodySize(app, Option.some(BodyMaxBytes))
    if (req.method === "GET" || req.method === "HEAD" || !type.includes("json") || readsOwnBody(req.url))
      return yield* bounded
    const bytes = yield* readLimited(req, BodyMaxBytes).pipe(
      Effect.mapError((e) => (e instanceof TooLarge ? bodyTooLarge("the request body", BodyMaxBytes) : e))
    )
    const text = bytes.toString("utf8")
    if (jsonDepthOver(text, JsonMaxDepth)) return yield* Effect.fail(tooDeep("the JSON body"))
    // The route reads the body as the request's cached text (the node request keeps it there).
    const cache = req as unknown as { textEffect?: Effect.Effect<string> }
    if ("textEffect" in cache) cache.textEffect = Effect.succeed(text)
    return yield* bounded
  })
