/**
 * The rulesets endpoints of a zone (issue 21) in the v4 contract: the zone's rulesets list and
 * create, one ruleset by id and its versions, the custom phase's entry point (GET, PUT), other
 * phases' entry points (what the platform answers without one) and single-rule writes (add, update
 * or move, delete). The managed phase's entry point stays in contract-waf.ts with the WAF migration
 * it belongs to. Served by src/server/rulesets-handlers.ts, called by
 * src/services/rulesets-service.ts.
 *
 * Each write declares its body (src/domain/ruleset.ts), which the client encodes; the server reads
 * the body itself (`handleRaw`, src/server/rulesets-body.ts) so that a refusal names its field.
 * Writes take `dry_run`: with `true` they check and answer `result: null`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as Schema from "effect/Schema"
import { Envelope } from "../domain/envelope.js"
import {
  EntrypointBody,
  RuleCreateBody,
  RulesetCreateBody,
  RulesetSummary,
  RuleUpdateBody,
  ZoneRuleset
} from "../domain/ruleset.js"
import { answers, Authentication, groupOf, onObject, platformApi, Wire } from "./contract-core.js"
import { lazily, lazyRecord } from "./contract-lazy.js"

const Zone = Schema.Struct({ zone_id: Schema.String })
const Ruleset = Schema.Struct({ zone_id: Schema.String, ruleset_id: Schema.String })
const Version = Schema.Struct({ zone_id: Schema.String, ruleset_id: Schema.String, ruleset_version: Schema.String })
const Rule = Schema.Struct({ zone_id: Schema.String, ruleset_id: Schema.String, rule_id: Schema.String })
const Phase = Schema.Struct({ zone_id: Schema.String, ruleset_phase: Schema.String })

/** `dry_run` is read by the server, which names the value it refuses. */
const DryRunParams = lazily(() => Schema.Struct({ dry_run: Schema.optional(Schema.String) }))

/** A write: its expression may not check, the zone's plan may not have room for another rule. */
const write = answers(Wire.InvalidExpression, Wire.QuotaExceeded)
/** What a write answers: the whole ruleset, or nothing on a dry run. */
const Written = Envelope(Schema.NullOr(ZoneRuleset))

const custom = "/zones/:zone_id/rulesets/phases/http_request_firewall_custom/entrypoint"
const rules = "/zones/:zone_id/rulesets/:ruleset_id/rules"

export const RulesetsEndpoints = lazyRecord({
  listRulesets: () =>
    HttpApiEndpoint.get("listRulesets", "/zones/:zone_id/rulesets")
      .setPath(Zone)
      .addSuccess(Envelope(Schema.Array(RulesetSummary)))
      .pipe(onObject),
  /** The explicit create: a phase has one entry point, a second one is a Conflict (20217). */
  createRuleset: () =>
    HttpApiEndpoint.post("createRuleset", "/zones/:zone_id/rulesets")
      .setPath(Zone)
      .setUrlParams(DryRunParams())
      .setPayload(RulesetCreateBody)
      .addSuccess(Written)
      .pipe(onObject, write, answers(Wire.Conflict)),
  getRuleset: () =>
    HttpApiEndpoint.get("getRuleset", "/zones/:zone_id/rulesets/:ruleset_id")
      .setPath(Ruleset)
      .addSuccess(Envelope(ZoneRuleset))
      .pipe(onObject),
  /** A ruleset's versions, newest first, without their rules. */
  listVersions: () =>
    HttpApiEndpoint.get("listVersions", "/zones/:zone_id/rulesets/:ruleset_id/versions")
      .setPath(Ruleset)
      .addSuccess(Envelope(Schema.Array(RulesetSummary)))
      .pipe(onObject),
  getVersion: () =>
    HttpApiEndpoint.get("getVersion", "/zones/:zone_id/rulesets/:ruleset_id/versions/:ruleset_version")
      .setPath(Version)
      .addSuccess(Envelope(ZoneRuleset))
      .pipe(onObject),
  getCustomEntrypoint: () =>
    HttpApiEndpoint.get("getCustomEntrypoint", custom).setPath(Zone).addSuccess(Envelope(ZoneRuleset)).pipe(onObject),
  putCustomEntrypoint: () =>
    HttpApiEndpoint.put("putCustomEntrypoint", custom)
      .setPath(Zone)
      .setUrlParams(DryRunParams())
      .setPayload(EntrypointBody)
      .addSuccess(Written)
      .pipe(onObject, write),
  /**
   * Any other phase's entry point (the custom path above, and the managed one of contract-waf.ts,
   * are static routes and win): answered as the platform answers a zone without one
   * (src/server/rulesets-phases.ts), never the router's 7000.
   */
  getPhaseEntrypoint: () =>
    HttpApiEndpoint.get("getPhaseEntrypoint", "/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint")
      .setPath(Phase)
      .addSuccess(Envelope(ZoneRuleset))
      .pipe(onObject),
  putPhaseEntrypoint: () =>
    HttpApiEndpoint.put("putPhaseEntrypoint", "/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint")
      .setPath(Phase)
      .setUrlParams(DryRunParams())
      .setPayload(EntrypointBody)
      .addSuccess(Written)
      .pipe(onObject, write),
  /** A phase's entry point's versions, newest first, without their rules; and one of them. */
  listEntrypointVersions: () =>
    HttpApiEndpoint.get("listEntrypointVersions", "/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint/versions")
      .setPath(Phase)
      .addSuccess(Envelope(Schema.Array(RulesetSummary)))
      .pipe(onObject),
  getEntrypointVersion: () =>
    HttpApiEndpoint.get(
      "getEntrypointVersion",
      "/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint/versions/:ruleset_version"
    )
      .setPath(Schema.Struct({ ...Phase.fields, ruleset_version: Schema.String }))
      .addSuccess(Envelope(ZoneRuleset))
      .pipe(onObject),
  createRule: () =>
    HttpApiEndpoint.post("createRule", rules)
      .setPath(Ruleset)
      .setUrlParams(DryRunParams())
      .setPayload(RuleCreateBody)
      .addSuccess(Written)
      .pipe(onObject, write),
  updateRule: () =>
    HttpApiEndpoint.patch("updateRule", `${rules}/:rule_id`)
      .setPath(Rule)
      .setUrlParams(DryRunParams())
      .setPayload(RuleUpdateBody)
      .addSuccess(Written)
      .pipe(onObject, write),
  deleteRule: () =>
    HttpApiEndpoint.del("deleteRule", `${rules}/:rule_id`)
      .setPath(Rule)
      .setUrlParams(DryRunParams())
      .addSuccess(Written)
      .pipe(onObject)
})

export const RulesetsGroup = lazily(() => class RulesetsGroup extends groupOf("rulesets", RulesetsEndpoints) {})

/** The rulesets part of the API on its own (local mode builds only the parts a command calls). */
export const RulesetsApi = lazily(
  () => class RulesetsApi extends platformApi(HttpApi.make("v4").add(RulesetsGroup().middleware(Authentication))) {}
)
