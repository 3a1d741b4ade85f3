/**
 * What the TUI shows when an Effect fails: the platform's message, its v4 code and one line saying
 * what the user can do next. Every failure (typed error, defect, a thrown render error) ends here,
 * so no screen ever crashes the app.
 */
import * as Cause from "effect/Cause"
import * as Option from "effect/Option"
import { isV4Error, type V4Error } from "../src/domain/errors.js"
import {
  DamagedStore,
  DamagedStoreHint,
  NativeModule,
  RebuildHint,
  StateDirGone,
  StateDirGoneHint
} from "../src/domain/native-module.js"
import { storeConditionHint } from "../src/domain/store-conditions.js"

export interface UiError {
  readonly message: string
  readonly code: number | undefined
  readonly hint: string
}

/** Where the TUI talks to: hints differ (a local failure is never the network or the environment). */
export interface ErrorTarget {
  readonly remote: boolean
}
let target: ErrorTarget = { remote: false }
/** Set by the app's shell from its client configuration (the target in the header). */
export const setErrorTarget = (t: ErrorTarget) => {
  target = t
}

const credentialsHint = (e: V4Error): string => {
  if (!target.remote)
    return "the local platform refused its own demo token: its store may be damaged; start edgectl with another --persist-to (q quits)"
  // 9103: the platform does not know the API key and email.
  return e.code === 9103 || (!process.env.CLOUDFLARE_API_TOKEN && !!process.env.CLOUDFLARE_API_KEY)
    ? "check CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL, then start edgectl again (q quits)"
    : "check CLOUDFLARE_API_TOKEN, then start edgectl again (q quits)"
}

const hintFor = (e: V4Error): string => {
  switch (e._tag) {
    case "MissingCredentials":
    case "MalformedCredentials":
    case "InvalidCredentials":
      return credentialsHint(e)
    case "Unauthorized":
      return "these credentials may not see this: pick another account (a) or use a token with access"
    case "NotFound":
      return "it may be gone or not visible to you: esc goes back, r refreshes"
    case "NoRoute":
      return target.remote
        ? "the platform has no such endpoint: check CLOUDFLARE_API_BASE_URL"
        : "the local platform has no such endpoint: check the id, esc goes back"
    case "InvalidInput":
      return target.remote && /credential/i.test(e.message)
        ? "q quits; set the credentials and start again (without --remote edgectl uses the local platform)"
        : "change what was typed and try again"
    case "RateLimited":
      return "the platform is rate limiting: wait a moment, then press r"
    case "ApiError":
      if (StateDirGone.test(e.message)) return StateDirGoneHint
      // A full disk, a lock another process held: the way out the CLI gives too.
      if (!target.remote && storeConditionHint(e.message) !== undefined) return storeConditionHint(e.message)!
      if (e.status !== 0) return "press r to retry"
      if (target.remote) return "check the network and the base URL, then press r to retry"
      return NativeModule.test(e.message)
        ? `q quits; ${RebuildHint}`
        : DamagedStore.test(e.message)
          ? `q quits; ${DamagedStoreHint}`
          : "the local platform could not start: its state directory (--persist-to) must be a directory edgectl can write; q quits"
    // Issue 29: these said "press r to retry", which cannot help: what can.
    case "InvalidExpression":
      return "fix the expression where the message says, then submit it again"
    case "UriOverridePresent":
      return "the zone's WAF URI overrides block it: the WAF wizard's Check step lists them (x deletes one), then try again"
    case "TooManyRules":
    case "ExpressionTooLong":
      return "the platform's support migrates such zones; the wizard's preview lists the rules concerned"
    case "MigrationFinished":
      return "the zone already runs WAF Managed Rules: there is nothing left to migrate"
    case "Incompatible":
      return "the zone cannot be migrated as it is: the message says why"
    case "ValidationModeNotAllowed":
      return "migrate in one step (pending): pro and business zones have no validation"
    case "QuotaExceeded":
      // The combined call over the quota keeps the filter it created (the spec): say where it is.
      return e.filterId !== undefined
        ? `filter ${e.filterId} was kept without a rule: f lists the filters (d deletes it there); deleting a rule makes room`
        : "delete rules or filters the zone no longer needs, then try again"
    case "DuplicateFilter":
      return "a filter with this expression exists: reuse it, or change the expression"
    case "NoAnswer":
      return "the platform did not answer: r reads it again, to see whether it was applied before trying again"
    default:
      return "press r to retry"
  }
}

const messageOf = (u: unknown): string =>
  u instanceof Error ? u.message : typeof u === "object" && u !== null && "message" in u ? String(u.message) : String(u)

/**
 * An object's SQL refused (a typo, a reserved `_cf_` table): SQLite's message ends with its code, as
 * the platform's does. The statement's fault, not edgectl's (issue 29 found "this is a bug").
 */
const SqlStatement = /SQLITE_(ERROR|AUTH|CONSTRAINT|MISMATCH|RANGE|TOOBIG)\b/
const SqlHint = "the statement was refused: enter types it again, fixed"

/** Any thrown or failed value as a UiError. */
export const fromUnknown = (u: unknown): UiError =>
  isV4Error(u)
    ? // No platform answered an error edgectl raised itself, or a platform it could not reach.
      {
        message: u.message,
        code: u.clientSide === true || (u._tag === "ApiError" && u.status === 0) ? undefined : u.code,
        hint: hintFor(u)
      }
    : StateDirGone.test(messageOf(u))
      ? { message: messageOf(u), code: undefined, hint: StateDirGoneHint }
      : SqlStatement.test(messageOf(u))
        ? { message: messageOf(u), code: undefined, hint: SqlHint }
        : { message: messageOf(u), code: undefined, hint: "this is a bug in edgectl: press r to retry, q to quit" }

/** The first failure (or defect) of a cause; `undefined` when the cause is only an interruption. */
export const fromCause = (cause: Cause.Cause<unknown>): UiError | undefined => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return fromUnknown(failure.value)
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect)) return fromUnknown(defect.value)
  return Cause.isInterruptedOnly(cause)
    ? undefined
    : { message: Cause.pretty(cause), code: undefined, hint: "press r to retry" }
}
