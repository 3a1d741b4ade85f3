/** The official `cloudflare` SDK (7.3.0) against `serve()`: the previous WAF's endpoints and the managed entry point, migration included. */
import Cloudflare from "cloudflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sdkClient, sdkZoneId } from "../helpers/sdk.js"
import { PREVIOUS_CLOUDFLARE_PACKAGE, PREVIOUS_OWASP_PACKAGE } from "../../src/waf/catalog.js"
import { request, startPlatform, type Platform } from "../helpers/platform.js"

let p: Platform
let client: Cloudflare

beforeAll(async () => {
  p = await startPlatform()
  client = sdkClient(p)
})
afterAll(async () => p?.close())

const zoneId = (name: string) => sdkZoneId(client, name)

describe("cloudflare SDK: WAF", () => {
  it("lists packages, groups and rules with auto-pagination; edits a rule; reads overrides", async () => {
    const zone_id = await zoneId("initech-cloud.io")
    const packages: Array<any> = []
    for await (const pkg of client.firewall.waf.packages.list({ zone_id })) packages.push(pkg)
    expect(packages.map((x) => x.id).sort()).toEqual([PREVIOUS_CLOUDFLARE_PACKAGE, PREVIOUS_OWASP_PACKAGE].sort())
    const groups: Array<any> = []
    for await (const g of client.firewall.waf.packages.groups.list(PREVIOUS_OWASP_PACKAGE, { zone_id })) groups.push(g)
    expect(groups.length).toBe(5)
    const rule = await client.firewall.waf.packages.rules.edit("100000", {
      zone_id,
      package_id: PREVIOUS_CLOUDFLARE_PACKAGE,
      mode: "block"
    } as any)
    expect(rule).toMatchObject({ id: "100000", mode: "block" })
    // The SDK types this deprecated call as void (it documents 410 Gone); the platform still answers the list.
    const overrides = (await client.firewall.waf.overrides.list({ zone_id } as any)) as unknown as {
      result: Array<unknown>
    }
    expect(overrides.result).toEqual([])
  })

  it("reads the managed entry point (404 before), migrates with waf_migration in the query, then the previous WAF is gone", async () => {
    const zone_id = await zoneId("initech-cloud.io")
    await expect(client.rulesets.phases.get("http_request_firewall_managed", { zone_id })).rejects.toMatchObject({
      status: 404
    })
    const config = (await request(p.baseUrl, `/zones/${zone_id}/waf_migration/config?phase_two=1`)).body.result
    const ruleset = await client.rulesets.phases.update(
      "http_request_firewall_managed",
      { zone_id, ...config },
      { query: { waf_migration: "pending", phase_two: 1 } }
    )
    expect(ruleset).toMatchObject({ phase: "http_request_firewall_managed", kind: "zone", version: "1" })
    expect((await client.rulesets.phases.get("http_request_firewall_managed", { zone_id })).rules.length).toBe(
      config.rules.length
    )
    await expect(client.firewall.waf.packages.get(PREVIOUS_OWASP_PACKAGE, { zone_id })).rejects.toMatchObject({
      status: 409
    })
  })
})
