/** The official `cloudflare` SDK reads the fields of issue 18 from `serve()` as it reads the platform's. */
import Cloudflare from "cloudflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sdkClient } from "../helpers/sdk.js"
import { startPlatform, type Platform } from "../helpers/platform.js"

let p: Platform
let client: Cloudflare
let zoneId = ""

beforeAll(async () => {
  p = await startPlatform()
  client = sdkClient(p)
  for await (const z of client.zones.list({ name: "initech.net" })) zoneId = z.id
})
afterAll(async () => {
  await p?.close()
})

describe("the SDK against the local platform", () => {
  it("creates an SRV record from data and reads .data.target back from the list", async () => {
    const created = await client.dns.records.create({
      zone_id: zoneId,
      type: "SRV",
      name: "_sip._tcp.sdk",
      ttl: 3600,
      data: { priority: 10, weight: 5, port: 5060, target: "sip.initech.net" }
    })
    expect(created).toMatchObject({ type: "SRV", content: "5 5060 sip.initech.net", priority: 10 })
    const srv: Array<any> = []
    for await (const r of client.dns.records.list({
      zone_id: zoneId,
      type: "SRV",
      name: { exact: "_sip._tcp.sdk.initech.net" }
    }))
      srv.push(r)
    expect(srv.map((r) => r.data?.target)).toEqual(["sip.initech.net"])
  })

  it("verify leaves unset dates out; a zone's owner has a type", async () => {
    const v = await client.user.tokens.verify()
    expect(v.status).toBe("active")
    expect("expires_on" in v).toBe(false)
    expect("not_before" in v).toBe(false)
    expect((await client.zones.get({ zone_id: zoneId })).owner.type).toBe("user")
  })
})
