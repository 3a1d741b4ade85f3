/**
 * The zone's firewall rules that bypass the WAF, read through the firewall rules API (area C:
 * `GET /zones/{zone_id}/firewall/rules?action=bypass`, the contract's `listRules`) for the export,
 * the preview and the replay. A platform without that API (it answers "no route": the real
 * platform retired it in 2025) has no firewall rules to migrate: the answer says so
 * (`available: false`) and callers warn.
 */
import * as Effect from "effect/Effect"
import { call } from "../api/client.js"
import { collectPages } from "../api/pages.js"
import { FirewallEndpoints } from "../api/contract-firewall.js"
import { isDeletedFilter } from "../domain/firewall.js"
import type { BypassFirewallRule } from "../domain/waf.js"

export interface BypassRules {
  readonly rules: Array<BypassFirewallRule>
  readonly available: boolean
}

export const listBypassFirewallRules = (zoneId: string) =>
  Effect.map(
    collectPages((page) =>
      call(FirewallEndpoints.listRules, {
        path: { zone_id: zoneId },
        urlParams: { action: "bypass", page, per_page: 100 }
      })
    ),
    (c) =>
      c.flatMap((r): Array<BypassFirewallRule> =>
        // A rule whose filter was deleted has no expression: it bypasses nothing.
        r.action === "bypass" && (r.products ?? []).includes("waf") && !isDeletedFilter(r.filter)
          ? [
              {
                id: r.id,
                expression: r.filter.expression,
                action: r.action,
                products: r.products ?? [],
                priority: r.priority,
                paused: r.paused,
                ...(r.description ? { description: r.description } : {})
              }
            ]
          : []
      )
  ).pipe(
    Effect.map((rules): BypassRules => ({ rules, available: true })),
    Effect.catchTag("NoRoute", () => Effect.succeed<BypassRules>({ rules: [], available: false }))
  )
