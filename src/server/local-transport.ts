/**
 * The in-process transport of local mode: an `HttpClient` that runs the embedded platform's HttpApi
 * app directly, without a socket and without web `Request`/`Response` objects.
 *
 * It follows `HttpApiBuilder.toWebHandler` step by step (same layer, same middleware, same error
 * handling, the app runs on the platform's own runtime and is built on the first request), but the
 * request handed to the app and the response handed back to the client are plain objects over the
 * body bytes. This saves ~150 µs per call (bench/platform.bench.mjs, in-process: ~215 µs per `zones get`
 * instead of ~370) and, at start-up, Node 20's lazy loading of its fetch implementation (10-20 ms on
 * the first touch of `Request`/`Response`/`Headers`).
 */
import * as Cookies from "@effect/platform/Cookies"
import * as Headers from "@effect/platform/Headers"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import type * as HttpMethod from "@effect/platform/HttpMethod"
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Multipart from "@effect/platform/Multipart"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Inspectable from "effect/Inspectable"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { InMemoryBody } from "./body-guard.js"
import { envelopeErrors } from "./errors.js"
import { loadPart, type PartName, partOf, type PlatformServices } from "./parts.js"
import { LocalKvOptions } from "./kv-options.js"
import { platformServices, storeFile, untracedEffect, withHttpSettings } from "./platform.js"

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const emptyBytes = new Uint8Array(0)

const concat = (chunks: Chunk.Chunk<Uint8Array>): Uint8Array => {
  const parts = Chunk.toReadonlyArray(chunks)
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer

/** Bytes of anything a web `Response` accepts as a body; only unusual bodies go through undici. */
const bytesOf = (body: unknown): Promise<{ bytes: Uint8Array; contentType: string | null }> => {
  if (typeof body === "string")
    return Promise.resolve({ bytes: encoder.encode(body), contentType: "text/plain;charset=UTF-8" })
  if (body instanceof Uint8Array) return Promise.resolve({ bytes: body, contentType: null })
  if (body instanceof ArrayBuffer) return Promise.resolve({ bytes: new Uint8Array(body), contentType: null })
  const response = new Response(body as BodyInit)
  return response
    .arrayBuffer()
    .then((b) => ({ bytes: new Uint8Array(b), contentType: response.headers.get("content-type") }))
}

// ---------------------------------------------------------------------------------------------
// The request the app sees

interface Answer {
  readonly response: HttpServerResponse.HttpServerResponse
  readonly body: Uint8Array | undefined
}

class LocalServerRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  /** Set by the handler: receives the answer of this request. */
  resolve: ((answer: Answer) => void) | undefined = undefined

  constructor(
    readonly source: HttpClientRequest.HttpClientRequest,
    readonly method: HttpMethod.HttpMethod,
    readonly originalUrl: string,
    readonly url: string,
    readonly headers: Headers.Headers,
    readonly body: Uint8Array | undefined,
    readonly remoteAddress: Option.Option<string> = Option.none()
  ) {
    super()
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpServerRequest",
      method: this.method,
      url: this.originalUrl
    })
  }

  modify(options: {
    readonly url?: string | undefined
    readonly headers?: Headers.Headers | undefined
    readonly remoteAddress?: string | undefined
  }) {
    return new LocalServerRequest(
      this.source,
      this.method,
      this.originalUrl,
      options.url ?? this.url,
      options.headers ?? this.headers,
      this.body,
      options.remoteAddress !== undefined ? Option.some(options.remoteAddress) : this.remoteAddress
    )
  }

  private cachedCookies: Record<string, string> | undefined
  get cookies() {
    return (this.cachedCookies ??= Cookies.parseHeader(this.headers.cookie ?? ""))
  }

  private decodeError(cause: unknown) {
    return new HttpServerError.RequestError({ request: this, reason: "Decode", cause })
  }

  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return this.body !== undefined
      ? Stream.succeed(this.body)
      : Stream.fail(
          new HttpServerError.RequestError({
            request: this,
            reason: "Decode",
            description: "can not create stream from empty body"
          })
        )
  }

  /** The body as the platform reads it (body-guard.ts): its bytes, in slices, with a socket's limits. */
  get [InMemoryBody](): Uint8Array | undefined {
    return this.body
  }

  /** Set by body-guard.ts once it has decoded a JSON body (to check its nesting): not decoded twice. */
  textEffect: Effect.Effect<string, HttpServerError.RequestError> | undefined = undefined
  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return this.textEffect ?? Effect.sync(() => (this.body === undefined ? "" : decoder.decode(this.body)))
  }

  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.tryMap(this.text, { try: (t) => JSON.parse(t) as unknown, catch: (cause) => this.decodeError(cause) })
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.flatMap(this.text, (t) =>
      Effect.try({ try: () => UrlParams.fromInput(new URLSearchParams(t)), catch: (cause) => this.decodeError(cause) })
    )
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.sync(() => toArrayBuffer(this.body ?? emptyBytes))
  }

  private multipartEffect: HttpServerRequest.HttpServerRequest["multipart"] | undefined
  get multipart() {
    return (this.multipartEffect ??= Effect.runSync(Effect.cached(Multipart.toPersisted(this.multipartStream))))
  }

  get multipartStream(): Stream.Stream<Multipart.Part, Multipart.MultipartError> {
    return Stream.pipeThroughChannel(
      Stream.mapError(this.stream, (cause) => new Multipart.MultipartError({ reason: "InternalError", cause })),
      Multipart.makeChannel(this.headers)
    )
  }

  get upgrade(): Effect.Effect<never, HttpServerError.RequestError> {
    return Effect.fail(
      new HttpServerError.RequestError({
        request: this,
        reason: "Decode",
        description: "Not an upgradeable ServerRequest"
      })
    )
  }
}

// ---------------------------------------------------------------------------------------------
// The response the client sees

class LocalClientResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse {
  readonly [HttpClientResponse.TypeId]: HttpClientResponse.TypeId = HttpClientResponse.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  readonly remoteAddress = Option.none<string>()

  constructor(
    readonly request: HttpClientRequest.HttpClientRequest,
    readonly status: number,
    readonly headers: Headers.Headers,
    readonly cookies: Cookies.Cookies,
    private readonly body: Uint8Array | undefined
  ) {
    super()
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpClientResponse",
      request: this.request.toJSON(),
      status: this.status
    })
  }

  private decodeError(cause: unknown) {
    return new HttpClientError.ResponseError({ request: this.request, response: this, reason: "Decode", cause })
  }

  get stream(): Stream.Stream<Uint8Array, HttpClientError.ResponseError> {
    return this.body !== undefined
      ? Stream.succeed(this.body)
      : Stream.fail(
          new HttpClientError.ResponseError({
            request: this.request,
            response: this,
            reason: "EmptyBody",
            description: "can not create stream from empty body"
          })
        )
  }

  get text(): Effect.Effect<string, HttpClientError.ResponseError> {
    return Effect.sync(() => (this.body === undefined ? "" : decoder.decode(this.body)))
  }

  get json(): Effect.Effect<unknown, HttpClientError.ResponseError> {
    return Effect.tryMap(this.text, {
      try: (t) => (t === "" ? null : (JSON.parse(t) as unknown)),
      catch: (cause) => this.decodeError(cause)
    })
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpClientError.ResponseError> {
    return Effect.flatMap(this.text, (t) =>
      Effect.try({ try: () => UrlParams.fromInput(new URLSearchParams(t)), catch: (cause) => this.decodeError(cause) })
    )
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.ResponseError> {
    return Effect.sync(() => toArrayBuffer(this.body ?? emptyBytes))
  }

  get formData(): Effect.Effect<FormData, HttpClientError.ResponseError> {
    return Effect.tryPromise({
      try: () => new Response((this.body ?? null) as BodyInit | null, { headers: { ...this.headers } }).formData(),
      catch: (cause) => this.decodeError(cause)
    })
  }
}

// ---------------------------------------------------------------------------------------------
// The handler: the platform's HttpApi app on its own runtime, built on first use

type Handle = (request: LocalServerRequest, signal: AbortSignal) => Promise<Answer>

const responseBody = (
  response: HttpServerResponse.HttpServerResponse,
  method: string
): Effect.Effect<Uint8Array | undefined, unknown> => {
  if (method === "HEAD") return Effect.succeed(undefined)
  const body = response.body
  switch (body._tag) {
    case "Empty":
      return Effect.succeed(undefined)
    case "Uint8Array":
      return Effect.succeed(body.body)
    case "Raw":
      return Effect.map(
        Effect.promise(() => bytesOf(body.body)),
        (b) => b.bytes
      )
    case "FormData":
      return Effect.map(
        Effect.promise(() => bytesOf(body.formData)),
        (b) => b.bytes
      )
    case "Stream":
      return Effect.map(Stream.runCollect(body.stream), concat)
  }
}

/**
 * The platform in this process: its services are built on the first request (a command that never
 * calls the platform never opens, or creates, the store), and each part of its API (parts.ts) on the
 * first request for it, with the same handlers, authentication and middleware as `edgectl serve`.
 * The one difference is local mode's KV behaviour (`LocalKvOptions`: namespaces exist implicitly, as
 * in wrangler's local storage, and a bulk request is not cut at 10,000 entries). `dispose` closes the
 * store.
 */
export const makeLocalHandler = (file: string): { readonly handle: Handle; readonly dispose: () => Promise<void> } => {
  const scope = Effect.runSync(Scope.make())
  const dispose = () => Effect.runPromise(Scope.close(scope, Exit.void))
  let services: Promise<Context.Context<PlatformServices>> | undefined
  const handlers = new Map<PartName, Promise<Handle>>()

  const buildServices = () =>
    Effect.gen(function* () {
      // Tells bin/edgectl.cjs that this run compiled the platform: its code cache is worth rewriting.
      ;(globalThis as Record<symbol, unknown>)[Symbol.for("edgectl/localPlatform")] = true
      return (yield* Layer.toRuntime(platformServices(file, undefined, { kv: LocalKvOptions }))).context
    }).pipe(Scope.extend(scope), Effect.runPromise)

  const buildPart = (name: PartName): Promise<Handle> =>
    Effect.gen(function* () {
      const context = yield* Effect.promise(() => (services ??= buildServices()))
      const part = yield* Effect.promise(() => loadPart(name))
      const layer = withHttpSettings(
        Layer.mergeAll(part, HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer)
      ).pipe(Layer.provideMerge(Layer.succeedContext(context)))
      // The requests' fibers run on this runtime: untraced, as `edgectl serve`'s (platform.ts).
      const runtime = yield* untracedEffect(Layer.toRuntime(layer))
      const app = yield* Effect.provide(HttpApiBuilder.httpApp, runtime)
      const handled = HttpApp.toHandled(
        app,
        (request, response) => {
          const resolve = request instanceof LocalServerRequest ? request.resolve : undefined
          if (resolve === undefined) return Effect.void
          return Effect.matchCause(responseBody(response, request.method), {
            onSuccess: (body) => resolve({ response, body }),
            onFailure: () => resolve({ response, body: undefined })
          })
        },
        envelopeErrors as HttpMiddleware.HttpMiddleware
      )
      const handle: Handle = (request, signal) =>
        new Promise((resolve, reject) => {
          let answered = false
          request.resolve = (answer) => {
            answered = true
            resolve(answer)
          }
          const run = Runtime.runFork(
            Runtime.make({
              context: Context.add(
                runtime.context,
                HttpServerRequest.HttpServerRequest,
                request as HttpServerRequest.HttpServerRequest
              ),
              fiberRefs: runtime.fiberRefs,
              runtimeFlags: runtime.runtimeFlags
            })
          )
          const fiber = run(handled as Effect.Effect<void>)
          const onAbort = () => fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
          signal.addEventListener("abort", onAbort, { once: true })
          fiber.addObserver((exit) => {
            signal.removeEventListener("abort", onAbort)
            // Answered already in the common case (an Error each time, for its stack, cost ~5% of a call).
            if (!answered)
              reject(new Error(Exit.isFailure(exit) ? "the local platform ended without an answer" : "no answer"))
          })
        })
      return handle
    }).pipe(Scope.extend(scope), Effect.runPromise)

  return {
    dispose,
    handle: (request, signal) => {
      const name = partOf(request.url)
      let part = handlers.get(name)
      if (part === undefined) {
        part = buildPart(name)
        handlers.set(name, part)
      }
      return part.then((h) => h(request, signal))
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The client

const requestBytes = (
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<{ bytes: Uint8Array | undefined; contentType: string | null }, HttpClientError.RequestError> => {
  const body = request.body
  const transport = (cause: unknown) => new HttpClientError.RequestError({ request, reason: "Transport", cause })
  switch (body._tag) {
    case "Empty":
      return Effect.succeed({ bytes: undefined, contentType: null })
    case "Uint8Array":
      return Effect.succeed({ bytes: body.body, contentType: null })
    case "Raw":
      return Effect.tryPromise({ try: () => bytesOf(body.body), catch: transport })
    case "FormData":
      return Effect.tryPromise({ try: () => bytesOf(body.formData), catch: transport })
    case "Stream":
      return Effect.mapBoth(Stream.runCollect(body.stream), {
        onFailure: transport,
        onSuccess: (chunks) => ({ bytes: concat(chunks), contentType: null })
      })
  }
}

const pathOf = (href: string) => {
  const index = href.indexOf("/", href.indexOf("//") + 2)
  return index === -1 ? "/" : href.slice(index)
}

/** An `HttpClient` answering every request from the local platform's app, in this process. */
export const makeLocalClient = (handle: Handle): HttpClient.HttpClient =>
  HttpClient.make((request, url, signal) =>
    Effect.flatMap(requestBytes(request), ({ bytes, contentType }) => {
      // As `fetch` would hand the request over: no content-length, a content-type for text bodies.
      let headers = Headers.remove(request.headers, "content-length")
      if (contentType !== null && headers["content-type"] === undefined)
        headers = Headers.set(headers, "content-type", contentType)
      const href = url.href
      const serverRequest = new LocalServerRequest(request, request.method, href, pathOf(href), headers, bytes)
      return Effect.tryPromise({
        try: () => handle(serverRequest, signal),
        catch: (cause) => new HttpClientError.RequestError({ request, reason: "Transport", cause })
      }).pipe(
        Effect.map(({ response, body }) => {
          let responseHeaders = response.headers
          if (!Cookies.isEmpty(response.cookies)) {
            const setCookie = Cookies.toSetCookieHeaders(response.cookies)
            responseHeaders = Headers.set(responseHeaders, "set-cookie", setCookie[setCookie.length - 1]!)
          }
          return new LocalClientResponse(request, response.status, responseHeaders, response.cookies, body)
        })
      )
    })
  )

/** The client layer of local mode over the store at `file`; the store closes with the layer. */
export const layer = (file: string): Layer.Layer<HttpClient.HttpClient> =>
  Layer.scoped(
    HttpClient.HttpClient,
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() => makeLocalHandler(file)),
        (h) => Effect.promise(h.dispose)
      ),
      (h) => makeLocalClient(h.handle)
    )
  )

export type { Handle as LocalHandle }
export { storeFile }
