/**
 * The v4 contract: every endpoint of the platform that edgectl serves or calls, described once.
 * The embedded server is built from it (HttpApiBuilder) and the client calls it (src/api/client),
 * so a path, a parameter or a body is declared in one place: an endpoint in its area's record, the
 * area's group built from the record (`groupOf`). The core (errors, authentication, the
 * foundation's groups) is in contract-core.ts, each area's group in contract-<area>.ts. The fast
 * routes the platform tries before the app (the list of src/server/door/fast-routes.ts) match their
 * few paths again, and decline whatever they do not understand exactly.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { AccountsGroup, Authentication, platformApi, UserGroup, ZonesGroup } from "./contract-core.js"
import { EscGroup } from "./contract-esc.js"
import { FirewallGroup } from "./contract-firewall.js"
import { KvGroup } from "./contract-kv.js"
import { LegacyGroup } from "./contract-legacy.js"
import { RulesetsGroup } from "./contract-rulesets.js"
import { lazily } from "./contract-lazy.js"
import { WafApiGroup } from "./contract-waf.js"

export * from "./contract-core.js"

/** The whole API, as `edgectl serve` builds it (built on first use, as its parts are: contract-lazy.ts). */
export const V4Api = lazily(
  () =>
    class V4Api extends platformApi(
      HttpApi.make("v4")
        .add(ZonesGroup())
        .add(UserGroup())
        .add(AccountsGroup())
        .add(EscGroup().middleware(Authentication))
        .add(KvGroup().middleware(Authentication))
        .add(FirewallGroup().middleware(Authentication))
        .add(WafApiGroup().middleware(Authentication))
        .add(RulesetsGroup().middleware(Authentication))
        .add(LegacyGroup().middleware(Authentication))
    ) {}
)
