/**
 * The WAF endpoints (area D) of the v4 contract: the previous WAF managed rules (packages, groups,
 * rules, URI-based overrides, the zone `waf` setting and page rules), the migration operations
 * (check, config, status) and the managed-phase entry point (GET, PUT with `waf_migration`).
 * Served by src/server/waf-handlers.ts, called by src/services/waf-migration-service.ts.
 *
 * The entry point's body is the migration's configuration (`WafConfig`) and an override's is
 * `WafOverrideBody`: the client encodes them; the server reads those bodies itself (`handleRaw`)
 * and checks them with src/waf and src/server/waf-override-body.ts, so that a bad body gets a 400
 * naming the field.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { answers, Authentication, groupOf, onObject, platformApi, Wire } from "./contract-core.js"
import * as Schema from "effect/Schema"
import { Envelope, Paged } from "../domain/envelope.js"
import { Direction, IntParam, Match, OneOf, TextParam } from "../domain/params.js"
import {
  GroupMode,
  MigrationCheck,
  MigrationStatus,
  ModePatch,
  PageRule,
  RuleMode,
  Ruleset,
  WafConfig,
  WafGroup,
  WafOverride,
  WafOverrideBody,
  WafPackage,
  WafPackagePatch,
  WafRule,
  WafSetting
} from "../domain/waf.js"
import { lazily, lazyRecord } from "./contract-lazy.js"

const Zone = Schema.Struct({ zone_id: Schema.String })
const Package = Schema.Struct({ zone_id: Schema.String, package_id: Schema.String })
const Group = Schema.Struct({ zone_id: Schema.String, package_id: Schema.String, group_id: Schema.String })
const Rule = Schema.Struct({ zone_id: Schema.String, package_id: Schema.String, rule_id: Schema.String })
const Override = Schema.Struct({ zone_id: Schema.String, override_id: Schema.String })

const paging = {
  page: Schema.optional(IntParam("page", 1, 1_000_000)),
  per_page: Schema.optional(IntParam("per_page", 5, 100)),
  direction: Schema.optional(Direction),
  match: Schema.optional(Match)
}

const WafPackagesParams = lazily(() =>
  Schema.Struct({
    ...paging,
    name: Schema.optional(TextParam("name", 255)),
    order: Schema.optional(OneOf("order", ["name"]))
  })
)
const WafGroupsParams = lazily(() =>
  Schema.Struct({
    ...paging,
    mode: Schema.optional(OneOf("mode", ["on", "off"])),
    name: Schema.optional(TextParam("name", 255)),
    order: Schema.optional(OneOf("order", ["mode", "rules_count"]))
  })
)
const WafRulesParams = lazily(() =>
  Schema.Struct({
    ...paging,
    mode: Schema.optional(TextParam("mode", 16)),
    group_id: Schema.optional(TextParam("group_id", 32)),
    description: Schema.optional(TextParam("description", 255)),
    order: Schema.optional(OneOf("order", ["priority", "group_id", "description"]))
  })
)
const OverridesParams = lazily(() =>
  Schema.Struct({
    page: paging.page,
    per_page: Schema.optional(IntParam("per_page", 5, 100))
  })
)

const PhaseTwoParams = lazily(() => Schema.Struct({ phase_two: Schema.optional(Schema.String) }))
const EntrypointParams = lazily(() =>
  Schema.Struct({
    waf_migration: Schema.optional(Schema.String),
    phase_two: Schema.optional(Schema.String),
    /** `true`: the platform checks the update as it would and saves nothing (answers null). */
    dry_run: Schema.optional(Schema.String)
  })
)

/** The previous WAF's endpoints: gone once the zone's migration is finished. */
const previous = answers(Wire.MigrationFinished)
/** A migration step: refused by the zone's state, its plan or what stops it from migrating. */
const step = answers(
  Wire.MigrationFinished,
  Wire.ValidationModeNotAllowed,
  Wire.Incompatible,
  Wire.TooManyRules,
  Wire.ExpressionTooLong,
  Wire.UriOverridePresent
)

const base = "/zones/:zone_id/firewall/waf"
const entrypoint = "/zones/:zone_id/rulesets/phases/http_request_firewall_managed/entrypoint"

export const WafEndpoints = lazyRecord({
  listPackages: () =>
    HttpApiEndpoint.get("listPackages", `${base}/packages`)
      .setPath(Zone)
      .setUrlParams(WafPackagesParams())
      .addSuccess(Paged(WafPackage))
      .pipe(onObject, previous),
  getPackage: () =>
    HttpApiEndpoint.get("getPackage", `${base}/packages/:package_id`)
      .setPath(Package)
      .addSuccess(Envelope(WafPackage))
      .pipe(onObject, previous),
  patchPackage: () =>
    HttpApiEndpoint.patch("patchPackage", `${base}/packages/:package_id`)
      .setPath(Package)
      .setPayload(WafPackagePatch)
      .addSuccess(Envelope(WafPackage))
      .pipe(onObject, previous),
  listGroups: () =>
    HttpApiEndpoint.get("listGroups", `${base}/packages/:package_id/groups`)
      .setPath(Package)
      .setUrlParams(WafGroupsParams())
      .addSuccess(Paged(WafGroup))
      .pipe(onObject, previous),
  getGroup: () =>
    HttpApiEndpoint.get("getGroup", `${base}/packages/:package_id/groups/:group_id`)
      .setPath(Group)
      .addSuccess(Envelope(WafGroup))
      .pipe(onObject, previous),
  patchGroup: () =>
    HttpApiEndpoint.patch("patchGroup", `${base}/packages/:package_id/groups/:group_id`)
      .setPath(Group)
      .setPayload(ModePatch(GroupMode))
      .addSuccess(Envelope(WafGroup))
      .pipe(onObject, previous),
  listRules: () =>
    HttpApiEndpoint.get("listRules", `${base}/packages/:package_id/rules`)
      .setPath(Package)
      .setUrlParams(WafRulesParams())
      .addSuccess(Paged(WafRule))
      .pipe(onObject, previous),
  getRule: () =>
    HttpApiEndpoint.get("getRule", `${base}/packages/:package_id/rules/:rule_id`)
      .setPath(Rule)
      .addSuccess(Envelope(WafRule))
      .pipe(onObject, previous),
  patchRule: () =>
    HttpApiEndpoint.patch("patchRule", `${base}/packages/:package_id/rules/:rule_id`)
      .setPath(Rule)
      .setPayload(ModePatch(RuleMode))
      .addSuccess(Envelope(WafRule))
      .pipe(onObject, previous),
  listOverrides: () =>
    HttpApiEndpoint.get("listOverrides", `${base}/overrides`)
      .setPath(Zone)
      .setUrlParams(OverridesParams())
      .addSuccess(Paged(WafOverride))
      .pipe(onObject, previous),
  createOverride: () =>
    HttpApiEndpoint.post("createOverride", `${base}/overrides`)
      .setPath(Zone)
      .setPayload(WafOverrideBody)
      .addSuccess(Envelope(WafOverride))
      .pipe(onObject, previous),
  getOverride: () =>
    HttpApiEndpoint.get("getOverride", `${base}/overrides/:override_id`)
      .setPath(Override)
      .addSuccess(Envelope(WafOverride))
      .pipe(onObject, previous),
  updateOverride: () =>
    HttpApiEndpoint.put("updateOverride", `${base}/overrides/:override_id`)
      .setPath(Override)
      .setPayload(WafOverrideBody)
      .addSuccess(Envelope(WafOverride))
      .pipe(onObject, previous),
  deleteOverride: () =>
    HttpApiEndpoint.del("deleteOverride", `${base}/overrides/:override_id`)
      .setPath(Override)
      .addSuccess(Envelope(Schema.Struct({ id: Schema.String })))
      .pipe(onObject, previous),
  getWafSetting: () =>
    HttpApiEndpoint.get("getWafSetting", "/zones/:zone_id/settings/waf")
      .setPath(Zone)
      .addSuccess(Envelope(WafSetting))
      .pipe(onObject, previous),
  patchWafSetting: () =>
    HttpApiEndpoint.patch("patchWafSetting", "/zones/:zone_id/settings/waf")
      .setPath(Zone)
      .setPayload(Schema.Struct({ value: GroupMode }))
      .addSuccess(Envelope(WafSetting))
      .pipe(onObject, previous),
  listPageRules: () =>
    HttpApiEndpoint.get("listPageRules", "/zones/:zone_id/pagerules")
      .setPath(Zone)
      .addSuccess(Envelope(Schema.Array(PageRule)))
      .pipe(onObject),
  check: () =>
    HttpApiEndpoint.get("check", "/zones/:zone_id/waf_migration/check")
      .setPath(Zone)
      .setUrlParams(PhaseTwoParams())
      .addSuccess(Envelope(MigrationCheck))
      .pipe(onObject),
  config: () =>
    HttpApiEndpoint.get("config", "/zones/:zone_id/waf_migration/config")
      .setPath(Zone)
      .setUrlParams(PhaseTwoParams())
      .addSuccess(Envelope(WafConfig))
      .pipe(onObject, previous),
  status: () =>
    HttpApiEndpoint.get("status", "/zones/:zone_id/waf_migration/status")
      .setPath(Zone)
      .addSuccess(Envelope(MigrationStatus))
      .pipe(onObject),
  getEntrypoint: () =>
    HttpApiEndpoint.get("getEntrypoint", entrypoint).setPath(Zone).addSuccess(Envelope(Ruleset)).pipe(onObject),
  putEntrypoint: () =>
    HttpApiEndpoint.put("putEntrypoint", entrypoint)
      .setPath(Zone)
      .setUrlParams(EntrypointParams())
      .setPayload(WafConfig)
      .addSuccess(Envelope(Schema.NullOr(Ruleset)))
      .pipe(onObject, step)
})

export const WafApiGroup = lazily(() => class WafApiGroup extends groupOf("waf", WafEndpoints) {})

/** The WAF part of the API on its own (local mode builds only the parts a command calls). */
export const WafApi = lazily(
  () => class WafApi extends platformApi(HttpApi.make("v4").add(WafApiGroup().middleware(Authentication))) {}
)
