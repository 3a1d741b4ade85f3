/** The official `cloudflare` SDK (7.3.0) against `serve()`: auto-pagination, single objects, invites, errors. */
import Cloudflare from "cloudflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sdkClient, sdkZoneId } from "../helpers/sdk.js"
import { startPlatform, World, type Platform } from "../helpers/platform.js"

let p: Platform
const sdk = (auth: { apiToken: string } | { apiEmail: string; apiKey: string }) => sdkClient(p, auth)
let client: Cloudflare
const fixtureZoneNames = World.memberZones.map((z) => z.name).sort()

beforeAll(async () => {
  p = await startPlatform()
  client = sdk({ apiToken: World.allToken })
})
afterAll(async () => {
  await p?.close()
})

const zoneId = sdkZoneId

describe("zones", () => {
  it("for await over zones.list() yields each of the 46 zones exactly once and stops", async () => {
    const names: Array<string> = []
    for await (const z of client.zones.list()) {
      names.push(z.name)
      if (names.length > 200) throw new Error("auto-pagination does not stop")
    }
    expect(names).toHaveLength(46)
    expect(new Set(names).size).toBe(46)
    expect(names.sort()).toEqual(fixtureZoneNames)
  })

  it("pages by hand and sends dotted and repeated filters", async () => {
    const first = await client.zones.list({ per_page: 5 })
    expect(first.result).toHaveLength(5)
    expect(first.result_info).toMatchObject({ page: 1, per_page: 5, total_count: 46 })
    expect(first.hasNextPage()).toBe(true)
    const zone = await client.zones.get({ zone_id: await zoneId(client, "globex.com") })
    const byAccount: Array<string> = []
    for await (const z of client.zones.list({ account: { id: zone.account.id! }, status: "active" }))
      byAccount.push(z.name)
    expect(byAccount.length).toBeGreaterThan(0)
    expect(byAccount.every((n) => n.startsWith("globex"))).toBe(true)
    const partial: Array<string> = []
    for await (const z of client.zones.list({ type: ["partial"] })) partial.push(z.name)
    expect(partial).toEqual(["acme-partners.net"])
  })

  it("zones.get returns the zone", async () => {
    const id = await zoneId(client, "acme.com")
    const zone = await client.zones.get({ zone_id: id })
    expect(zone.id).toBe(id)
    expect(zone.name).toBe("acme.com")
    expect(zone.account.name).toBe("Acme Corp")
    expect(zone.name_servers.length).toBeGreaterThan(0)
  })
})

describe("DNS records and certificate packs", () => {
  it("auto-pagination over acme.com gives its 1250 records", async () => {
    const id = await zoneId(client, "acme.com")
    const ids = new Set<string>()
    let n = 0
    for await (const r of client.dns.records.list({ zone_id: id })) {
      ids.add(r.id)
      if (++n > 5000) throw new Error("auto-pagination does not stop")
    }
    expect(n).toBe(1250)
    expect(ids.size).toBe(1250)
  })

  it("filters records with the SDK's dotted name filters and type", async () => {
    const id = await zoneId(client, "acme.com")
    const mx: Array<string> = []
    for await (const r of client.dns.records.list({ zone_id: id, type: "MX" })) mx.push(r.type)
    expect(mx.length).toBeGreaterThan(0)
    expect(new Set(mx)).toEqual(new Set(["MX"]))
    const apex: Array<string> = []
    for await (const r of client.dns.records.list({ zone_id: id, name: { exact: "acme.com" } })) apex.push(r.name)
    expect(apex.length).toBeGreaterThan(0)
    expect(apex.every((x) => x === "acme.com")).toBe(true)
  })

  it("certificatePacks.list with status all includes packs that are not active", async () => {
    const id = await zoneId(client, "acme.net")
    const all: Array<string> = []
    for await (const pack of client.ssl.certificatePacks.list({ zone_id: id, status: "all" })) all.push(pack.status)
    const active: Array<string> = []
    for await (const pack of client.ssl.certificatePacks.list({ zone_id: id })) active.push(pack.status)
    expect(all.length).toBeGreaterThan(active.length)
    expect(active.every((s) => s === "active")).toBe(true)
    expect(all).toContain("pending_validation")
  })
})

describe("user invites and accounts", () => {
  it("invites.list, invites.edit accepting one, then the account is listed", async () => {
    const invites: Array<Cloudflare.User.Invite> = []
    for await (const i of client.user.invites.list()) invites.push(i)
    expect(invites).toHaveLength(2)
    const umbrella = invites.find((i) => i.organization_name === "Umbrella Partners")!
    expect(umbrella.id).toMatch(/^[0-9a-f]{32}$/)
    const accepted = await client.user.invites.edit(umbrella.id!, { status: "accepted" })
    expect(accepted.status).toBe("accepted")
    expect((await client.user.invites.get(umbrella.id!)).status).toBe("accepted")
    const names: Array<string> = []
    for await (const a of client.accounts.list()) names.push(a.name)
    expect(names).toContain("Umbrella Partners")
    const again = await client.user.invites.edit(umbrella.id!, { status: "rejected" }).catch((e: unknown) => e)
    expect(again).toBeInstanceOf(Cloudflare.BadRequestError)
  })

  it("tokens verify", async () => {
    const v = await client.user.tokens.verify()
    expect(v.status).toBe("active")
  })
})

describe("errors", () => {
  it("an unknown zone is NotFoundError, 404, code 7003", async () => {
    const e = await client.zones.get({ zone_id: "0123456789abcdef0123456789abcdef" }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(Cloudflare.NotFoundError)
    const err = e as InstanceType<typeof Cloudflare.NotFoundError>
    expect(err.status).toBe(404)
    expect(err.errors[0]?.code).toBe(7003)
  })

  it("a bad token is PermissionDeniedError, 403, code 9109", async () => {
    const bad = sdk({ apiToken: "unknown-token-0000000000000000000000000" })
    const e = await bad.zones.list().catch((x: unknown) => x)
    expect(e).toBeInstanceOf(Cloudflare.PermissionDeniedError)
    const err = e as InstanceType<typeof Cloudflare.PermissionDeniedError>
    expect(err.status).toBe(403)
    expect(err.errors[0]?.code).toBe(9109)
  })

  it("a bad parameter is BadRequestError naming it", async () => {
    const e = await client.zones.list({ per_page: 51 }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(Cloudflare.BadRequestError)
    const err = e as InstanceType<typeof Cloudflare.BadRequestError>
    expect(err.errors[0]?.message).toContain("per_page")
  })

  it("an account-scoped token on user invites is PermissionDeniedError with code 10000", async () => {
    const acme = sdk({ apiToken: World.acmeToken })
    const e = await acme.user.invites.list().catch((x: unknown) => x)
    expect(e).toBeInstanceOf(Cloudflare.PermissionDeniedError)
    expect((e as InstanceType<typeof Cloudflare.PermissionDeniedError>).errors[0]?.code).toBe(10000)
  })
})

describe("with apiEmail and apiKey", () => {
  it("sees the same zones as the user's all-accounts token, with the key pair alone", async () => {
    const keyed = sdk({ apiEmail: World.email, apiKey: World.apiKey })
    const names: Array<string> = []
    for await (const z of keyed.zones.list()) names.push(z.name)
    const viaToken: Array<string> = []
    for await (const z of client.zones.list()) viaToken.push(z.name)
    expect(names.length).toBeGreaterThanOrEqual(46)
    expect(names.sort()).toEqual(viaToken.sort())
    const zone = await keyed.zones.get({ zone_id: await zoneId(keyed, "initech.com") })
    expect(zone.name).toBe("initech.com")
  })

  it("an unknown key is PermissionDeniedError with code 9103", async () => {
    const keyed = sdk({ apiEmail: World.email, apiKey: "0000000000000000000000000000000000000" })
    const e = await keyed.zones.list().catch((x: unknown) => x)
    expect(e).toBeInstanceOf(Cloudflare.PermissionDeniedError)
    expect((e as InstanceType<typeof Cloudflare.PermissionDeniedError>).errors[0]?.code).toBe(9103)
  })
})

describe("KV namespaces and values (Workers KV resources)", () => {
  const account_id = "9ceb3ed8a4d51764641f47536189e297"

  it("namespaces: create, list with auto-pagination, update, get, delete; a duplicate title is BadRequestError 10014", async () => {
    expect(account_id).toBe((await client.accounts.list()).result.find((a) => a.name === "Acme Corp")!.id)
    const created = await client.kv.namespaces.create({ account_id, title: "sdk-ns" })
    expect(created).toMatchObject({ title: "sdk-ns", supports_url_encoding: true })
    for (let i = 0; i < 7; i++) await client.kv.namespaces.create({ account_id, title: `sdk-page-${i}` })
    const titles: Array<string> = []
    for await (const n of client.kv.namespaces.list({ account_id, per_page: 5 })) {
      titles.push(n.title)
      if (titles.length > 100) throw new Error("auto-pagination does not stop")
    }
    expect(titles).toEqual(expect.arrayContaining(["sdk-ns", "sdk-page-0", "sdk-page-6"]))
    const renamed = await client.kv.namespaces.update(created.id, { account_id, title: "sdk-ns-renamed" })
    expect(renamed.title).toBe("sdk-ns-renamed")
    expect((await client.kv.namespaces.get(created.id, { account_id })).title).toBe("sdk-ns-renamed")
    const dup = await client.kv.namespaces.create({ account_id, title: "sdk-page-0" }).catch((e: unknown) => e)
    expect(dup).toBeInstanceOf(Cloudflare.BadRequestError)
    expect((dup as InstanceType<typeof Cloudflare.BadRequestError>).errors[0]?.code).toBe(10014)
    await client.kv.namespaces.delete(created.id, { account_id })
    const gone = await client.kv.namespaces.get(created.id, { account_id }).catch((e: unknown) => e)
    expect(gone).toBeInstanceOf(Cloudflare.NotFoundError)
  })

  it("values.update (multipart, metadata object and string), values.get, metadata.get, keys.list, values.delete", async () => {
    const ns = await client.kv.namespaces.create({ account_id, title: "sdk-values" })
    const namespace_id = ns.id
    await client.kv.namespaces.values.update("with/slash?and=query", {
      account_id,
      namespace_id,
      value: "Some Value",
      metadata: { owner: "ada", tags: ["x"] },
      expiration_ttl: 300
    })
    await client.kv.namespaces.values.update("json-meta", {
      account_id,
      namespace_id,
      value: "v2",
      metadata: JSON.stringify({ n: 1 })
    })
    const res = await client.kv.namespaces.values.get("with/slash?and=query", { account_id, namespace_id })
    expect(await res.text()).toBe("Some Value")
    expect(Number(res.headers.get("expiration"))).toBeGreaterThan(Date.now() / 1000 + 290)
    // The SDK flattens an object into metadata[owner], metadata[tags][] form fields: every value arrives as text.
    expect(await client.kv.namespaces.metadata.get("with/slash?and=query", { account_id, namespace_id })).toEqual({
      owner: "ada",
      tags: ["x"]
    })
    expect(await client.kv.namespaces.metadata.get("json-meta", { account_id, namespace_id })).toEqual({ n: 1 })
    const keys: Array<string> = []
    for await (const k of client.kv.namespaces.keys.list(namespace_id, { account_id })) keys.push(k.name)
    expect(keys).toEqual(["json-meta", "with/slash?and=query"])
    await client.kv.namespaces.values.delete("json-meta", { account_id, namespace_id })
    const missing = await client.kv.namespaces.values
      .get("json-meta", { account_id, namespace_id })
      .catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(Cloudflare.NotFoundError)
    expect((missing as InstanceType<typeof Cloudflare.NotFoundError>).errors[0]?.code).toBe(10009)
    const bad = await client.kv.namespaces.values
      .update("k", { account_id, namespace_id, value: "v", expiration_ttl: 30 })
      .catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(Cloudflare.BadRequestError)
    expect((bad as InstanceType<typeof Cloudflare.BadRequestError>).errors[0]?.message).toBe(
      "expiration_ttl is 30 seconds, the minimum is 60"
    )
  })

  it("bulkUpdate, keys.list auto-pagination over 2,500 keys, bulkGet, bulkDelete", async () => {
    const { id: namespace_id } = await client.kv.namespaces.create({ account_id, title: "sdk-bulk" })
    const body = Array.from({ length: 2500 }, (_, i) => ({ key: `k-${String(i).padStart(4, "0")}`, value: `v${i}` }))
    const written = await client.kv.namespaces.bulkUpdate(namespace_id, { account_id, body })
    expect(written).toEqual({ successful_key_count: 2500, unsuccessful_keys: [] })
    let n = 0
    let previous = ""
    for await (const k of client.kv.namespaces.keys.list(namespace_id, { account_id, limit: 1000 })) {
      expect(k.name > previous).toBe(true)
      previous = k.name
      if (++n > 5000) throw new Error("cursor pagination does not stop")
    }
    expect(n).toBe(2500)
    const got = await client.kv.namespaces.bulkGet(namespace_id, { account_id, keys: ["k-0001", "nope"] })
    expect(got).toEqual({ values: { "k-0001": "v1", nope: null } })
    const deleted = await client.kv.namespaces.bulkDelete(namespace_id, { account_id, body: ["k-0001", "k-0002"] })
    expect(deleted).toEqual({ successful_key_count: 2, unsuccessful_keys: [] })
    const after = await client.kv.namespaces.keys.list(namespace_id, { account_id, prefix: "k-000" })
    expect(after.result.map((k) => k.name)).toEqual([
      "k-0000",
      "k-0003",
      "k-0004",
      "k-0005",
      "k-0006",
      "k-0007",
      "k-0008",
      "k-0009"
    ])
  })

  it("an unknown namespace is NotFoundError with code 10013", async () => {
    const e = await client.kv.namespaces.values
      .get("k", { account_id, namespace_id: "0".repeat(32) })
      .catch((x: unknown) => x)
    expect(e).toBeInstanceOf(Cloudflare.NotFoundError)
    expect((e as InstanceType<typeof Cloudflare.NotFoundError>).errors[0]?.code).toBe(10013)
  })
})
