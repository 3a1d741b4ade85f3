/**
 * What the TUI shows when an Effect fails: the platform's message, its v4 code and one line saying
 * what the user can do next. Every failure (typed error, defect, a thrown render error) ends here,
 * so no screen ever crashes the app.
 */
import * as Cause from "effect/Cause"
import * as Option from "effect/Option"
import { isV4Error, type V4Error } from "../src/domain/errors.js"

export interface UiError {
  readonly message: string
  readonly code: number | undefined
  readonly hint: string
}

const credentialsHint =
  "check CLOUDFLARE_API_TOKEN (or CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL), then start edgectl again (q quits)"

const hintFor = (e: V4Error): string => {
  switch (e._tag) {
    case "MissingCredentials":
    case "MalformedCredentials":
    case "InvalidCredentials":
      return credentialsHint
    case "Unauthorized":
      return "these credentials may not see this: pick another account (a) or use a token with access"
    case "NotFound":
      return "it may be gone or not visible to you: esc goes back, r refreshes"
    case "NoRoute":
      return "the platform has no such endpoint: check CLOUDFLARE_API_BASE_URL"
    case "InvalidInput":
      return /credential/i.test(e.message)
        ? "q quits; set the credentials and start again (without --remote edgectl uses the local platform)"
        : "change the filter (/) or press r to retry"
    case "RateLimited":
      return "the platform is rate limiting: wait a moment, then press r"
    case "ApiError":
      return e.status === 0 ? "check the network and the base URL, then press r to retry" : "press r to retry"
    default:
      return "press r to retry"
  }
}

const messageOf = (u: unknown): string =>
  u instanceof Error ? u.message : typeof u === "object" && u !== null && "message" in u ? String(u.message) : String(u)

/** Any thrown or failed value as a UiError. */
export const fromUnknown = (u: unknown): UiError =>
  isV4Error(u)
    ? { message: u.message, code: u.code, hint: hintFor(u) }
    : { message: messageOf(u), code: undefined, hint: "this is a bug in edgectl: press r to retry, q to quit" }

/** The first failure (or defect) of a cause; `undefined` when the cause is only an interruption. */
export const fromCause = (cause: Cause.Cause<unknown>): UiError | undefined => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return fromUnknown(failure.value)
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect)) return fromUnknown(defect.value)
  return Cause.isInterruptedOnly(cause) ? undefined : { message: Cause.pretty(cause), code: undefined, hint: "press r to retry" }
}
