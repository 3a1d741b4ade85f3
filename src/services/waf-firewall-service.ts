/**
 * The zone's firewall rules that bypass the WAF, read through the firewall rules API (area C:
 * `GET /zones/{zone_id}/firewall/rules?action=bypass`) for the export, the preview and the replay.
 * Only the fields the migration reads are decoded (the firewall area owns the full rule schema).
 * A platform without that API (it answers "no route": the real platform retired it in 2025) has
 * no firewall rules to migrate: the answer says so (`available: false`) and callers warn.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { call, collectPages } from "../api/client.js"
import { Paged } from "../domain/envelope.js"
import { IntParam, OneOf } from "../domain/params.js"
import type { BypassFirewallRule } from "../domain/waf.js"

const FirewallRuleSeen = Schema.Struct({
  id: Schema.String,
  action: Schema.String,
  products: Schema.optional(Schema.Array(Schema.String)),
  priority: Schema.optional(Schema.NullOr(Schema.Number)),
  paused: Schema.optional(Schema.Boolean),
  description: Schema.optional(Schema.NullOr(Schema.String)),
  filter: Schema.Struct({ expression: Schema.optional(Schema.String) })
})

/**
 * The part of the firewall rules list's parameters the export sends (the contract's own,
 * src/api/contract-firewall.ts, would load the firewall area into every `waf` command).
 */
const BypassQuery = Schema.Struct({
  action: Schema.optional(OneOf("action", ["bypass"])),
  page: Schema.optional(IntParam("page", 1, 1_000_000)),
  per_page: Schema.optional(IntParam("per_page", 5, 100))
})

const listRules = HttpApiEndpoint.get("listFirewallRules", "/zones/:zone_id/firewall/rules")
  .setPath(Schema.Struct({ zone_id: Schema.String }))
  .setUrlParams(BypassQuery)
  .addSuccess(Paged(FirewallRuleSeen))

export interface BypassRules {
  readonly rules: Array<BypassFirewallRule>
  readonly available: boolean
}

export const listBypassFirewallRules = (zoneId: string) =>
  Effect.map(
    collectPages((page) =>
      call(listRules, { path: { zone_id: zoneId }, urlParams: { action: "bypass", page, per_page: 100 } })
    ),
    (c) =>
      c
        .filter((r) => r.action === "bypass" && (r.products ?? []).includes("waf") && r.filter.expression !== undefined)
        .map((r) => ({
          id: r.id,
          expression: r.filter.expression!,
          action: r.action,
          products: r.products ?? [],
          priority: r.priority ?? null,
          paused: r.paused ?? false,
          ...(r.description ? { description: r.description } : {})
        }))
  ).pipe(
    Effect.map((rules): BypassRules => ({ rules, available: true })),
    Effect.catchTag("NoRoute", () => Effect.succeed<BypassRules>({ rules: [], available: false }))
  )
