/**
 * The client's calls are typed from the contract: `tsc` (run by `npm test`) refuses each line
 * marked `@ts-expect-error` below, and would fail on the marker if a line were accepted. The
 * effects are built, never run: no platform is needed.
 */
import * as Effect from "effect/Effect"
import { describe, expect, expectTypeOf, it } from "vitest"
import { call, callRaw, type ClientEnv } from "../src/api/client.js"
import { Endpoints } from "../src/api/contract-core.js"
import { EscEndpoints } from "../src/api/contract-esc.js"
import { FirewallEndpoints } from "../src/api/contract-firewall.js"
import { KvEndpoints } from "../src/api/contract-kv.js"
import { WafEndpoints } from "../src/api/contract-waf.js"
import type { V4Error } from "../src/domain/errors.js"
import type { Zone } from "../src/domain/zone.js"

const zone_id = "023e105f4ecef8ad9ca31a8372d0c353"
const kvKey = { account_id: "a", namespace_id: "n", key_name: "k" }

describe("a call's input is its endpoint's", () => {
  it("path parameters: all of them, no others", () => {
    expectTypeOf(call(Endpoints.getZone, { path: { zone_id } })).toEqualTypeOf<
      Effect.Effect<Zone, V4Error, ClientEnv>
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
