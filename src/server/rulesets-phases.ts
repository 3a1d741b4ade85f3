/**
 * Entry points of the phases the local platform does not keep (it keeps the custom phase's and the
 * managed one's, the WAF migration's): what the platform answers for them. A phase it knows, read
 * on a zone without its entry point: 404, code 10003, "could not find entrypoint ruleset in the
 * <phase> phase" (reference: api-reference.md §9, rulesets-entrypoint-not-found.error.json); the
 * local platform never has one. A write there would create one on the platform: refused here,
 * saying so, rather than answered as if it had worked. A phase name the platform does not know
 * (the reference's phase list): 400, naming `ruleset_phase`, the phases and the value. The
 * choices are written in docs/differences.md ("Rulesets on the local platform").
 */
import { InvalidInput, NotFound } from "../domain/errors.js"
import { CustomRulesPhase } from "../domain/custom-rule.js"

/** The phases of the reference (the OpenAPI document's enum and the SDK's `Phase`), sorted. */
const RulesetPhases: ReadonlyArray<string> = [
  "ddos_l4",
  "ddos_l7",
  "http_config_settings",
  "http_custom_errors",
  "http_log_custom_fields",
  "http_ratelimit",
  "http_request_cache_settings",
  "http_request_dynamic_redirect",
  "http_request_firewall_custom",
  "http_request_firewall_managed",
  "http_request_late_transform",
  "http_request_origin",
  "http_request_redirect",
  "http_request_sanitize",
  "http_request_sbfm",
  "http_request_select_configuration",
  "http_request_transform",
  "http_response_cache_settings",
  "http_response_compression",
  "http_response_firewall_managed",
  "http_response_headers_transform",
  "magic_transit",
  "magic_transit_ids_managed",
  "magic_transit_managed",
  "magic_transit_ratelimit"
]

const unknownPhase = (phase: string) =>
  new InvalidInput({
    message: `ruleset_phase: must be one of ${RulesetPhases.join(", ")}; got ${JSON.stringify(phase)}`
  })

/** A GET of another phase's entry point: not found, as on a zone that has none; or the unknown phase. */
export const otherPhaseRead = (phase: string): NotFound | InvalidInput =>
  RulesetPhases.includes(phase)
    ? new NotFound({ code: 10003, message: `could not find entrypoint ruleset in the ${phase} phase` })
    : unknownPhase(phase)

/** A PUT of another phase's entry point: the local platform keeps no rules of that phase. */
export const otherPhaseWrite = (phase: string): InvalidInput =>
  RulesetPhases.includes(phase)
    ? new InvalidInput({
        message: `ruleset_phase: the local platform keeps the entry points of ${CustomRulesPhase}, http_ratelimit and http_request_firewall_managed only, got ${JSON.stringify(phase)} (nothing was written; that phase's rules are the real platform's)`
      })
    : unknownPhase(phase)
