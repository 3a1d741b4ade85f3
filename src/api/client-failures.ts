/**
 * A failure answer of the platform as the tagged error of its endpoint: the envelope's first error
 * decoded by the one table (src/domain/errors.ts), then kept to what the endpoint declares, so that
 * the client's calls fail with what their types say (call-types.ts `ErrorOf`).
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { FailureEnvelope } from "../domain/envelope.js"
import { ApiError, fromFailure, PlatformErrorTags, type V4Error } from "../domain/errors.js"
import type { AnyEndpoint } from "./call-types.js"

const retryAfterSeconds = (h: string | undefined) => {
  if (h === undefined) return undefined
  const n = Number(h)
  if (Number.isFinite(n)) return n
  const at = Date.parse(h)
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000)
}

const declared = new WeakMap<AnyEndpoint, ReadonlySet<string>>()

/** The tags an endpoint declares (each wire error of the contract is a transformation to its tag's class). */
const declaredTags = (endpoint: AnyEndpoint): ReadonlySet<string> => {
  let tags = declared.get(endpoint)
  if (tags === undefined) {
    const ast = endpoint.errorSchema.ast
    const members = AST.isUnion(ast) ? ast.types : [ast]
    tags = new Set(
      members.flatMap((m) => Option.toArray(AST.getIdentifierAnnotation(AST.isTransformation(m) ? m.to : m)))
    )
    declared.set(endpoint, tags)
  }
  return tags
}

/**
 * The tagged error of a failure answer. A tag the endpoint does not declare (the real platform may
 * answer codes this contract does not expect there) comes back as an ApiError with the same code,
 * message and status, so that the call's error type says all it can fail with.
 */
export const failureOf = (
  endpoint: AnyEndpoint,
  status: number,
  text: string,
  retryAfter: string | undefined
): V4Error => {
  let body: unknown
  try {
    body = text === "" ? null : JSON.parse(text)
  } catch {
    return new ApiError({
      status,
      message: `the platform answered HTTP ${status} with a body that is not JSON`,
      clientSide: true
    })
  }
  const failure = Schema.decodeUnknownOption(FailureEnvelope)(body)
  const errors = Option.match(failure, { onNone: () => [], onSome: (f) => f.errors })
  return narrowed(endpoint, status, fromFailure(status, errors, retryAfterSeconds(retryAfter)))
}

/** `e` if the endpoint declares its tag (or every endpoint can answer it), else the same failure as an ApiError. */
export const narrowed = (endpoint: AnyEndpoint, status: number, e: V4Error): V4Error => {
  if (PlatformErrorTags.has(e._tag) || declaredTags(endpoint).has(e._tag)) return e
  return new ApiError({
    status,
    code: e.code,
    message: e.message,
    ...(e.chain !== undefined ? { chain: e.chain } : {}),
    ...(e.meta !== undefined ? { meta: e.meta } : {})
  })
}
