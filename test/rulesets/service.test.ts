/**
 * The custom-rules service over the in-process platform (local mode, built in parts): every call
 * the CLI will make, their tagged failures, and dry runs that change nothing.
 */
import { Effect, ManagedRuntime } from "effect"
import type { HttpClient } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type ClientConfig } from "../../src/api/client.js"
import { Endpoints } from "../../src/api/contract.js"
import { clientLayer } from "../../src/cli/environment.js"
import * as Rulesets from "../../src/services/rulesets-service.js"
import { tempDir } from "../helpers/platform.js"

type Client = HttpClient.HttpClient | ClientConfig
let rt: ManagedRuntime.ManagedRuntime<Client, unknown>
const run = <A, E>(e: Effect.Effect<A, E, Client>) => rt.runPromise(e)
const fail = <A, E>(e: Effect.Effect<A, E, Client>) => rt.runPromise(Effect.flip(e))

beforeAll(() => {
  rt = ManagedRuntime.make(clientLayer({ remote: false, persistTo: tempDir() }))
})
afterAll(async () => rt?.dispose())

const zoneNamed = (name: string) => run(call(Endpoints.listZones, { urlParams: { name } })).then((p) => p.items[0]!.id)

describe("rulesets service (in-process)", () => {
  it("creates the entry point, adds, updates, moves and deletes rules; reads the list and a ruleset", async () => {
    const zone = await zoneNamed("acme.com")
    expect(await run(Rulesets.getCustomRules(zone))).toBeNull()
    const dry = await run(
      Rulesets.putCustomRules(zone, { rules: [{ action: "block", expression: "ip.src eq 192.0.2.1" }] }, true)
    )
    expect(dry).toBeNull()
    expect(await run(Rulesets.getCustomRules(zone))).toBeNull()
    const rs = (await run(
      Rulesets.putCustomRules(zone, {
        name: "default",
        rules: [
          { action: "block", expression: "ip.src eq 192.0.2.1", ref: "one" },
          {
            action: "skip",
            expression: 'http.request.uri.path eq "/hook"',
            action_parameters: { products: ["waf", "uaBlock"] },
            logging: { enabled: false },
            ref: "two"
          }
        ]
      })
    ))!
    expect(rs.rules.map((r) => r.ref)).toEqual(["one", "two"])
    const added = (await run(
      Rulesets.addCustomRule(
        zone,
        rs.id,
        { action: "managed_challenge", expression: "true", ref: "three" },
        { index: 1 }
      )
    ))!
    expect(added.rules.map((r) => r.ref)).toEqual(["three", "one", "two"])
    const three = added.rules[0]!
    const updated = (await run(
      Rulesets.updateCustomRule(zone, rs.id, three.id, {
        action: "js_challenge",
        expression: "true",
        ref: "three",
        description: "now a JS challenge"
      })
    ))!
    expect(updated.rules[0]).toMatchObject({ id: three.id, action: "js_challenge", version: "2" })
    const moved = (await run(Rulesets.moveCustomRule(zone, rs.id, three.id, { after: "" })))!
    expect(moved.rules.map((r) => r.ref)).toEqual(["one", "two", "three"])
    expect(moved.rules[2]!.version).toBe("2")
    const deleted = (await run(Rulesets.deleteCustomRule(zone, rs.id, three.id)))!
    expect(deleted.rules.map((r) => r.ref)).toEqual(["one", "two"])
    expect(deleted.version).toBe("5")

    const list = await run(Rulesets.listRulesets(zone))
    expect(list.find((r) => r.phase === "http_request_firewall_custom")).toMatchObject({ id: rs.id, version: "5" })
    expect(await run(Rulesets.getRuleset(zone, rs.id))).toEqual(deleted)
  })

  it("fails with the contract's tags: NotFound, InvalidInput, InvalidExpression", async () => {
    const zone = await zoneNamed("acme.com")
    const rs = (await run(Rulesets.getCustomRules(zone)))!
    expect(await fail(Rulesets.deleteCustomRule(zone, rs.id, "0".repeat(32)))).toMatchObject({ _tag: "NotFound" })
    expect(await fail(Rulesets.moveCustomRule(zone, rs.id, rs.rules[0]!.id, { index: 7 }))).toMatchObject({
      _tag: "InvalidInput",
      message: "position.index: expected an integer from 1 to 2 (the ruleset has 1 other rules), got 7"
    })
    const bad = await fail(Rulesets.addCustomRule(zone, rs.id, { action: "block", expression: "http.host eq" }))
    expect(bad).toMatchObject({ _tag: "InvalidExpression" })
    expect(bad.message).toMatch(/^expression: Filter parsing error/)
  })
})
