/**
 * ESC disable settings: the operations users run, over the v4 client. Zones by id or name,
 * accounts by id or name; every answer comes with the platform's clock (its `Date` header) and
 * the removal status on that clock. Failures are the client's tagged errors.
 */
import * as Either from "effect/Either"
import * as Effect from "effect/Effect"
import { callAnswered, type Answered, type ClientEnv } from "../api/client.js"
import { EscEndpoints } from "../api/contract-esc.js"
import { InvalidInput, NotFound, V4ErrorClasses, type PlatformError, type V4Error } from "../domain/errors.js"
import { checkSecret, type EscChange } from "../domain/esc-change.js"
import type { EscSetting } from "../domain/esc.js"
import { decide, type EscDecision } from "../esc/decide.js"
import { maskCookieHeader } from "../esc/mask.js"
import { removalStatus, type RemovalStatus } from "../esc/removal.js"
import { accountByRef } from "./identity-service.js"
import { resolveZone } from "./zones-service.js"

export type EscTarget =
  | {
      readonly kind: "zone"
      readonly id: string
      readonly name: string
      readonly account: { readonly id: string; readonly name: string }
    }
  | { readonly kind: "account"; readonly id: string; readonly name: string }

export interface EscStatus {
  readonly target: EscTarget
  readonly setting: EscSetting
  readonly removal: RemovalStatus
}

export interface EscChangeResult {
  readonly before: EscSetting
  readonly status: EscStatus
}

/** What the ESC operations can fail with: a zone or account not found, a value refused, and what any call can. */
export type EscError = NotFound | InvalidInput | PlatformError

export const zoneTarget = (ref: string): Effect.Effect<EscTarget & { kind: "zone" }, EscError, ClientEnv> =>
  Effect.map(resolveZone(ref), (z) => targetOfZone(z))

export const accountTarget = (ref: string): Effect.Effect<EscTarget & { kind: "account" }, EscError, ClientEnv> =>
  Effect.map(accountByRef(ref), (a) => ({ kind: "account" as const, id: a.id, name: a.name }))

/** A zone the client already has (the TUI's open zone) as a target. */
export const targetOfZone = (z: {
  readonly id: string
  readonly name: string
  readonly account: { readonly id: string; readonly name?: string | undefined }
}) =>
  ({
    kind: "zone",
    id: z.id,
    name: z.name,
    account: { id: z.account.id, name: z.account.name ?? z.account.id }
  }) as const satisfies EscTarget

/** A zone or an account, by id or name. */
export const resolveTarget = (
  ref: { readonly zone: string } | { readonly account: string }
): Effect.Effect<EscTarget, EscError, ClientEnv> => ("zone" in ref ? zoneTarget(ref.zone) : accountTarget(ref.account))

/** The account a zone belongs to, as a target of its own. */
export const accountOf = (zone: EscTarget & { kind: "zone" }): EscTarget => ({
  kind: "account",
  id: zone.account.id,
  name: zone.account.name
})

/** The three calls on a target's setting (a zone's or an account's endpoints). */
const calls = (t: EscTarget) =>
  t.kind === "zone"
    ? {
        get: () => callAnswered(EscEndpoints.getZoneEsc, { path: { zone_id: t.id } }),
        set: (payload: EscChange) => callAnswered(EscEndpoints.setZoneEsc, { path: { zone_id: t.id }, payload }),
        del: () => callAnswered(EscEndpoints.deleteZoneEsc, { path: { zone_id: t.id } })
      }
    : {
        get: () => callAnswered(EscEndpoints.getAccountEsc, { path: { account_id: t.id } }),
        set: (payload: EscChange) => callAnswered(EscEndpoints.setAccountEsc, { path: { account_id: t.id }, payload }),
        del: () => callAnswered(EscEndpoints.deleteAccountEsc, { path: { account_id: t.id } })
      }

/** The platform's clock from an answer's `Date` header; this machine's if the answer has none. */
const platformNow = (headers: Readonly<Record<string, string>>): Date => {
  const d = headers["date"] === undefined ? Number.NaN : Date.parse(headers["date"])
  return Number.isNaN(d) ? new Date() : new Date(d)
}

const statusOf = (target: EscTarget, a: Answered<EscSetting>): EscStatus => ({
  target,
  setting: a.value,
  removal: removalStatus(platformNow(a.headers))
})

export const getEsc = (target: EscTarget): Effect.Effect<EscStatus, EscError, ClientEnv> =>
  Effect.map(calls(target).get(), (a) => statusOf(target, a))

/**
 * A change, then the setting it left. The local platform answers the new setting; when an answer
 * does not show the change (the real platform's POST and DELETE bodies are not documented), the
 * setting is read again.
 */
const change = (target: EscTarget, payload: EscChange | undefined, holds: (s: EscSetting) => boolean) =>
  Effect.gen(function* () {
    const answer = yield* payload === undefined ? calls(target).del() : calls(target).set(payload)
    return holds(answer.value) ? statusOf(target, answer) : yield* getEsc(target)
  })

/** ESC off for every request of the zone (or of every zone of the account); a stored secret stays. */
export const disableAlways = (target: EscTarget) => change(target, { kind: "always" }, (s) => s.always)

/** Stores the secret that turns ESC off for requests carrying `disable_esc=<secret>`; `always` stays. */
export const setSecret = (target: EscTarget, secret: string): Effect.Effect<EscStatus, EscError, ClientEnv> => {
  const checked = checkSecret(secret, "secret")
  if (Either.isLeft(checked)) return Effect.fail(new InvalidInput({ message: checked.left }))
  return change(target, { kind: "secret", secret }, (s) => s.with_secret === secret)
}

/** The same error with what is true now in front of its message. */
const partly = <E extends V4Error>(e: E, now: string): E => {
  // A change sent with no answer may have been applied: "what is true now" is not known.
  if (e._tag === "NoAnswer") return e
  const Cls = V4ErrorClasses[e._tag] as unknown as new (args: object) => E
  return new Cls({
    code: e.code,
    message: `${now}: ${e.message}`,
    ...(e.chain !== undefined ? { chain: e.chain } : {}),
    ...(e.meta !== undefined ? { meta: e.meta } : {}),
    ...(e._tag === "ApiError" ? { status: e.status } : {}),
    ...(e._tag === "RateLimited" && e.retryAfter !== undefined ? { retryAfter: e.retryAfter } : {})
  })
}

/**
 * ESC on again. The platform's DELETE clears both `always` and the secret; `only` undoes just one
 * of them (DELETE, then the other one is set again).
 */
export const enableEsc = (
  target: EscTarget,
  only?: "always" | "secret"
): Effect.Effect<EscChangeResult, EscError, ClientEnv> =>
  Effect.gen(function* () {
    const before = yield* getEsc(target)
    const s = before.setting
    if (only === "always" && !s.always) return { before: s, status: before }
    if (only === "secret" && s.with_secret === null) return { before: s, status: before }
    const cleared = yield* change(target, undefined, (x) => !x.always && x.with_secret === null)
    if (only === "always" && s.with_secret !== null) {
      const secret = s.with_secret
      const status = yield* change(target, { kind: "secret", secret }, (x) => x.with_secret === secret).pipe(
        Effect.mapError((e) => partly(e, "ESC is on again and the secret was cleared (storing it again failed)"))
      )
      return { before: s, status }
    }
    if (only === "secret" && s.always) {
      const status = yield* change(target, { kind: "always" }, (x) => x.always).pipe(
        Effect.mapError((e) => partly(e, "the secret was cleared and ESC is on again (turning always back on failed)"))
      )
      return { before: s, status }
    }
    return { before: s, status: cleared }
  })

export interface EscTestResult {
  readonly zone: EscTarget & { kind: "zone" }
  readonly zoneSetting: EscSetting
  readonly accountSetting: EscSetting
  readonly decision: EscDecision
  readonly removal: RemovalStatus
  /** The Cookie header tested, with every disable_esc value masked; null when none was given. */
  readonly cookie: string | null
}

/** Whether ESC runs for a request of the zone carrying `cookie`, from the zone's and its account's settings. */
export const testRequest = (
  zone: EscTarget & { kind: "zone" },
  header: string | undefined
): Effect.Effect<EscTestResult, EscError, ClientEnv> => {
  const cookie = header === undefined || header.trim() === "" ? undefined : header
  return Effect.map(Effect.all([getEsc(zone), getEsc(accountOf(zone))], { concurrency: 2 }), ([z, a]) => ({
    zone,
    zoneSetting: z.setting,
    accountSetting: a.setting,
    decision: decide({ zone: z.setting, account: a.setting, cookie }),
    removal: z.removal,
    cookie: cookie === undefined ? null : maskCookieHeader(cookie)
  }))
}
