/**
 * The embedded platform's API in parts, one table: each part's name, the paths of its endpoints and
 * its loader (its area's contract and handlers). Local mode builds a part on the first request for
 * it (a scripted command calls one or two areas, and building the routes, handlers and modules of
 * all of them would be most of what it waits for); `edgectl serve` builds them all into the whole
 * API (app.ts). Each part has the same authentication and error middleware as the whole API, over
 * the same services (platform.ts).
 *
 * A new area is its contract (src/api/contract-<area>.ts, added to `V4Api` in contract.ts), its
 * handlers, and one row here. `PartName` and `partOf` come from this table, and
 * test/server/parts.test.ts checks it against the contract: every endpoint's path goes to the part
 * whose contract holds its group, and every group of `V4Api` is in one part.
 *
 * `partOf` decides by path alone, without loading any contract: all methods of a path belong to one
 * part. A path of no part goes to the core, which answers it as the whole API would: no such route.
 */
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Layer from "effect/Layer"
import { BasePath, CoreApi } from "../../api/contract-core.js"
import { AuthenticationLive } from "../auth.js"
import { ApiErrorsLive } from "../errors.js"
import type { platformServices } from "../platform.js"

/** A part's contract (its area's `HttpApi`) and the handlers of its groups. */
export interface LoadedPart {
  readonly api: HttpApi.HttpApi.Any
  readonly handlers: Layer.Layer<never, never, unknown>
}

interface ApiPart {
  /** The paths of its endpoints, without the base path and the query. */
  readonly paths: ReadonlyArray<RegExp>
  readonly load: () => Promise<LoadedPart>
}

/**
 * The parts, in the order their paths are tried (the first that matches holds the path). The
 * core's groups are the foundation's (zones, user, accounts); it holds every path no other part does.
 */
const parts = {
  kv: {
    paths: [/^\/accounts\/[^/]+\/storage\/kv(\/|$)/],
    load: async () => {
      const [m, c] = await Promise.all([import("../kv-handlers.js"), import("../../api/contract-kv.js")])
      return { api: c.KvApi(), handlers: m.KvLive }
    }
  },
  esc: {
    paths: [/^\/(zones|accounts)\/[^/]+\/disable_esc\/?$/],
    load: async () => {
      const [m, c] = await Promise.all([import("../esc-handlers.js"), import("../../api/contract-esc.js")])
      return { api: c.EscApi(), handlers: m.EscLive }
    }
  },
  firewall: {
    paths: [/^\/zones\/[^/]+\/(filters|firewall\/rules)(\/|$)/, /^\/filters\/validate-expr\/?$/],
    load: async () => {
      const [m, c] = await Promise.all([import("../firewall-handlers.js"), import("../../api/contract-firewall.js")])
      return { api: c.FirewallApi(), handlers: m.FirewallLive }
    }
  },
  legacy: {
    paths: [/^\/zones\/[^/]+\/(firewall\/(lockdowns|ua_rules)|rate_limits)(\/|$)/],
    load: async () => {
      const [m, c] = await Promise.all([import("../legacy-handlers.js"), import("../../api/contract-legacy.js")])
      return { api: c.LegacyApi(), handlers: m.LegacyLive }
    }
  },
  // Before the rulesets: the managed entry point is the WAF migration's, every other ruleset path
  // is the rulesets part's.
  waf: {
    paths: [
      /^\/zones\/[^/]+\/(firewall\/waf|settings\/waf|pagerules|waf_migration)(\/|$)/,
      /^\/zones\/[^/]+\/rulesets\/phases\/http_request_firewall_managed\/entrypoint\/?$/
    ],
    load: async () => {
      const [m, c] = await Promise.all([import("../waf-handlers.js"), import("../../api/contract-waf.js")])
      return { api: c.WafApi(), handlers: m.WafLive }
    }
  },
  rulesets: {
    paths: [/^\/zones\/[^/]+\/rulesets(\/|$)/],
    load: async () => {
      const [m, c] = await Promise.all([import("../rulesets-handlers.js"), import("../../api/contract-rulesets.js")])
      return { api: c.RulesetsApi(), handlers: m.RulesetsLive }
    }
  },
  core: {
    paths: [],
    load: async () => {
      const m = await import("../core-handlers.js")
      return { api: CoreApi(), handlers: Layer.mergeAll(m.ZonesLive, m.UserLive, m.AccountsLive) }
    }
  }
} satisfies Record<string, ApiPart>

export type PartName = keyof typeof parts

/** The parts' names, in the table's order. */
export const partNames = Object.keys(parts) as ReadonlyArray<PartName>

const patterns: ReadonlyArray<readonly [RegExp, PartName]> = partNames.flatMap((name) =>
  parts[name].paths.map((pattern) => [pattern, name] as const)
)

/** The part whose endpoints include `url` (a path with or without the base path and the query). */
export const partOf = (url: string): PartName => {
  const q = url.indexOf("?")
  let p = q === -1 ? url : url.slice(0, q)
  if (p.startsWith(BasePath)) p = p.slice(BasePath.length)
  for (const [pattern, part] of patterns) if (pattern.test(p)) return part
  return "core"
}

/** A part's contract and handlers, loaded (its modules are imported on the first call). */
export const loadPart = (name: PartName): Promise<LoadedPart> => parts[name].load()

/** What the parts run on (platform.ts). */
type PlatformServices = Layer.Layer.Success<ReturnType<typeof platformServices>>
/** An API, or a part of it, as a layer: its handlers, authentication and errors, over the services. */
export type ApiLayer = Layer.Layer<HttpApi.Api, never, PlatformServices>

// The casts: HttpApiBuilder.api is typed per API, and the table's handlers are typed loosely; a
// group without its handlers fails the layer's build, which every request through it meets
// (test/server/parts.test.ts asks each part).
/** The layer of `api` answered by `handlers`. */
export const apiLayer = (api: HttpApi.HttpApi.Any, handlers: ReadonlyArray<LoadedPart["handlers"]>): ApiLayer =>
  HttpApiBuilder.api(api as ReturnType<typeof CoreApi>).pipe(
    Layer.provide(handlers as unknown as readonly [Layer.Layer<never>]),
    Layer.provide(AuthenticationLive),
    Layer.provide(ApiErrorsLive())
  ) as ApiLayer

/** The layer that builds one part of the API (it needs the services of platform.ts). */
export const partLayer = async (name: PartName): Promise<ApiLayer> => {
  const part = await loadPart(name)
  return apiLayer(part.api, [part.handlers])
}
