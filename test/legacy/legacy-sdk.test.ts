/**
 * The official `cloudflare` SDK against `serve()` on the legacy security products: Zone Lockdown
 * and User Agent Blocking rules listed (its own pagination), created and deleted; and, with the
 * ended APIs switched on, the SDK's rate-limits call meets the 410 it documents.
 */
import Cloudflare from "cloudflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { legacyApis } from "../../src/server/legacy-mode.js"
import { startPlatform, type Platform } from "../helpers/platform.js"
import { sdkClient, sdkZoneId } from "../helpers/sdk.js"

let p: Platform
let client: Cloudflare

beforeAll(async () => {
  p = await startPlatform()
  client = sdkClient(p)
})
afterAll(async () => p?.close())

describe("cloudflare SDK: legacy security products", () => {
  it("firewall.lockdowns: list across pages, create, get, delete", async () => {
    const zone_id = await sdkZoneId(client, "acme-mail.com")
    const seen: string[] = []
    for await (const l of client.firewall.lockdowns.list({ zone_id, per_page: 1 })) seen.push(l.description)
    expect(seen).toEqual(["webmail admin from the office only", "partner API", "staging (paused)"])
    const created = await client.firewall.lockdowns.create({
      zone_id,
      urls: ["acme-mail.com/billing/*"],
      configurations: [{ target: "ip", value: "192.0.2.44" }]
    })
    expect(created.urls).toEqual(["acme-mail.com/billing/*"])
    expect((await client.firewall.lockdowns.get(created.id, { zone_id })).configurations).toEqual([
      { target: "ip", value: "192.0.2.44" }
    ])
    expect(await client.firewall.lockdowns.delete(created.id, { zone_id })).toEqual({ id: created.id })
  })

  it("firewall.uaRules: list and create; a bad mode is the SDK's BadRequestError", async () => {
    const zone_id = await sdkZoneId(client, "globex-store.com")
    const modes: string[] = []
    for await (const u of client.firewall.uaRules.list({ zone_id })) modes.push(u.mode ?? "")
    expect(modes).toEqual(["block", "challenge"])
    const bad = await client.firewall.uaRules
      .create({ zone_id, mode: "whitelist" as "block", configuration: { target: "ua", value: "x" } })
      .catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(Cloudflare.BadRequestError)
  })
})

describe("cloudflare SDK: rate limits once ended", () => {
  let ended: Platform
  beforeAll(async () => {
    ended = await startPlatform(undefined, { legacy: legacyApis("ended") })
  })
  afterAll(async () => ended?.close())

  it("rateLimits.list answers HTTP 410, as the SDK documents", async () => {
    const c = sdkClient(ended)
    const zone_id = await sdkZoneId(c, "acme-mail.com")
    const got = await c.rateLimits.list({ zone_id }).catch((e: unknown) => e)
    expect(got).toBeInstanceOf(Cloudflare.APIError)
    expect((got as InstanceType<typeof Cloudflare.APIError>).status).toBe(410)
  })
})
