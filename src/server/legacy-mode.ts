/**
 * Whether the local platform serves the APIs the real one has ended as they were while supported
 * (the default, so that a migration off them can be rehearsed offline) or answers as the platform
 * answers now: the previous rate limiting API Gone (HTTP 410) on every call, and the firewall rules
 * and filters APIs refusing writes with code 10020 (deprecations.md, DEP-RLOLD and DEP-FR). Set by
 * `edgectl serve --legacy-apis ended` or, for local commands, `EDGECTL_LEGACY_APIS=ended`.
 */
import * as Context from "effect/Context"
import { Gone, MaintenanceMode } from "../domain/errors.js"

export const LegacyApisValues = ["served", "ended"] as const
export type LegacyApisValue = (typeof LegacyApisValues)[number]

export interface LegacyApis {
  readonly ended: boolean
}
export const LegacyApis = Context.GenericTag<LegacyApis>("edgectl/LegacyApis")

const LegacyApisVariable = "EDGECTL_LEGACY_APIS"

export const legacyApis = (value: LegacyApisValue): LegacyApis => ({ ended: value === "ended" })

/** The mode `EDGECTL_LEGACY_APIS` asks for; another value is an error at start, naming it. */
export const legacyApisFromEnv = (env: Readonly<Record<string, string | undefined>> = process.env): LegacyApis => {
  const v = env[LegacyApisVariable]?.trim()
  if (v === undefined || v === "") return legacyApis("served")
  if (v === "served" || v === "ended") return legacyApis(v)
  throw new Error(`${LegacyApisVariable} must be one of ${LegacyApisValues.join(", ")}, got ${JSON.stringify(v)}`)
}

export const rateLimitsGone = () =>
  new Gone({
    message:
      "the Rate Limiting API (previous version) ended on 2025-06-15: use rate limiting rules, the http_ratelimit phase's entry point (/zones/{zone_id}/rulesets/phases/http_ratelimit/entrypoint)"
  })

export const firewallWritesRefused = () =>
  new MaintenanceMode({
    message:
      "firewallrules.api.maintenance_mode. This API is in maintenance mode and no longer accepts modifications; use WAF custom rules (the http_request_firewall_custom phase)"
  })
