/** The official `cloudflare` SDK (7.3.0) against `serve()`: the rulesets methods on the custom phase. */
import Cloudflare from "cloudflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sdkClient, sdkZoneId } from "../helpers/sdk.js"
import { startPlatform, type Platform } from "../helpers/platform.js"

let p: Platform
let client: Cloudflare

beforeAll(async () => {
  p = await startPlatform()
  client = sdkClient(p)
})
afterAll(async () => p?.close())

const zoneId = (name: string) => sdkZoneId(client, name)

const PHASE = "http_request_firewall_custom" as const

describe("cloudflare SDK: rulesets, custom phase", () => {
  it("phases.get is a 404 before; phases.update creates the entry point; list and get read it", async () => {
    const zone_id = await zoneId("globex.com")
    await expect(client.rulesets.phases.get(PHASE, { zone_id })).rejects.toMatchObject({ status: 404 })
    const dry = await client.rulesets.phases.update(PHASE, {
      zone_id,
      dry_run: true,
      rules: [{ action: "block", expression: "ip.src eq 192.0.2.1" }]
    })
    expect(dry).toBeNull()
    const rs: any = await client.rulesets.phases.update(PHASE, {
      zone_id,
      name: "default",
      rules: [
        {
          action: "skip",
          expression: "ip.src in {192.0.2.0/24}",
          action_parameters: { ruleset: "current" },
          logging: { enabled: true },
          ref: "office"
        },
        { action: "block", expression: 'http.request.uri.path contains "/admin"', enabled: false, ref: "admin" }
      ]
    })
    expect(rs).toMatchObject({ name: "default", kind: "zone", phase: PHASE, version: "1" })
    expect(rs.rules.map((r: any) => r.ref)).toEqual(["office", "admin"])
    expect(await client.rulesets.phases.get(PHASE, { zone_id })).toEqual(rs)

    const listed: Array<any> = []
    for await (const r of client.rulesets.list({ zone_id })) listed.push(r)
    expect(listed.find((r) => r.phase === PHASE)).toEqual({
      id: rs.id,
      name: "default",
      description: "",
      kind: "zone",
      version: "1",
      last_updated: rs.last_updated,
      phase: PHASE
    })
    expect(await client.rulesets.get(rs.id, { zone_id })).toEqual(rs)
  })

  it("create makes the entry point once: a second one is a BadRequestError with code 20217", async () => {
    const zone_id = await zoneId("initech.com")
    const body = { zone_id, name: "default", kind: "zone" as const, phase: PHASE, rules: [] }
    const made: any = await client.rulesets.create(body)
    expect(made).toMatchObject({ name: "default", kind: "zone", phase: PHASE, rules: [] })
    const second: any = await client.rulesets.create(body).catch((e: any) => e)
    expect(second).toBeInstanceOf(Cloudflare.BadRequestError)
    expect(second.errors[0].code).toBe(20217)
  })

  it("rules.create with a position, rules.edit to update and to reorder, rules.delete", async () => {
    const zone_id = await zoneId("globex.com")
    const rs: any = await client.rulesets.phases.get(PHASE, { zone_id })
    const [office, admin] = rs.rules
    const created: any = await client.rulesets.rules.create(rs.id, {
      zone_id,
      action: "managed_challenge",
      expression: 'http.request.uri.path eq "/login"',
      ref: "login",
      position: { after: office!.id }
    })
    expect(created.rules.map((r: any) => r.ref)).toEqual(["office", "login", "admin"])
    expect(created.version).toBe(String(Number(rs.version) + 1))
    const login = created.rules[1]!
    const edited: any = await client.rulesets.rules.edit(login.id, {
      zone_id,
      ruleset_id: rs.id,
      action: "js_challenge",
      expression: 'http.request.uri.path eq "/login"',
      ref: "login"
    })
    expect(edited.rules[1]).toMatchObject({ id: login.id, action: "js_challenge", version: "2" })
    const moved: any = await client.rulesets.rules.edit(admin!.id, {
      zone_id,
      ruleset_id: rs.id,
      position: { index: 1 }
    } as any)
    expect(moved.rules.map((r: any) => r.ref)).toEqual(["admin", "office", "login"])
    expect(moved.rules[0]).toEqual(admin)
    const deleted: any = await client.rulesets.rules.delete(login.id, { zone_id, ruleset_id: rs.id })
    const versions: Array<any> = []
    for await (const v of client.rulesets.versions.list(rs.id, { zone_id })) versions.push(v)
    expect(versions[0]).toMatchObject({ id: rs.id, version: deleted.version })
    expect(await client.rulesets.versions.get(moved.version, { zone_id, ruleset_id: rs.id })).toEqual(moved)
    expect(deleted.rules.map((r: any) => r.ref)).toEqual(["admin", "office"])
    await expect(client.rulesets.rules.delete(login.id, { zone_id, ruleset_id: rs.id })).rejects.toMatchObject({
      status: 404
    })
    const bad: any = await client.rulesets.rules
      .create(rs.id, { zone_id, action: "block", expression: "http.host eq", position: { index: 9 } })
      .catch((e: any) => e)
    expect(bad).toMatchObject({ status: 400 })
    expect(bad.errors[0].message).toMatch(/^expression: Filter parsing error/)
  })
})
