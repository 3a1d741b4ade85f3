/**
 * The WAF migration of a zone as a state machine (the spec's table), pure: given the state, the
 * requested mode and the facts about the zone, the next state or the typed error.
 *
 * | state      | PUT waf_migration | condition              | next       |
 * | start      | validation / 2    | enterprise zone        | validation |
 * | start      | pending / 1       | compatible             | finished   |
 * | validation | pending / 1       | none                   | finished   |
 * | validation | validation / 2    | enterprise (always)    | validation (the new config replaces the one under validation) |
 * | finished   | anything          | -                      | MigrationFinished (irreversible) |
 *
 * The dashboard's rows are flows over the same transitions (`dashboardDeploy`): Deploy on a pro or
 * business zone is `pending`, on an enterprise zone `validation`; "Ready to update, then Turn off
 * previous version" is `pending` from validation.
 */
import * as Either from "effect/Either"
import {
  ExpressionTooLong,
  Incompatible,
  MigrationFinished,
  TooManyRules,
  UriOverridePresent,
  ValidationModeNotAllowed
} from "../domain/errors.js"
import type { CompatibilityReason, MigrationState } from "../domain/waf.js"

export type MigrationMode = "pending" | "validation"

/** `pending` or `1`, `validation` or `2`; anything else is not a mode. */
export const parseMode = (v: string): MigrationMode | undefined =>
  v === "pending" || v === "1" ? "pending" : v === "validation" || v === "2" ? "validation" : undefined

export interface ZoneFacts {
  readonly plan: string
  /** From `checkLimits` (always) and, without phase_two, the phase 1 reasons. */
  readonly reasons: ReadonlyArray<CompatibilityReason>
}

export const finishedMessage = (zone: string) =>
  `the WAF migration of zone ${zone} is finished and cannot be reversed: the previous WAF managed rules APIs no longer work for this zone; use the rulesets API (phase http_request_firewall_managed)`

/** What stops a zone from migrating (the contract declares these on the entry point's PUT). */
export type Blocker = UriOverridePresent | TooManyRules | ExpressionTooLong | Incompatible
/** What a migration step can be refused with. */
export type MigrationRefusal = Blocker | MigrationFinished | ValidationModeNotAllowed

/** The typed error for the first reason that stops a zone. */
export const blockerError = (reasons: ReadonlyArray<CompatibilityReason>): Blocker | undefined => {
  const uri = reasons.find((r) => r.code === "uri_override")
  if (uri) return new UriOverridePresent({ message: uri.message, meta: { reasons } })
  const many = reasons.find((r) => r.code === "too_many_rules")
  if (many) return new TooManyRules({ message: many.message, meta: { reasons } })
  const long = reasons.find((r) => r.code === "expression_too_long")
  if (long) return new ExpressionTooLong({ message: long.message, meta: { reasons } })
  if (reasons.length > 0) {
    return new Incompatible({
      message: `the zone is not compatible: ${reasons.map((r) => r.message).join("; ")}`,
      meta: { reasons }
    })
  }
  return undefined
}

export const transition = (
  zone: string,
  state: MigrationState,
  mode: MigrationMode,
  facts: ZoneFacts
): Either.Either<MigrationState, MigrationRefusal> => {
  if (state === "finished") return Either.left(new MigrationFinished({ message: finishedMessage(zone) }))
  if (mode === "validation") {
    if (facts.plan !== "enterprise") {
      return Either.left(
        new ValidationModeNotAllowed({
          message: `validation mode (waf_migration=validation) is for enterprise zones only; zone ${zone} is on the ${facts.plan} plan: migrate with waf_migration=pending`
        })
      )
    }
    if (state === "start") {
      const e = blockerError(facts.reasons)
      if (e) return Either.left(e)
    }
    return Either.right("validation")
  }
  if (state === "start") {
    const e = blockerError(facts.reasons)
    if (e) return Either.left(e)
  }
  return Either.right("finished")
}

/** The dashboard's Deploy: enterprise zones go to validation first, others finish at once. */
export const dashboardDeploy = (plan: string, state: MigrationState): MigrationMode =>
  plan === "enterprise" && state === "start" ? "validation" : "pending"

/** Which versions run in a state (the status operation). */
export const wafStatus = (state: MigrationState, wafSetting: "on" | "off") => ({
  old_waf_status:
    state === "finished" ? ("disabled" as const) : wafSetting === "on" ? ("enabled" as const) : ("disabled" as const),
  new_waf_status: state === "start" ? ("disabled" as const) : ("enabled" as const)
})
