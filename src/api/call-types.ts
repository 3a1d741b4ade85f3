/**
 * What a call of the client takes and gives, derived from its endpoint in the contract: the path
 * parameters the path names, the URL parameters and the payload (their Type side: the client
 * encodes them), the decoded success and the errors the endpoint declares. A field the endpoint
 * does not declare, a missing path parameter, a payload of the wrong shape or a `catchTag` on a
 * failure the endpoint cannot have is a compile error at the call, not a surprise at run time.
 */
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpMethod from "@effect/platform/HttpMethod"
import type * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import type { PlatformError } from "../domain/errors.js"

/** What the client reads of an endpoint of the contract. */
export interface AnyEndpoint {
  readonly path: string
  readonly method: HttpMethod.HttpMethod
  readonly payloadSchema: Option.Option<Schema.Schema.All>
  readonly successSchema: Schema.Schema.All
  readonly errorSchema: Schema.Schema.All
}

/** A body sent as is (a value, a multipart form, a serialized bulk array): endpoints whose server reads it raw. */
export interface RawBody {
  readonly bytes: Uint8Array
  readonly contentType?: string | undefined
}

type PathPart<P> = [P] extends [never] ? { readonly path?: never } : { readonly path: P }

/**
 * URL parameters: every declared one, `undefined` meaning "not sent" (a filter left out). Required
 * when one of them is.
 */
type UrlParamsPart<U> = [U] extends [never]
  ? { readonly urlParams?: never }
  : // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends U`: every member of U is optional
    {} extends U
    ? { readonly urlParams?: { readonly [K in keyof U]: U[K] | undefined } }
    : { readonly urlParams: { readonly [K in keyof U]: U[K] | undefined } }

/** A payload when the endpoint declares one; raw bytes only when it does not (its server reads the body itself). */
type PayloadPart<B> = [B] extends [never]
  ? { readonly payload?: never; readonly body?: RawBody }
  : { readonly payload: B; readonly body?: never }

type Parts<E> =
  E extends HttpApiEndpoint.HttpApiEndpoint<
    infer _Name,
    infer _Method,
    infer P,
    infer U,
    infer B,
    infer _Headers,
    infer _Success,
    infer _Error,
    infer _R,
    infer _RE
  >
    ? PathPart<P> & UrlParamsPart<U> & PayloadPart<B>
    : never

/** The input of a call of `E`. */
type CallInput<E> = Parts<E>

/** `[input]`, optional when nothing in it is required (`call(Endpoints.listInvites)`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends`: nothing in the input is required
export type CallArgs<E> = {} extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]

/**
 * What a call of `E` can fail with: the errors the endpoint declares and those every endpoint can
 * answer. A failure the platform answers with another tag reaches the caller as an ApiError (with
 * its code and message), so `catchTag` on a failure the endpoint cannot have is a compile error.
 */
export type ErrorOf<E> =
  | (E extends HttpApiEndpoint.HttpApiEndpoint<
      infer _Name,
      infer _Method,
      infer _P,
      infer _U,
      infer _B,
      infer _Headers,
      infer _Success,
      infer Error,
      infer _R,
      infer _RE
    >
      ? Error
      : never)
  | PlatformError

/** The decoded success of `E`. */
export type SuccessOf<E> = E extends { readonly successSchema: { readonly Type: infer S } } ? S : never
