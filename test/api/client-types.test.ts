/**
 * The client's calls are typed from the contract, their inputs and their failures: `tsc` (run by
 * `npm test`) refuses each line
 * marked `@ts-expect-error` below, and would fail on the marker if a line were accepted. The
 * effects are built, never run: no platform is needed.
 */
import * as Effect from "effect/Effect"
import { describe, expect, expectTypeOf, it } from "vitest"
import { call, callRaw, type ClientEnv } from "../../src/api/client.js"
import { Endpoints } from "../../src/api/contract-core.js"
import { EscEndpoints } from "../../src/api/contract-esc.js"
import { FirewallEndpoints } from "../../src/api/contract-firewall.js"
import { KvEndpoints } from "../../src/api/contract-kv.js"
import { WafEndpoints } from "../../src/api/contract-waf.js"
import type {
  DuplicateFilter,
  MigrationStopped,
  V4Error,
  ExpressionTooLong,
  Incompatible,
  InvalidExpression,
  InvalidInput,
  MigrationFinished,
  NotFound,
  PlatformError,
  MaintenanceMode,
  QuotaExceeded,
  TooManyRules,
  UriOverridePresent,
  ValidationModeNotAllowed
} from "../../src/domain/errors.js"
import type { Invite } from "../../src/domain/invite.js"
import * as Firewall from "../../src/services/firewall-service.js"
import * as Rulesets from "../../src/services/rulesets-service.js"
import * as WafMigration from "../../src/services/waf-migration-service.js"
import type { Zone } from "../../src/domain/zone.js"

const zone_id = "023e105f4ecef8ad9ca31a8372d0c353"
const kvKey = { account_id: "a", namespace_id: "n", key_name: "k" }

describe("a call's failures are its endpoint's", () => {
  it("each endpoint states what it answers beyond what every endpoint can", () => {
    expectTypeOf(call(Endpoints.listInvites)).toEqualTypeOf<
      Effect.Effect<ReadonlyArray<Invite>, PlatformError, ClientEnv>
    >()
    expectTypeOf<Effect.Effect.Error<ReturnType<typeof WafMigration.status>>>().toEqualTypeOf<
      NotFound | InvalidInput | PlatformError
    >()
    expectTypeOf<Effect.Effect.Error<ReturnType<typeof WafMigration.prepare>>>().toEqualTypeOf<
      | NotFound
      | InvalidInput
      | MigrationFinished
      | ValidationModeNotAllowed
      | Incompatible
      | TooManyRules
      | ExpressionTooLong
      | UriOverridePresent
      | PlatformError
    >()
    // The apply runs on the migration engine: any platform error of its reads and its PUT, or a stop.
    expectTypeOf<Effect.Effect.Error<ReturnType<typeof WafMigration.apply>>>().toEqualTypeOf<
      V4Error | MigrationStopped
    >()
    expectTypeOf<Effect.Effect.Error<ReturnType<typeof Rulesets.addCustomRule>>>().toEqualTypeOf<
      NotFound | InvalidInput | InvalidExpression | QuotaExceeded | PlatformError
    >()
    expectTypeOf<Effect.Effect.Error<ReturnType<typeof Rulesets.deleteCustomRule>>>().toEqualTypeOf<
      NotFound | InvalidInput | PlatformError
    >()
    // A missing entry point is an answer (null), not a failure.
    expectTypeOf<Effect.Effect.Error<ReturnType<typeof Rulesets.getCustomRules>>>().toEqualTypeOf<
      InvalidInput | PlatformError
    >()
    expectTypeOf<Effect.Effect.Error<ReturnType<typeof Firewall.createRuleCombined>>>().toMatchTypeOf<
      QuotaExceeded | DuplicateFilter | InvalidExpression | NotFound | InvalidInput | MaintenanceMode | PlatformError
    >()
  })

  it("catchTag takes only a failure the call can have", () => {
    call(Endpoints.getZone, { path: { zone_id } }).pipe(Effect.catchTag("NotFound", () => Effect.void))
    call(Endpoints.getZone, { path: { zone_id } }).pipe(Effect.catchTag("RateLimited", () => Effect.void))
    Firewall.createRuleCombined(zone_id, { expression: "true" }, { action: "block" }).pipe(
      Effect.catchTag("QuotaExceeded", () => Effect.void)
    )
    call(Endpoints.getZone, { path: { zone_id } }).pipe(
      // @ts-expect-error reading a zone never exceeds a quota
      Effect.catchTag("QuotaExceeded", () => Effect.void)
    )
    WafMigration.status({ id: zone_id, name: "acme.com", plan: "free" }).pipe(
      // @ts-expect-error the status of a migration is readable in every state
      Effect.catchTag("MigrationFinished", () => Effect.void)
    )
    Rulesets.deleteCustomRule(zone_id, "r", "x").pipe(
      // @ts-expect-error deleting a rule never exceeds the plan's limit
      Effect.catchTag("QuotaExceeded", () => Effect.void)
    )
    call(KvEndpoints.listNamespaces, { path: { account_id: "a" } }).pipe(
      // @ts-expect-error listing namespaces conflicts with nothing
      Effect.catchTag("Conflict", () => Effect.void)
    )
  })
})

describe("a call's input is its endpoint's", () => {
  it("path parameters: all of them, no others", () => {
    expectTypeOf(call(Endpoints.getZone, { path: { zone_id } })).toEqualTypeOf<
      Effect.Effect<Zone, NotFound | InvalidInput | PlatformError, ClientEnv>
    >()
    // @ts-expect-error the zone's id is missing
    call(Endpoints.getZone, { path: {} })
    // @ts-expect-error no input at all: the path is required
    call(Endpoints.getZone)
    // @ts-expect-error `id` is not the name of this path's parameter
    call(Endpoints.getZone, { path: { id: zone_id } })
    // @ts-expect-error one of three missing
    call(KvEndpoints.getValue, { path: { account_id: "a", namespace_id: "n" } })
    // @ts-expect-error an endpoint without path parameters takes none
    call(Endpoints.listInvites, { path: { id: "x" } })
  })

  it("URL parameters: declared names, their Type side, undefined for left out", () => {
    call(Endpoints.listZones, { urlParams: { name: "acme.com", page: 2, per_page: undefined, direction: "desc" } })
    call(Endpoints.listZones)
    // @ts-expect-error a misspelled parameter
    call(Endpoints.listZones, { urlParams: { nmae: "acme.com" } })
    // @ts-expect-error a number is sent as a number (the client writes it), not as text
    call(Endpoints.listZones, { urlParams: { per_page: "50" } })
    // @ts-expect-error not one of the statuses
    call(Endpoints.listZones, { urlParams: { status: "paused" } })
    // @ts-expect-error not one of the firewall's actions
    call(FirewallEndpoints.listRules, { path: { zone_id }, urlParams: { action: "deny" } })
    // @ts-expect-error an endpoint without URL parameters takes none
    call(Endpoints.getZone, { path: { zone_id }, urlParams: { page: 1 } })
  })

  it("payload: the schema's Type side, required where declared, refused where not", () => {
    call(Endpoints.respondInvite, { path: { id: "x" }, payload: { status: "accepted" } })
    call(EscEndpoints.setZoneEsc, { path: { zone_id }, payload: { kind: "secret", secret: "s3cret" } })
    call(KvEndpoints.bulkGet, { path: kvKey, payload: { keys: ["a"], type: "json" } })
    // @ts-expect-error not an answer to an invite
    call(Endpoints.respondInvite, { path: { id: "x" }, payload: { status: "maybe" } })
    // @ts-expect-error the payload is required
    call(Endpoints.respondInvite, { path: { id: "x" } })
    // @ts-expect-error the wire form (`{"always": true}`) is what the client encodes, not what it takes
    call(EscEndpoints.setZoneEsc, { path: { zone_id }, payload: { always: true } })
    // @ts-expect-error `name` is not a namespace's field
    call(KvEndpoints.createNamespace, { path: { account_id: "a" }, payload: { name: "cache" } })
    // @ts-expect-error a GET has no payload
    call(WafEndpoints.status, { path: { zone_id }, payload: {} })
    // @ts-expect-error raw bytes only where the server reads the body itself
    call(KvEndpoints.createNamespace, { path: { account_id: "a" }, body: { bytes: new Uint8Array() } })
    callRaw(KvEndpoints.getValue, { path: kvKey })
    call(KvEndpoints.putValue, { path: kvKey, urlParams: { expiration_ttl: "60" }, body: { bytes: new Uint8Array() } })
  })

  it("building a call sends nothing", () => {
    expect(Effect.isEffect(call(Endpoints.listZones))).toBe(true)
  })
})
