/**
 * Every failure a user can cause, as a tagged error, and the one table that maps each to its v4
 * error code(s) and HTTP status. The server encodes with it; the client decodes with it, so a
 * failure crosses the wire and comes back as the same tag.
 */
import * as Data from "effect/Data"
import * as Schema from "effect/Schema"
import type { ErrorItem, FailureEnvelope } from "./envelope.js"
import { ExpressionDiagnostic, type ExpressionDiagnostic as Diagnostic } from "./expression.js"

/** An error of the platform's error chain (`error_chain`). */
interface ChainItem {
  readonly code: number
  readonly message: string
}

/** What every error carries: its v4 code, the message, the chain and `meta` as the platform sent them. */
export interface ErrorFields {
  readonly code: number
  readonly message: string
  readonly chain?: ReadonlyArray<ChainItem> | undefined
  readonly meta?: unknown
  /**
   * Raised by edgectl itself before any platform answered (missing credentials, a missing file, an
   * empty id), or edgectl's own reading of answers (a body it cannot decode, a name no zone has,
   * several accounts to choose from): `code` is only the tag's default, so it is not shown as if a
   * platform had sent it.
   */
  readonly clientSide?: boolean | undefined
}

/**
 * The base of an error class: a `Data.TaggedError` whose `code` defaults to the tag's first code,
 * and the tag's own fields (`Own`) to `defaults`.
 * (Plain classes, not Schema classes: twenty Schema classes cost ~5 ms of every start; the contract
 * gives each its wire form, contract-core.ts.)
 */
type ErrorArgs = Omit<ErrorFields, "code"> & { readonly code?: number | undefined }
const V4ErrorClass = <Tag extends string, Own extends object = Record<never, never>>(
  tag: Tag,
  defaultCode: number,
  defaults?: Partial<Own>
) =>
  class extends Data.TaggedError(tag)<ErrorFields> {
    constructor(args: ErrorArgs & Own) {
      const fields: Record<string, unknown> = { ...args, code: args.code ?? defaultCode }
      for (const [k, v] of Object.entries(defaults ?? {})) if (fields[k] === undefined) fields[k] = v
      super(fields as unknown as ErrorFields)
    }
  }

/** No credential headers at all. */
export class MissingCredentials extends V4ErrorClass("MissingCredentials", 9106) {}
/** Credential headers present but not well-formed (6003 with the header's own code in the chain). */
export class MalformedCredentials extends V4ErrorClass("MalformedCredentials", 6003) {}
/** Well-formed credentials the platform does not know (9109 token, 9103 key + email, 1000 on verify). */
export class InvalidCredentials extends V4ErrorClass("InvalidCredentials", 9109) {}
/** Known credentials that may not do this (an account-scoped token on another account, a user route). */
export class Unauthorized extends V4ErrorClass("Unauthorized", 10000) {}
/** The object named in the path does not exist or is not visible to the caller. */
export class NotFound extends V4ErrorClass("NotFound", 7003) {}
/** No endpoint at that method and path. */
export class NoRoute extends V4ErrorClass("NoRoute", 7000) {}
/** A parameter or body field is wrong: the message names the field, the limit and the actual value. */
export class InvalidInput extends V4ErrorClass("InvalidInput", 1004) {}
/** The request would duplicate something that exists (a namespace title, a filter expression, a phase entry point). */
export class Conflict extends V4ErrorClass("Conflict", 10014) {}
/**
 * A quota of the zone or account would be exceeded. `filterId`: the filter a combined firewall call
 * created before the rule was refused (the spec's quota case), `meta.filter_id` on the wire.
 */
export class QuotaExceeded extends V4ErrorClass<"QuotaExceeded", { readonly filterId?: string | undefined }>(
  "QuotaExceeded",
  10200
) {
  declare readonly filterId?: string | undefined
}
/** A filter with the same expression exists in the zone: `existingId` is its id (`meta.id` on the wire). */
export class DuplicateFilter extends V4ErrorClass<"DuplicateFilter", { readonly existingId?: string | undefined }>(
  "DuplicateFilter",
  10102,
  { existingId: "" }
) {
  declare readonly existingId: string
}
/**
 * A filter expression that does not check: the message is the platform's "Filter parsing error"
 * text with a caret; `diagnostics` (`meta.diagnostics` on the wire) are the rules checker's, with
 * character ranges into `expression`.
 */
export class InvalidExpression extends V4ErrorClass<
  "InvalidExpression",
  { readonly diagnostics?: ReadonlyArray<Diagnostic> | undefined }
>("InvalidExpression", 10110, { diagnostics: [] }) {
  declare readonly diagnostics: ReadonlyArray<Diagnostic>
}
/** The zone cannot do this in its current configuration (e.g. WAF migration blockers). */
export class Incompatible extends V4ErrorClass("Incompatible", 10300) {}
/** The WAF migration of the zone is finished; the previous version's APIs are gone. */
export class MigrationFinished extends V4ErrorClass("MigrationFinished", 10301) {}
/** Validation mode (both WAF versions side by side) is for enterprise zones only. */
export class ValidationModeNotAllowed extends V4ErrorClass("ValidationModeNotAllowed", 10302) {}
/** More than 200 firewall rules to migrate: the platform's support must migrate the zone. */
export class TooManyRules extends V4ErrorClass("TooManyRules", 10303) {}
/** A firewall rule expression to migrate is over 4 KB: the platform's support must migrate the zone. */
export class ExpressionTooLong extends V4ErrorClass("ExpressionTooLong", 10304) {}
/** The zone has URI-based WAF overrides: they must be deleted before it can migrate. */
export class UriOverridePresent extends V4ErrorClass("UriOverridePresent", 10305) {}
/**
 * An API the platform has ended: every call answers HTTP 410 (the previous rate limiting API, per
 * the platform's SDK). No code is documented, so none is sent.
 */
export class Gone extends V4ErrorClass("Gone", 0) {}
/** The firewall rules and filters APIs no longer accept writes (the platform's code 10020, HTTP 400: our choice, the status is not documented). */
export class MaintenanceMode extends V4ErrorClass("MaintenanceMode", 10020) {}
/** A storage transaction was rolled back and the operation cannot go on. */
class TransactionRolledBack extends V4ErrorClass("TransactionRolledBack", 10400) {}
/** Too many requests; `retryAfter` seconds when the platform said so. */
export class RateLimited extends V4ErrorClass<"RateLimited", { readonly retryAfter?: number | undefined }>(
  "RateLimited",
  10013
) {
  declare readonly retryAfter?: number | undefined
}
/** Anything else the platform answered, with its HTTP status, or a failure to reach it at all. */
export class ApiError extends V4ErrorClass<"ApiError", { readonly status?: number | undefined }>("ApiError", 10001, {
  status: 500
}) {
  declare readonly status: number
}

/**
 * A request that went out and got no answer in `seconds` (the client's answer timeout, counted
 * from the last byte that moved): for a write (any method but GET) the platform may have applied
 * it, so a caller that journals its requests records it as "sent, no answer", not as refused.
 * Raised by edgectl, never sent by a platform: it carries no platform code.
 */
export class NoAnswer extends V4ErrorClass<
  "NoAnswer",
  { readonly method: string; readonly path: string; readonly seconds: number }
>("NoAnswer", 0) {
  declare readonly method: string
  declare readonly path: string
  declare readonly seconds: number
  constructor(args: {
    readonly method: string
    readonly path: string
    readonly seconds: number
    readonly message?: string | undefined
    readonly meta?: unknown
  }) {
    super({ ...args, message: args.message ?? noAnswerMessage(args), clientSide: true })
  }
}

/** A read that got no answer changed nothing; a write may have been applied. */
const noAnswerMessage = (a: { readonly method: string; readonly path: string; readonly seconds: number }) =>
  a.method === "GET" || a.method === "HEAD"
    ? `${a.method} ${a.path}: no answer in ${a.seconds} s`
    : `${a.method} ${a.path}: sent, no answer in ${a.seconds} s: it may have been applied`

export type V4Error =
  | MissingCredentials
  | MalformedCredentials
  | InvalidCredentials
  | Unauthorized
  | NotFound
  | NoRoute
  | InvalidInput
  | Conflict
  | QuotaExceeded
  | DuplicateFilter
  | InvalidExpression
  | Incompatible
  | MigrationFinished
  | ValidationModeNotAllowed
  | TooManyRules
  | ExpressionTooLong
  | UriOverridePresent
  | Gone
  | MaintenanceMode
  | TransactionRolledBack
  | RateLimited
  | ApiError
  | NoAnswer

export type V4ErrorTag = V4Error["_tag"]

/**
 * What every endpoint can answer, whatever it declares: its credentials refused, no route, too
 * many requests, anything else (and the client's own failure to reach the platform, an ApiError,
 * or to hear its answer, NoAnswer). Declared once for the whole API (src/api/contract-core.ts
 * `platformApi`).
 */
export type PlatformError =
  | MissingCredentials
  | MalformedCredentials
  | InvalidCredentials
  | Unauthorized
  | NoRoute
  | RateLimited
  | ApiError
  | NoAnswer

export const PlatformErrorTags: ReadonlySet<V4ErrorTag> = new Set<PlatformError["_tag"]>([
  "MissingCredentials",
  "MalformedCredentials",
  "InvalidCredentials",
  "Unauthorized",
  "NoRoute",
  "RateLimited",
  "ApiError",
  "NoAnswer"
])

export const V4ErrorClasses = {
  MissingCredentials,
  MalformedCredentials,
  InvalidCredentials,
  Unauthorized,
  NotFound,
  NoRoute,
  InvalidInput,
  Conflict,
  QuotaExceeded,
  DuplicateFilter,
  InvalidExpression,
  Incompatible,
  MigrationFinished,
  ValidationModeNotAllowed,
  TooManyRules,
  ExpressionTooLong,
  UriOverridePresent,
  Gone,
  MaintenanceMode,
  TransactionRolledBack,
  RateLimited,
  ApiError,
  NoAnswer
} as const

/**
 * The table: tag → HTTP status and the v4 codes it stands for (the first is its default).
 * Codes from the reference; where the reference marks a status UNCONFIRMED we chose the one its
 * SDK error class implies (see docs/differences.md).
 */
export const ErrorTable: Record<V4ErrorTag, { readonly status: number; readonly codes: ReadonlyArray<number> }> = {
  MissingCredentials: { status: 400, codes: [9106, 9107] },
  MalformedCredentials: { status: 400, codes: [6003] },
  InvalidCredentials: { status: 403, codes: [9109, 9103, 1000] },
  Unauthorized: { status: 403, codes: [10000, 10037] },
  NotFound: { status: 404, codes: [7003, 10009, 10003, 10013, 1001] },
  NoRoute: { status: 404, codes: [7000] },
  InvalidInput: { status: 400, codes: [1004, 10022, 10024, 10030] },
  Conflict: { status: 400, codes: [10014, 20217] },
  QuotaExceeded: { status: 400, codes: [10200] },
  DuplicateFilter: { status: 400, codes: [10102] },
  InvalidExpression: { status: 400, codes: [10110] },
  Incompatible: { status: 400, codes: [10300] },
  MigrationFinished: { status: 409, codes: [10301] },
  ValidationModeNotAllowed: { status: 403, codes: [10302] },
  TooManyRules: { status: 400, codes: [10303] },
  ExpressionTooLong: { status: 400, codes: [10304] },
  UriOverridePresent: { status: 400, codes: [10305] },
  Gone: { status: 410, codes: [] },
  MaintenanceMode: { status: 400, codes: [10020] },
  TransactionRolledBack: { status: 500, codes: [10400] },
  RateLimited: { status: 429, codes: [10013, 971] },
  ApiError: { status: 500, codes: [10001] },
  // Never on the wire: no code of the platform's stands for it, and no status was answered.
  NoAnswer: { status: 0, codes: [] }
}

export const statusOf = (e: V4Error): number => (e._tag === "ApiError" ? e.status : ErrorTable[e._tag].status)

export const isV4Error = (u: unknown): u is V4Error =>
  typeof u === "object" && u !== null && "_tag" in u && (u as { _tag: string })._tag in ErrorTable

/** `meta` on the wire, with the typed fields of the tags that carry some. */
const metaOf = (e: V4Error): unknown => {
  const base = (e.meta ?? {}) as Record<string, unknown>
  switch (e._tag) {
    case "DuplicateFilter":
      return { ...base, id: e.existingId }
    case "InvalidExpression":
      return { ...base, diagnostics: e.diagnostics }
    case "QuotaExceeded":
      return e.filterId === undefined ? e.meta : { ...base, filter_id: e.filterId }
    default:
      return e.meta
  }
}

const decodeDiagnostics = Schema.decodeUnknownOption(Schema.Array(ExpressionDiagnostic))

/** The failure envelope for an error: what the server writes. */
export const toFailureEnvelope = (e: V4Error): FailureEnvelope => {
  // Gone has no documented code: its answer carries none.
  const item: Record<string, unknown> =
    e._tag === "Gone" ? { message: e.message } : { code: e.code, message: e.message }
  if (e.chain) item.error_chain = e.chain
  const meta = metaOf(e)
  if (meta !== undefined) item.meta = meta
  return { success: false, errors: [item as ErrorItem], messages: [], result: null }
}

/** The tagged error for a failure answer: what the client reads. */
export const fromFailure = (status: number, errors: ReadonlyArray<ErrorItem>, retryAfter?: number): V4Error => {
  const first = errors[0]
  const code = first?.code
  const message =
    errors.map((e) => e.message).join("; ") || `the platform answered HTTP ${status} without an error message`
  const common = {
    message,
    ...(code !== undefined ? { code } : {}),
    ...(first?.error_chain ? { chain: first.error_chain } : {}),
    ...(first?.meta !== undefined ? { meta: first.meta } : {})
  }
  const tags = Object.keys(ErrorTable) as Array<V4ErrorTag>
  const byCode = code === undefined ? [] : tags.filter((t) => ErrorTable[t].codes.includes(code))
  // The platform's own expression errors carry no code, only this message.
  const parsing = code === undefined && first?.message.startsWith("Filter parsing error") === true
  const tag = parsing
    ? "InvalidExpression"
    : (byCode.find((t) => ErrorTable[t].status === status) ??
      byCode[0] ??
      (status === 404
        ? "NotFound"
        : status === 410
          ? "Gone"
          : status === 429
            ? "RateLimited"
            : status === 401 || status === 403
              ? "Unauthorized"
              : undefined))
  if (tag === "RateLimited") return new RateLimited({ ...common, ...(retryAfter !== undefined ? { retryAfter } : {}) })
  if (tag === undefined || tag === "ApiError") return new ApiError({ ...common, status })
  const meta = (first?.meta ?? {}) as Record<string, unknown>
  if (tag === "DuplicateFilter")
    return new DuplicateFilter({ ...common, existingId: typeof meta.id === "string" ? meta.id : "" })
  if (tag === "InvalidExpression") {
    const diagnostics = decodeDiagnostics(meta.diagnostics)
    return new InvalidExpression({ ...common, diagnostics: diagnostics._tag === "Some" ? diagnostics.value : [] })
  }
  if (tag === "QuotaExceeded") {
    return new QuotaExceeded({ ...common, ...(typeof meta.filter_id === "string" ? { filterId: meta.filter_id } : {}) })
  }
  return new V4ErrorClasses[tag](common as never)
}

/**
 * A migration (src/services/migration-engine.ts) that stopped before its end state: a refusal,
 * a lost connection, a signal, or a read-back that differs from the plan. Not a wire error: it
 * carries what was written (`written`, the steps done; `unanswered`, a step sent with no answer,
 * which may have been applied), the journal, and the commands that finish and undo the migration
 * on the same target.
 */
export class MigrationStopped extends Data.TaggedError("MigrationStopped")<{
  readonly message: string
  readonly written: ReadonlyArray<string>
  readonly unanswered?: string | undefined
  readonly journal: string
  readonly finish: string
  readonly undo: string
}> {}
