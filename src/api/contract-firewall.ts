/**
 * The firewall filters and rules endpoints (area C) of the v4 contract. Each write declares its
 * body (src/domain/firewall.ts), which the client encodes; the server reads the body itself
 * (`handleRaw`, src/server/firewall-handlers.ts) with src/firewall/body.ts, so that every problem of
 * every element is named in one answer (and the SDK's single-object rule body is accepted as well
 * as an array).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { answers, Authentication, groupOf, onObject, platformApi, Wire } from "./contract-core.js"
import * as Schema from "effect/Schema"
import { Envelope, Paged } from "../domain/envelope.js"
import {
  Deleted,
  Filter,
  FilterBody,
  FirewallActions,
  PriorityBody,
  Rule,
  RuleBody,
  RulesCreateBody,
  ValidateExprBody
} from "../domain/firewall.js"
import { BoolParam, IntParam, OneOf, TextParam } from "../domain/params.js"
import { lazily, lazyRecord } from "./contract-lazy.js"

const ZoneId = Schema.Struct({ zone_id: Schema.String })
const FilterPath = Schema.Struct({ zone_id: Schema.String, filter_id: Schema.String })
const RulePath = Schema.Struct({ zone_id: Schema.String, rule_id: Schema.String })
const Ids = Schema.Struct({ id: Schema.optional(Schema.Union(Schema.String, Schema.Array(Schema.String))) })

export const FiltersListParams = lazily(() =>
  Schema.Struct({
    id: Schema.optional(TextParam("id", 64)),
    paused: Schema.optional(BoolParam("paused")),
    expression: Schema.optional(TextParam("expression", 4096)),
    description: Schema.optional(TextParam("description", 500)),
    ref: Schema.optional(TextParam("ref", 50)),
    page: Schema.optional(IntParam("page", 1, 1_000_000)),
    per_page: Schema.optional(IntParam("per_page", 5, 100))
  })
)
type FiltersListParams = ReturnType<typeof FiltersListParams>["Type"]

export const RulesListParams = lazily(() =>
  Schema.Struct({
    id: Schema.optional(TextParam("id", 64)),
    action: Schema.optional(OneOf("action", FirewallActions)),
    description: Schema.optional(TextParam("description", 500)),
    paused: Schema.optional(BoolParam("paused")),
    page: Schema.optional(IntParam("page", 1, 1_000_000)),
    per_page: Schema.optional(IntParam("per_page", 5, 100))
  })
)
export type RulesListParams = ReturnType<typeof RulesListParams>["Type"]

/** DELETE one rule: also delete its filter when no other rule uses it (query or JSON body). */
const DeleteRuleParams = lazily(() =>
  Schema.Struct({
    delete_filter_if_unused: Schema.optional(BoolParam("delete_filter_if_unused"))
  })
)
const ValidateExprParams = lazily(() => Schema.Struct({ expression: Schema.optional(TextParam("expression", 4096)) }))

/** A filter written: its expression may not check or may exist already in the zone; the API may refuse writes (ended). */
const filterWrite = answers(Wire.DuplicateFilter, Wire.InvalidExpression, Wire.MaintenanceMode)
/** A rule written: its filter's refusals, and the zone's quota of rules (the spec's quota case). */
const ruleWrite = answers(Wire.DuplicateFilter, Wire.InvalidExpression, Wire.QuotaExceeded, Wire.MaintenanceMode)
/** A delete, once the API refuses writes (src/server/legacy-mode.ts). */
const deleteWrite = answers(Wire.MaintenanceMode)

const filters = "/zones/:zone_id/filters"
const rules = "/zones/:zone_id/firewall/rules"

export const FirewallEndpoints = lazyRecord({
  listFilters: () =>
    HttpApiEndpoint.get("listFilters", filters)
      .setPath(ZoneId)
      .setUrlParams(FiltersListParams())
      .addSuccess(Paged(Filter))
      .pipe(onObject),
  createFilters: () =>
    HttpApiEndpoint.post("createFilters", filters)
      .setPath(ZoneId)
      .setPayload(Schema.Array(FilterBody))
      .addSuccess(Envelope(Schema.Array(Filter)))
      .pipe(onObject, filterWrite),
  updateFilters: () =>
    HttpApiEndpoint.put("updateFilters", filters)
      .setPath(ZoneId)
      .setPayload(Schema.Array(FilterBody))
      .addSuccess(Envelope(Schema.Array(Filter)))
      .pipe(onObject, filterWrite),
  deleteFilters: () =>
    HttpApiEndpoint.del("deleteFilters", filters)
      .setPath(ZoneId)
      .setUrlParams(Ids)
      .addSuccess(Envelope(Schema.Array(Deleted)))
      .pipe(onObject, deleteWrite),
  getFilter: () =>
    HttpApiEndpoint.get("getFilter", `${filters}/:filter_id`)
      .setPath(FilterPath)
      .addSuccess(Envelope(Filter))
      .pipe(onObject),
  updateFilter: () =>
    HttpApiEndpoint.put("updateFilter", `${filters}/:filter_id`)
      .setPath(FilterPath)
      .setPayload(FilterBody)
      .addSuccess(Envelope(Filter))
      .pipe(onObject, filterWrite),
  deleteFilter: () =>
    HttpApiEndpoint.del("deleteFilter", `${filters}/:filter_id`)
      .setPath(FilterPath)
      .addSuccess(Envelope(Schema.Array(Deleted)))
      .pipe(onObject, deleteWrite),
  listRules: () =>
    HttpApiEndpoint.get("listRules", rules)
      .setPath(ZoneId)
      .setUrlParams(RulesListParams())
      .addSuccess(Paged(Rule))
      .pipe(onObject),
  createRules: () =>
    HttpApiEndpoint.post("createRules", rules)
      .setPath(ZoneId)
      .setPayload(RulesCreateBody)
      .addSuccess(Envelope(Schema.Array(Rule)))
      .pipe(onObject, ruleWrite),
  updateRules: () =>
    HttpApiEndpoint.put("updateRules", rules)
      .setPath(ZoneId)
      .setPayload(Schema.Array(RuleBody))
      .addSuccess(Envelope(Schema.Array(Rule)))
      .pipe(onObject, ruleWrite),
  patchRules: () =>
    HttpApiEndpoint.patch("patchRules", rules)
      .setPath(ZoneId)
      .setPayload(Schema.Array(PriorityBody))
      .addSuccess(Envelope(Schema.Array(Rule)))
      .pipe(onObject, ruleWrite),
  deleteRules: () =>
    HttpApiEndpoint.del("deleteRules", rules)
      .setPath(ZoneId)
      .setUrlParams(Ids)
      .addSuccess(Envelope(Schema.Array(Deleted)))
      .pipe(onObject, deleteWrite),
  getRule: () =>
    HttpApiEndpoint.get("getRule", `${rules}/:rule_id`).setPath(RulePath).addSuccess(Envelope(Rule)).pipe(onObject),
  updateRule: () =>
    HttpApiEndpoint.put("updateRule", `${rules}/:rule_id`)
      .setPath(RulePath)
      .setPayload(RuleBody)
      .addSuccess(Envelope(Rule))
      .pipe(onObject, ruleWrite),
  patchRule: () =>
    HttpApiEndpoint.patch("patchRule", `${rules}/:rule_id`)
      .setPath(RulePath)
      .setPayload(PriorityBody)
      .addSuccess(Envelope(Schema.Array(Rule)))
      .pipe(onObject, ruleWrite),
  deleteRule: () =>
    HttpApiEndpoint.del("deleteRule", `${rules}/:rule_id`)
      .setPath(RulePath)
      .setUrlParams(DeleteRuleParams())
      .addSuccess(Envelope(Schema.Array(Deleted)))
      .pipe(onObject, deleteWrite),
  // Not zone-scoped; the answer is the platform's own shape (see src/server/firewall-handlers.ts).
  validateExpr: () =>
    HttpApiEndpoint.get("validateExpr", "/filters/validate-expr")
      .setUrlParams(ValidateExprParams())
      .addSuccess(Schema.Unknown)
      .pipe(answers(Wire.InvalidInput, Wire.InvalidExpression)),
  validateExprPost: () =>
    HttpApiEndpoint.post("validateExprPost", "/filters/validate-expr")
      .setPayload(ValidateExprBody)
      .addSuccess(Schema.Unknown)
      .pipe(answers(Wire.InvalidInput, Wire.InvalidExpression))
})

export const FirewallGroup = lazily(() => class FirewallGroup extends groupOf("firewall", FirewallEndpoints) {})

/** The firewall part of the API on its own (local mode builds only the parts a command calls). */
export const FirewallApi = lazily(
  () => class FirewallApi extends platformApi(HttpApi.make("v4").add(FirewallGroup().middleware(Authentication))) {}
)
