/**
 * The embedded platform's API in parts, for local mode: a scripted command calls one or two areas of
 * the API, and building the routes, handlers and modules of all of them would be most of what it
 * waits for. Each part is the same handlers, authentication and error middleware as the whole API
 * (app.ts) over the same services (platform.ts); a request goes to the part that holds its path.
 *
 * `partOf` decides by path alone, without loading any contract: every path of one part's endpoints
 * is matched here by one pattern, and all methods of a path belong to the same part (checked for
 * every endpoint of the contract by test/server/parts.test.ts). A path of no part goes to the core,
 * which answers it as the whole API would: no such route.
 */
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Layer from "effect/Layer"
import { BasePath, CoreApi } from "../../api/contract-core.js"
import { AuthenticationLive } from "../auth.js"
import { ApiErrorsLive } from "../errors.js"
import type { platformServices } from "../platform.js"

export type PartName = "core" | "esc" | "kv" | "firewall" | "waf" | "rulesets" | "legacy"

const patterns: ReadonlyArray<readonly [RegExp, PartName]> = [
  [/^\/accounts\/[^/]+\/storage\/kv(\/|$)/, "kv"],
  [/^\/(zones|accounts)\/[^/]+\/disable_esc\/?$/, "esc"],
  [/^\/zones\/[^/]+\/(filters|firewall\/rules)(\/|$)/, "firewall"],
  [/^\/filters\/validate-expr\/?$/, "firewall"],
  [/^\/zones\/[^/]+\/(firewall\/(lockdowns|ua_rules)|rate_limits)(\/|$)/, "legacy"],
  [/^\/zones\/[^/]+\/(firewall\/waf|settings\/waf|pagerules|waf_migration)(\/|$)/, "waf"],
  // The managed entry point is the WAF migration's; every other ruleset path is the rulesets part's.
  [/^\/zones\/[^/]+\/rulesets\/phases\/http_request_firewall_managed\/entrypoint\/?$/, "waf"],
  [/^\/zones\/[^/]+\/rulesets(\/|$)/, "rulesets"]
]

/** The part whose endpoints include `url` (a path with or without the base path and the query). */
export const partOf = (url: string): PartName => {
  const q = url.indexOf("?")
  let p = q === -1 ? url : url.slice(0, q)
  if (p.startsWith(BasePath)) p = p.slice(BasePath.length)
  for (const [pattern, part] of patterns) if (pattern.test(p)) return part
  return "core"
}

/** What the parts run on (platform.ts). */
type PlatformServices = Layer.Layer.Success<ReturnType<typeof platformServices>>
type Part = Layer.Layer<HttpApi.Api, never, PlatformServices>

// The casts: HttpApiBuilder.api is typed per API; each part is the same groups as the whole API,
// whose composition app.ts checks in full.
const partLayer = (api: HttpApi.HttpApi.Any, groups: Layer.Layer<never, never, unknown>): Part =>
  HttpApiBuilder.api(api as ReturnType<typeof CoreApi>).pipe(
    Layer.provide(groups),
    Layer.provide(AuthenticationLive),
    Layer.provide(ApiErrorsLive())
  ) as Part

/** The layer that builds one part of the API (it needs the services of platform.ts). */
export const loadPart = async (name: PartName): Promise<Part> => {
  switch (name) {
    case "core": {
      const m = await import("../core-handlers.js")
      return partLayer(CoreApi(), Layer.mergeAll(m.ZonesLive, m.UserLive, m.AccountsLive))
    }
    case "esc": {
      const [m, c] = await Promise.all([import("../esc-handlers.js"), import("../../api/contract-esc.js")])
      return partLayer(c.EscApi(), m.EscLive)
    }
    case "kv": {
      const [m, c] = await Promise.all([import("../kv-handlers.js"), import("../../api/contract-kv.js")])
      return partLayer(c.KvApi(), m.KvLive)
    }
    case "firewall": {
      const [m, c] = await Promise.all([import("../firewall-handlers.js"), import("../../api/contract-firewall.js")])
      return partLayer(c.FirewallApi(), m.FirewallLive)
    }
    case "waf": {
      const [m, c] = await Promise.all([import("../waf-handlers.js"), import("../../api/contract-waf.js")])
      return partLayer(c.WafApi(), m.WafLive)
    }
    case "legacy": {
      const [m, c] = await Promise.all([import("../legacy-handlers.js"), import("../../api/contract-legacy.js")])
      return partLayer(c.LegacyApi(), m.LegacyLive)
    }
    case "rulesets": {
      const [m, c] = await Promise.all([import("../rulesets-handlers.js"), import("../../api/contract-rulesets.js")])
      return partLayer(c.RulesetsApi(), m.RulesetsLive)
    }
  }
}
