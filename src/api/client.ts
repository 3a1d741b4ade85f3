/**
 * The v4 client: calls an endpoint of the contract over an `HttpClient` (the real platform, a
 * running `edgectl serve`, or the embedded platform in-process), decodes the envelope into domain
 * values, maps failures back to the same tagged errors, and retries 429/5xx honouring Retry-After.
 */
import * as HttpBody from "@effect/platform/HttpBody"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { trustedPage } from "../domain/envelope.js"
import { ApiError, InvalidInput, NoAnswer, type V4Error } from "../domain/errors.js"
import { describeParseError } from "../domain/parse-issues.js"
import type { AnyEndpoint, CallArgs, ErrorOf, RawBody, SuccessOf } from "./call-types.js"
import { failureOf, narrowed } from "./client-failures.js"
import { budgeted, retried } from "./client-pacing.js"
import type { Budget } from "../domain/rate-budget.js"
import { TimedOut } from "./timed-fetch.js"

export type Credentials =
  | { readonly kind: "token"; readonly token: string }
  | { readonly kind: "key"; readonly email: string; readonly key: string }

export interface ClientConfig {
  /** `http://127.0.0.1:8787/client/v4`, `https://api.cloudflare.com/client/v4`, or the in-process base. */
  readonly baseUrl: string
  readonly credentials: Credentials
  /** `local` (embedded platform, in-process or `serve`) or `remote` (the real platform). */
  readonly target: "local" | "remote"
  /** The embedded platform in this process (no `serve` between): its answers were checked on this side. */
  readonly inProcess?: boolean
  readonly maxRetries?: number
  /** The process's API budget (./rate-budget.ts): remote targets only. */
  readonly budget?: Budget
  /** Shows a wait for the budget on a terminal: until when (epoch ms), or undefined to clear it. */
  readonly waiting?: (until: number | undefined) => void
}
export const ClientConfig = Context.GenericTag<ClientConfig>("edgectl/ClientConfig")

/** What every call needs: an HTTP client and where and as whom to call. */
export type ClientEnv = HttpClient.HttpClient | ClientConfig

type QueryValue = string | number | boolean | ReadonlyArray<string> | undefined
type Query = Readonly<Record<string, QueryValue>>

/** A call's input as sent; `CallInput<E>` (call-types.ts) is what the compiler lets a caller write. */
interface Input {
  readonly path?: Readonly<Record<string, string>>
  readonly urlParams?: Query
  readonly payload?: unknown
  readonly body?: RawBody
}

const authHeaders = (c: Credentials): Record<string, string> =>
  c.kind === "token" ? { authorization: `Bearer ${c.token}` } : { "x-auth-email": c.email, "x-auth-key": c.key }

/**
 * An empty path parameter, `.` or `..` would address another endpoint (`/firewall/rules/` is the
 * list): refused before any request, naming the parameter. No platform answered: no code.
 */
const badPathParameter = (
  template: string,
  params: Readonly<Record<string, string>> = {}
): InvalidInput | undefined => {
  for (const [, k] of template.matchAll(/:(\w+)/g)) {
    const v = params[k!]
    if (v === undefined) continue
    const name = k!.replace(/_/g, " ")
    if (v.trim() === "")
      return new InvalidInput({ message: `${name}: must not be empty, got ${JSON.stringify(v)}`, clientSide: true })
    if (v === "." || v === "..")
      return new InvalidInput({ message: `${name}: ${JSON.stringify(v)} is not an id`, clientSide: true })
  }
  return undefined
}

const fillPath = (template: string, params: Readonly<Record<string, string>> = {}) =>
  template.replace(/:(\w+)/g, (_, k: string) => {
    const v = params[k]
    if (v === undefined) throw new Error(`missing path parameter ${k} for ${template}`)
    return encodeURIComponent(v)
  })

const toUrlParams = (q: Query = {}): Array<[string, string]> =>
  Object.entries(q).flatMap(([k, v]): Array<[string, string]> =>
    v === undefined ? [] : Array.isArray(v) ? v.map((x) => [k, String(x)] as [string, string]) : [[k, String(v)]]
  )

/** The path a request went to, under the base URL (`/accounts/…/bulk`), as NoAnswer names it. */
const pathUnder = (baseUrl: string, url: string) => {
  const base = new URL(baseUrl).pathname.replace(/\/$/, "")
  const p = new URL(url).pathname
  return p.startsWith(base) ? p.slice(base.length) || "/" : p
}

/**
 * A request that ran out of its answer time (src/api/timed-fetch.ts), sending or reading: NoAnswer.
 * Undefined for any other failure.
 */
const noAnswer = (baseUrl: string, request: HttpClientRequest.HttpClientRequest, cause: unknown) =>
  cause instanceof TimedOut && cause.phase === "answer"
    ? new NoAnswer({ method: request.method, path: pathUnder(baseUrl, request.url), seconds: cause.seconds })
    : undefined

/**
 * Fields the real platform sends beyond the schemas are kept (`--json` shows the whole answer). The
 * in-process platform encodes every answer through these same schemas, so its answers have no such
 * fields; keeping them costs effect's decoder a union check per key (about 3x the decode).
 */
const decodeOptions = (target: ClientConfig["target"]) => (target === "remote" ? preserveExcess : undefined)
const preserveExcess = { onExcessProperty: "preserve" } as const

/** A successful answer that is not an envelope (a KV value): its bytes and headers. */
export interface RawAnswer {
  readonly bytes: Uint8Array
  readonly headers: Readonly<Record<string, string>>
}

/**
 * The payload's wire form, through the endpoint's schema (the ESC change `{kind: "always"}` is sent
 * as `{"always": true}`). A value the types accept always encodes; a failure is this side's.
 */
const encodePayload = (endpoint: AnyEndpoint, payload: unknown): Effect.Effect<unknown, InvalidInput> =>
  Option.match(endpoint.payloadSchema, {
    onNone: () => Effect.succeed(payload),
    onSome: (schema) =>
      Effect.mapError(
        Schema.encodeUnknown(schema as Schema.Schema<unknown, unknown>)(payload),
        (e) => new InvalidInput({ message: `request body: ${describeParseError(e)}`, clientSide: true })
      )
  })

const RedirectStatuses = new Set([301, 302, 303, 307, 308])
const MaxRedirects = 5

/**
 * The request to send after a 3xx, or the refusal: credentials go only to the base URL's origin, so
 * a redirect elsewhere ends the call (the HTTP client does not follow redirects: fetch would keep
 * X-Auth-Key and X-Auth-Email on the way, and the answer would be another origin's). 301, 302 and
 * 303 go on as a GET without a body, 307 and 308 resend the request as it was (as fetch does).
 */
const redirected = (
  baseUrl: string,
  request: HttpClientRequest.HttpClientRequest,
  response: HttpClientResponse.HttpClientResponse,
  hops: number
): Effect.Effect<HttpClientRequest.HttpClientRequest, ApiError> => {
  const base = new URL(baseUrl).origin
  const location = response.headers["location"]
  const from = `${request.method} ${new URL(request.url).pathname}`
  if (location === undefined || location === "") {
    return Effect.fail(
      new ApiError({ status: 0, message: `${from} answered HTTP ${response.status} without a Location to go to` })
    )
  }
  let next: URL
  try {
    next = new URL(location, request.url)
  } catch {
    return Effect.fail(
      new ApiError({ status: 0, message: `${from} answered HTTP ${response.status} with a Location that is not a URL` })
    )
  }
  if (next.origin !== base) {
    return Effect.fail(
      new ApiError({
        status: 0,
        message: `refused a cross-origin redirect: ${from} answered HTTP ${response.status} to ${next.origin}; credentials are sent only to ${base}`
      })
    )
  }
  if (hops >= MaxRedirects)
    return Effect.fail(new ApiError({ status: 0, message: `${from}: more than ${MaxRedirects} redirects` }))
  const moved = HttpClientRequest.setUrlParams(HttpClientRequest.setUrl(request, next.href), [])
  return Effect.succeed(
    response.status <= 303 && request.method !== "GET" && request.method !== "HEAD"
      ? HttpClientRequest.setBody(HttpClientRequest.setMethod(moved, "GET"), HttpBody.empty)
      : moved
  )
}

/**
 * Sends one request of the contract, with retries; `read` turns a successful response into the
 * result. A failure status is decoded from its envelope into the tagged error.
 */
const send = <A, Err>(
  endpoint: AnyEndpoint,
  input: Input,
  accept: string,
  read: (response: HttpClientResponse.HttpClientResponse, config: ClientConfig) => Effect.Effect<A, V4Error>
): Effect.Effect<A, Err, ClientEnv> =>
  // Every failure is the platform's (failureOf) or this side's (a bad path parameter, a payload
  // that does not encode, narrowed the same way), or an ApiError: `Err`, ErrorOf the endpoint.
  Effect.gen(function* () {
    const config = yield* ClientConfig
    const http = yield* HttpClient.HttpClient
    const bad = badPathParameter(endpoint.path, input.path)
    if (bad !== undefined) return yield* Effect.fail(narrowed(endpoint, 400, bad))
    const url = config.baseUrl.replace(/\/$/, "") + fillPath(endpoint.path, input.path)
    let request = HttpClientRequest.make(endpoint.method)(url, {
      urlParams: toUrlParams(input.urlParams),
      headers: { ...authHeaders(config.credentials), accept }
    })
    if (input.body !== undefined)
      request = HttpClientRequest.bodyUint8Array(request, input.body.bytes, input.body.contentType)
    else if (input.payload !== undefined)
      request = HttpClientRequest.bodyUnsafeJson(
        request,
        yield* Effect.mapError(encodePayload(endpoint, input.payload), (e) => narrowed(endpoint, 400, e))
      )
    const execute = (r: HttpClientRequest.HttpClientRequest) =>
      budgeted(config, http.execute(r)).pipe(
        Effect.mapError(
          (e) =>
            noAnswer(config.baseUrl, r, e.cause) ??
            (config.target === "local" && e.cause instanceof Error
              ? // In-process there is no network: a failure here is the local platform failing to start.
                new ApiError({
                  status: 0,
                  message: `the local platform could not start: ${e.cause.message.replace(/^\w*Error: /, "")}`
                })
              : new ApiError({
                  status: 0,
                  message: `cannot reach ${config.baseUrl}: ${e.cause instanceof TimedOut ? e.cause.message : e.message}`
                }))
        )
      )
    const once = Effect.gen(function* () {
      let sent = request
      let response = yield* execute(sent)
      for (let hops = 0; RedirectStatuses.has(response.status); hops++) {
        // Its body is not read: let it go, so that its connection does not wait on it.
        yield* Effect.ignore(response.arrayBuffer)
        sent = yield* redirected(config.baseUrl, sent, response, hops)
        response = yield* execute(sent)
      }
      if (response.status >= 400) {
        const text = yield* response.text.pipe(Effect.orElseSucceed(() => ""))
        const failure = failureOf(endpoint, response.status, text, response.headers["retry-after"])
        // The platform's count is the one that matters: nothing more is sent until it said.
        // At most one window of the budget (or a minute): a longer Retry-After is not the budget's.
        if (failure._tag === "RateLimited" && failure.retryAfter !== undefined && config.budget !== undefined)
          config.budget.pause(Math.min(failure.retryAfter, Math.max(60, config.budget.limit.seconds)))
        return yield* Effect.fail(failure)
      }
      return yield* read(response, config)
    })
    // The in-process platform is not a network: its failures (a damaged store) do not pass.
    return yield* retried(config, endpoint.method, config.target === "local" ? 0 : (config.maxRetries ?? 3), once)
  }) as unknown as Effect.Effect<A, Err, ClientEnv>

/** An answer whose body could not be read: NoAnswer when it stopped coming. */
const unreadable =
  (config: ClientConfig, response: HttpClientResponse.HttpClientResponse) =>
  (e: { readonly cause?: unknown; readonly message: string }): V4Error =>
    noAnswer(config.baseUrl, response.request, e.cause) ??
    new ApiError({ status: response.status, message: `cannot read the answer: ${e.message}`, clientSide: true })

/** A decoded success value with the answer's headers (lower-case names). */
export interface Answered<A> {
  readonly value: A
  readonly headers: Readonly<Record<string, string>>
}

/** Calls one endpoint of the contract and returns its decoded success value. */
export const call = <E extends AnyEndpoint>(
  endpoint: E,
  ...[input]: CallArgs<E>
): Effect.Effect<SuccessOf<E>, ErrorOf<E>, ClientEnv> =>
  Effect.map(answered<SuccessOf<E>, ErrorOf<E>>(endpoint, (input ?? {}) as Input), (a) => a.value)

/** `call`, keeping the answer's headers (e.g. `date`: the platform's clock). */
export const callAnswered = <E extends AnyEndpoint>(
  endpoint: E,
  ...[input]: CallArgs<E>
): Effect.Effect<Answered<SuccessOf<E>>, ErrorOf<E>, ClientEnv> => answered(endpoint, (input ?? {}) as Input)

/**
 * A page of a list, as `call` answers it. In-process, only the envelope is read (`trustedPage`):
 * the platform in this process encoded its items through these same schemas, or checked them
 * field by field against them (src/server/door/route-table.ts), and decoding each one again was a third
 * of a 100,000-zone `zones list`. Only for items whose decode is the wire as it is (no
 * transformation: Zone, DnsRecord); any other target, or an envelope off its shape, is decoded whole.
 */
export const callPage = <E extends AnyEndpoint>(
  endpoint: E,
  ...[input]: CallArgs<E>
): Effect.Effect<SuccessOf<E>, ErrorOf<E>, ClientEnv> =>
  Effect.map(
    answered<SuccessOf<E>, ErrorOf<E>>(endpoint, (input ?? {}) as Input, trustedPage as (body: unknown) => never),
    (a) => a.value
  )

/**
 * `Err`: what failureOf leaves of a failure for this endpoint (checked there, at run time).
 * `trusted`: the value of an in-process answer read without its schema (`callPage`), or undefined.
 */
const answered = <A, Err>(
  endpoint: AnyEndpoint,
  input: Input,
  trusted?: (body: unknown) => A | undefined
): Effect.Effect<Answered<A>, Err, ClientEnv> =>
  send<Answered<A>, Err>(endpoint, input, "application/json", (response, config) =>
    Effect.gen(function* () {
      const text = yield* response.text.pipe(Effect.mapError(unreadable(config, response)))
      let body: unknown
      try {
        body = text === "" ? null : JSON.parse(text)
      } catch {
        return yield* Effect.fail(
          new ApiError({
            status: response.status,
            message: `the platform answered HTTP ${response.status} with a body that is not JSON`,
            clientSide: true
          })
        )
      }
      if ((body as { success?: unknown } | null)?.success === false) {
        return yield* Effect.fail(failureOf(endpoint, response.status, text, response.headers["retry-after"]))
      }
      const shallow = trusted !== undefined && config.inProcess === true ? trusted(body) : undefined
      if (shallow !== undefined) return { value: shallow, headers: response.headers }
      const value = yield* Schema.decodeUnknown(endpoint.successSchema as Schema.Schema<A, unknown>)(
        body,
        decodeOptions(config.target)
      ).pipe(
        Effect.mapError(
          (e) =>
            new ApiError({
              status: response.status,
              message: `unexpected answer from ${endpoint.method} ${endpoint.path}: ${describeParseError(e)}`,
              clientSide: true
            })
        )
      )
      return { value, headers: response.headers }
    })
  )

/** Calls an endpoint whose success is not an envelope (a KV value): its bytes and headers. */
export const callRaw = <E extends AnyEndpoint>(
  endpoint: E,
  ...[input]: CallArgs<E>
): Effect.Effect<RawAnswer, ErrorOf<E>, ClientEnv> =>
  send<RawAnswer, ErrorOf<E>>(endpoint, (input ?? {}) as Input, "application/octet-stream", (response, config) =>
    Effect.map(response.arrayBuffer.pipe(Effect.mapError(unreadable(config, response))), (buffer) => ({
      bytes: new Uint8Array(buffer),
      headers: response.headers
    }))
  )
