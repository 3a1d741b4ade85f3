/**
 * The one place where failures that no handler declared become v4 envelopes: unknown routes,
 * undecodable parameters and bodies, and defects. Declared errors are encoded by the contract.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { CoreApi } from "../api/contract-core.js"
import { lazily } from "../api/contract-lazy.js"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { storeCondition } from "../domain/store-conditions.js"
import { BodyMaxBytes, bodyTooLarge, guardBody, isOverLimit, isTooLarge, RequestBodyNotJson } from "./body-guard.js"
import {
  ApiError,
  InvalidInput,
  isV4Error,
  NoRoute,
  statusOf,
  toFailureEnvelope,
  type V4Error
} from "../domain/errors.js"

const envelopeResponse = (e: V4Error, headers?: Record<string, string>) =>
  HttpServerResponse.unsafeJson(toFailureEnvelope(e), {
    status: statusOf(e),
    headers: { ...(e._tag === "Conflict" ? { "x-should-retry": "false" } : {}), ...headers }
  })

interface Issue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/** Names the field: `per_page must be between 5 and 50, got 100`, or `status: Expected ...` for body fields. */
const describeIssues = (issues: ReadonlyArray<Issue>, fallback: string) => {
  // An optional parameter's union also reports "Expected undefined"; that says nothing to a user.
  const useful = issues.filter((i) => !i.message.startsWith("Expected undefined"))
  const parts = useful.map((i) => {
    const field = i.path.filter((p) => typeof p === "string" || typeof p === "number").join(".")
    if (field !== "" && i.message.startsWith(field)) return i.message
    return field ? `${field}: ${i.message}` : i.message
  })
  return parts.length > 0 ? parts.join("; ") : fallback
}

const toV4Error = (failure: unknown, method: string, url: string, defect = false): V4Error =>
  isV4Error(failure) ? failure : undeclared(failure, method, url, defect)

/**
 * The fields of the envelope the platform answers with (src/domain/envelope.ts). HttpApiBuilder
 * reports a handler's value that its success schema cannot encode as it reports an undecodable
 * request, an HttpApiDecodeError; the issues tell them apart: the answer's are under the envelope's
 * fields, and no request schema of the contract has such a field (test/server/answer-encoding.test.ts
 * checks every endpoint). "Could not encode to JSON" is HttpApiBuilder's own, for a value
 * JSON.stringify refuses.
 */
const AnswerFields: ReadonlySet<PropertyKey> = new Set(["result", "result_info"])
const isAnswerSide = (issues: ReadonlyArray<Issue>) =>
  issues.length > 0 &&
  issues.every(
    (i) => AnswerFields.has(i.path[0] ?? "") || (i.path.length === 0 && i.message === "Could not encode to JSON")
  )

/**
 * A failure no handler declared, as one of the errors every endpoint answers (contract-core.ts
 * `platformApi`). `defect`: it was thrown, not failed with; a SyntaxError then is the store's (a
 * JSON column that does not parse), never the request's: a body read by body-guard.ts that is not
 * JSON is its `RequestBodyNotJson`, failed with or died with (the payload decoding of a large body).
 */
const undeclared = (
  failure: unknown,
  method: string,
  url: string,
  defect: boolean
): NoRoute | InvalidInput | ApiError => {
  const tag = (failure as { _tag?: string } | null)?._tag
  if (tag === "RouteNotFound") {
    return new NoRoute({ message: `No route for that URI: ${method} ${url.split("?")[0]}` })
  }
  if (tag === "HttpApiDecodeError") {
    const f = failure as { issues: ReadonlyArray<Issue>; message: string }
    // The platform's own answer off its schema (a damaged store row): an internal error, not the request's.
    if (isAnswerSide(f.issues)) return internal()
    return new InvalidInput({ message: `invalid request: ${describeIssues(f.issues, f.message)}` })
  }
  if (tag === "RequestError" && isOverLimit(failure)) return bodyTooLarge("the request body", BodyMaxBytes)
  if (
    tag === "RequestError" ||
    tag === "ParseError" ||
    failure instanceof RequestBodyNotJson ||
    (failure instanceof SyntaxError && !defect)
  ) {
    return new InvalidInput({ message: "invalid request body: expected JSON, the body could not be parsed" })
  }
  // A full disk, a lock held past the busy timeout: the machine's state, said as such.
  const condition = storeCondition(failure, method !== "GET" && method !== "HEAD")
  return condition !== undefined ? new ApiError(condition) : internal()
}

const internal = () =>
  new ApiError({
    status: 500,
    message: debugging()
      ? "internal error of the local platform (its cause and stack are on its stderr)"
      : "internal error of the local platform"
  })

const debugging = () => process.env.EDGECTL_DEBUG === "1"

/** Whether this process is `edgectl serve` (a log to write), not a CLI command (its error line says it). */
let serving = false
export const logInternalErrors = () => {
  serving = true
}

/** An error and the errors that caused it (`cause`, as SqlError wraps SqliteError), each with its stack. */
const causeChain = (u: unknown): string => {
  const out: Array<string> = []
  const seen = new Set<unknown>()
  for (
    let e = u;
    e !== undefined && e !== null && !seen.has(e) && out.length < 10;
    e = (e as { cause?: unknown }).cause
  ) {
    seen.add(e)
    const text =
      e instanceof Error
        ? (e.stack ?? `${e.name}: ${e.message}`)
        : typeof e === "object"
          ? JSON.stringify(e)
          : String(e)
    out.push(out.length === 0 ? text : `caused by: ${text}`)
    if (!(typeof e === "object")) break
  }
  return out.join("\n")
}

/**
 * With EDGECTL_DEBUG=1, an internal failure's cause chain and stacks go to the platform's stderr:
 * the CLI's own in-process, the log of `edgectl serve`. Never into the answer (a client of `serve`
 * may be anyone).
 */
const reportInternal = (cause: Cause.Cause<unknown>, method: string, url: string) => {
  if (!debugging()) {
    // `edgectl serve` answers its client with a 500 and says so in its log: one line, the method and
    // the path (no query, no body, nothing of the cause, which may hold a row or a secret); a store
    // condition (a full disk) with its own status and sentence, which hold none of those either.
    const failure = Option.getOrUndefined(Cause.failureOption(cause)) ?? Option.getOrUndefined(Cause.dieOption(cause))
    const condition = storeCondition(failure, method !== "GET" && method !== "HEAD")
    if (serving)
      process.stderr.write(
        condition !== undefined
          ? `edgectl serve: ${condition.status} on ${method} ${url.split("?")[0]}: ${condition.message}\n`
          : `edgectl serve: 500 on ${method} ${url.split("?")[0]}: internal error of the local platform (EDGECTL_DEBUG=1 logs its cause and stack)\n`
      )
    return
  }
  const failure = Option.getOrUndefined(Cause.failureOption(cause)) ?? Option.getOrUndefined(Cause.dieOption(cause))
  // The library's stack says nothing there; which field of the answer, and what it held, does.
  const details =
    (failure as { _tag?: string } | undefined)?._tag === "HttpApiDecodeError"
      ? `the answer does not fit the endpoint's success schema (a damaged store row?): ${describeIssues((failure as { issues: ReadonlyArray<Issue> }).issues, "")}`
      : failure !== undefined
        ? causeChain(failure)
        : Cause.pretty(cause)
  process.stderr.write(`edgectl local platform: internal error on ${method} ${url.split("?")[0]}:\n${details}\n`)
}

/**
 * The platform reads JSON bodies whatever the content-type says; official tools and curl send
 * none or `application/x-www-form-urlencoded`. Multipart and explicit JSON are left alone.
 */
const jsonBodies = <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (req) => {
    const type = (req.headers["content-type"] ?? "").toLowerCase()
    const rewrite =
      req.method !== "GET" &&
      req.method !== "HEAD" &&
      (type === "" || type.startsWith("text/plain") || type.startsWith("application/x-www-form-urlencoded"))
    const json = rewrite ? req.modify({ headers: { ...req.headers, "content-type": "application/json" } }) : req
    return Effect.provideService(guardBody(json, app), HttpServerRequest.HttpServerRequest, json)
  })

/**
 * A 413 is answered here, not encoded by the contract (which knows ApiError as a 500). The rest of
 * the body is discarded as it arrives, never kept: closing the connection instead races the client's
 * writes (EPIPE) and it may never see the answer.
 */
const tooLargeAnswer = (e: V4Error) => envelopeResponse(e)

/**
 * API-level middleware: runs inside the contract's error encoding, so failing with a V4Error here
 * is answered as that error's envelope and status. Made with the first part of the API built (the
 * contract is built on first use: contract-lazy.ts).
 */
export const ApiErrorsLive = lazily(() =>
  HttpApiBuilder.middleware(CoreApi(), (app) =>
    Effect.catchAllCause(jsonBodies(app), (cause) => {
      const failure = Option.getOrUndefined(Cause.failureOption(cause)) ?? Option.getOrUndefined(Cause.dieOption(cause))
      if (isTooLarge(failure)) return Effect.succeed(tooLargeAnswer(failure as V4Error))
      if (failure === undefined || isV4Error(failure)) {
        // A handler's own 500 (a store failure mapped to ApiError) is reported like a defect.
        if (failure !== undefined && failure._tag === "ApiError" && statusOf(failure) >= 500) {
          return Effect.flatMap(HttpServerRequest.HttpServerRequest, (req) => {
            reportInternal(cause, req.method, req.url)
            return Effect.failCause(cause)
          })
        }
        return Effect.failCause(cause)
      }
      return Effect.flatMap(HttpServerRequest.HttpServerRequest, (req) => {
        const error = undeclared(failure, req.method, req.url, Option.isNone(Cause.failureOption(cause)))
        if (isTooLarge(error)) return Effect.succeed(tooLargeAnswer(error))
        if (error._tag === "ApiError") reportInternal(cause, req.method, req.url)
        // A store condition's own status (507, 503), which the contract's encoding would make a 500.
        if (error._tag === "ApiError" && error.status !== 500) return Effect.succeed(envelopeResponse(error))
        return Effect.fail(error)
      })
    })
  )
)

/** Wraps the whole app: whatever still escapes becomes an envelope, never an empty 404 or a bare 500. */
export const envelopeErrors = <R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>) =>
  Effect.catchAllCause(app, (cause) => {
    const failure = Option.getOrUndefined(Cause.failureOption(cause)) ?? Option.getOrUndefined(Cause.dieOption(cause))
    if (failure === undefined && Cause.isInterruptedOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
    return Effect.gen(function* () {
      const req = yield* Effect.serviceOption(HttpServerRequest.HttpServerRequest)
      const method = Option.match(req, { onNone: () => "", onSome: (r) => r.method })
      const url = Option.match(req, { onNone: () => "", onSome: (r) => r.url })
      const defect = Option.isNone(Cause.failureOption(cause))
      const error = isV4Error(failure) ? failure : toV4Error(failure, method, url, defect)
      if (!isV4Error(failure) && error._tag === "ApiError") reportInternal(cause, method, url)
      return envelopeResponse(error)
    })
  })
