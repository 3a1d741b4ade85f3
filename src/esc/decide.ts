/**
 * Whether ESC runs for one request of a zone, from the zone's and its account's disable settings
 * and the request's Cookie header. Pure: the local platform, `edgectl esc test` and the TUI all
 * decide with this function.
 *
 * ESC is off when the zone or its account is set to `always`, or when a `disable_esc` cookie equals
 * the zone's secret or the account's secret. A secret works only in its own scope: the zone's
 * secret for that zone, the account's for every zone of that account; the cookie grants nothing else.
 */
import type { EscSetting } from "../domain/esc.js"
import { cookieValues, EscCookieName } from "./cookies.js"

/** A setting that turns ESC off, in the order they are reported (zone before account, always before secret). */
export type EscDecider = "zone-always" | "account-always" | "zone-secret" | "account-secret"

export interface EscDecision {
  readonly escRuns: boolean
  /** The setting that decided; `null` when ESC runs (nothing applies). */
  readonly decidedBy: EscDecider | null
  /** Every setting that would turn ESC off for this request, deciding one first. */
  readonly applies: ReadonlyArray<EscDecider>
  /** How many `disable_esc` cookies the request carried. */
  readonly escCookies: number
  /** One sentence saying why. */
  readonly reason: string
}

export interface EscRequest {
  readonly zone: EscSetting
  readonly account: EscSetting
  /** The request's Cookie header(s), if any. */
  readonly cookie?: string | ReadonlyArray<string> | undefined
}

/** Equal strings, compared without an early exit on the first differing character. */
const sameSecret = (a: string, b: string) => {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

const Reasons: Record<EscDecider, string> = {
  "zone-always": "the zone is set to disable ESC for every request (always)",
  "account-always": "the zone's account is set to disable ESC for every request of every zone (always)",
  "zone-secret": "the request's disable_esc cookie equals the zone's secret",
  "account-secret": "the request's disable_esc cookie equals the account's secret"
}

export const deciderLabel = (d: EscDecider): string => Reasons[d]

export const decide = (r: EscRequest): EscDecision => {
  const values = cookieValues(r.cookie, EscCookieName)
  const matches = (secret: string | null) => secret !== null && values.some((v) => sameSecret(v, secret))
  const applies: Array<EscDecider> = []
  if (r.zone.always) applies.push("zone-always")
  if (r.account.always) applies.push("account-always")
  if (matches(r.zone.with_secret)) applies.push("zone-secret")
  if (matches(r.account.with_secret)) applies.push("account-secret")
  const decidedBy = applies[0] ?? null
  if (decidedBy !== null)
    return {
      escRuns: false,
      decidedBy,
      applies,
      escCookies: values.length,
      reason: `ESC is off: ${Reasons[decidedBy]}`
    }
  const reason =
    values.length === 0
      ? "ESC runs: neither the zone nor its account disables it for every request, and the request has no disable_esc cookie"
      : r.zone.with_secret === null && r.account.with_secret === null
        ? "ESC runs: the request has a disable_esc cookie, but neither the zone nor its account has a secret"
        : "ESC runs: the request's disable_esc cookie matches neither the zone's secret nor the account's"
  return { escRuns: true, decidedBy: null, applies, escCookies: values.length, reason }
}
