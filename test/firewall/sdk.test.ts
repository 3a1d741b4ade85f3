/**
 * The official `cloudflare` SDK (7.3.0): filters and firewall-rules list, create and delete against
 * `serve()` (the SDK's rule create sends one object, not an array; both are accepted).
 */
import Cloudflare from "cloudflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sdkClient } from "../helpers/sdk.js"
import { hexId } from "../../src/domain/ids.js"
import { startPlatform, type Platform } from "../helpers/platform.js"

let p: Platform
let client: Cloudflare
const zone_id = hexId("zone", "globex.net")

beforeAll(async () => {
  p = await startPlatform()
  client = sdkClient(p)
})
afterAll(async () => {
  await p?.close()
})

describe("filters through the SDK", () => {
  it("creates, lists (auto-pagination stops), gets and deletes", async () => {
    const created: Array<{ id?: string; expression?: string; paused?: boolean }> = []
    for await (const f of client.filters.create({
      zone_id,
      body: [
        { expression: 'http.host eq "sdk-1.globex.net"' },
        { expression: 'http.host eq "sdk-2.globex.net"', description: "two" }
      ]
    })) {
      created.push(f)
    }
    expect(created.map((f) => f.expression)).toEqual([
      'http.host eq "sdk-1.globex.net"',
      'http.host eq "sdk-2.globex.net"'
    ])
    expect(created.every((f) => f.paused === false && /^[0-9a-f]{32}$/.test(f.id!))).toBe(true)
    for (let i = 0; i < 8; i++)
      await client.filters.create({ zone_id, body: [{ expression: `http.request.uri.path eq "/p${i}"` }] })
    const listed: Array<string> = []
    for await (const f of client.filters.list({ zone_id, per_page: 5 })) listed.push(f.id!)
    expect(listed).toHaveLength(10)
    expect(new Set(listed).size).toBe(10)
    expect((await client.filters.get(created[1]!.id!, { zone_id })).description).toBe("two")
    await client.filters.delete(created[0]!.id!, { zone_id })
    const after: Array<string> = []
    for await (const f of client.filters.list({ zone_id })) after.push(f.id!)
    expect(after).not.toContain(created[0]!.id)
    await client.filters.bulkDelete({ zone_id, id: after.slice(0, 2) })
    const left: Array<string> = []
    for await (const f of client.filters.list({ zone_id })) left.push(f.id!)
    expect(left).toHaveLength(7)
  })

  it("surfaces a duplicate and an invalid expression as BadRequest with the platform's errors", async () => {
    await client.filters.create({ zone_id, body: [{ expression: 'http.host eq "dup.globex.net"' }] })
    const dup = await client.filters.create({ zone_id, body: [{ expression: 'http.host eq "dup.globex.net"' }] }).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(dup).toBeInstanceOf(Cloudflare.BadRequestError)
    expect((dup as InstanceType<typeof Cloudflare.BadRequestError>).errors[0]).toMatchObject({
      code: 10102,
      meta: { id: expect.any(String) }
    })
    const bad = await client.filters.create({ zone_id, body: [{ expression: "ip.src==34" }] }).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(bad).toBeInstanceOf(Cloudflare.BadRequestError)
    expect(String((bad as Error).message)).toContain("Filter parsing error")
  })
})

describe("firewall rules through the SDK", () => {
  it("creates with the combined call (one object), lists with filters and deletes (the filter stays)", async () => {
    const page = await client.firewall.rules.create({
      zone_id,
      action: "block" as never,
      filter: { expression: 'http.user_agent contains "sdk-bot"' }
    })
    const [rule] = page.result
    expect(rule).toMatchObject({
      action: "block",
      paused: false,
      priority: null,
      filter: { expression: 'http.user_agent contains "sdk-bot"', paused: false }
    })
    const listed: Array<{ id?: string; action?: unknown }> = []
    for await (const r of client.firewall.rules.list({ zone_id })) listed.push(r)
    expect(listed.map((r) => r.id)).toContain(rule!.id)
    expect((await client.firewall.rules.get(rule!.id!, { zone_id })).filter).toMatchObject({ id: rule!.filter!.id })
    await client.firewall.rules.delete(rule!.id!, { zone_id })
    const after: Array<string> = []
    for await (const r of client.firewall.rules.list({ zone_id })) after.push(r.id!)
    expect(after).not.toContain(rule!.id)
    expect((await client.filters.get(rule!.filter!.id!, { zone_id })).expression).toBe(
      'http.user_agent contains "sdk-bot"'
    )
  })

  it("creates a rule on an existing filter (two-step flow) and bulk-deletes nothing without ids", async () => {
    const [f] = (
      await client.filters.create({ zone_id, body: [{ expression: 'http.request.uri.path eq "/sdk-two-step"' }] })
    ).result
    const [r] = (
      await client.firewall.rules.create({ zone_id, action: "challenge" as never, filter: { id: f!.id } as never })
    ).result
    expect(r!.filter).toMatchObject({ id: f!.id, expression: 'http.request.uri.path eq "/sdk-two-step"' })
    expect((await client.firewall.rules.bulkDelete({ zone_id })).result).toEqual([])
  })
})
