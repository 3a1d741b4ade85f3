/**
 * The two messages of local mode's in-process transport (local-transport.ts), as plain objects over
 * the body bytes: the request the platform's app sees (a copy of @effect/platform's server request)
 * and the response the client sees (a copy of its client response). What they must keep in step
 * with the library is pinned by test/build/library-internals.test.ts.
 */
import * as Cookies from "@effect/platform/Cookies"
import * as Headers from "@effect/platform/Headers"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import type * as HttpMethod from "@effect/platform/HttpMethod"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Multipart from "@effect/platform/Multipart"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Inspectable from "effect/Inspectable"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { InMemoryBody } from "../body-guard.js"
const encoder = new TextEncoder()
const decoder = new TextDecoder()
const emptyBytes = new Uint8Array(0)

export const concat = (chunks: Chunk.Chunk<Uint8Array>): Uint8Array => {
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
export const bytesOf = (body: unknown): Promise<{ bytes: Uint8Array; contentType: string | null }> => {
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

export interface Answer {
  readonly response: HttpServerResponse.HttpServerResponse
  readonly body: Uint8Array | undefined
}

export class LocalServerRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
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

export class LocalClientResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse {
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
