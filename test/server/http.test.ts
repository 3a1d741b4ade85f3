/** The embedded platform over a real socket: envelope, lists, filters, validation, invites, routing errors. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DemoZones } from "../helpers/demo-world.js"
import { assertEnvelope, firstError, request, startPlatform, World, type Platform } from "../helpers/platform.js"

interface Zone {
  id: string
  name: string
  status: string
  account: { id: string; name: string }
}
interface Info {
  page: number
  per_page: number
  count: number
  total_count: number
  total_pages: number
}
interface List<A> {
  result: Array<A>
  result_info: Info
}
interface Dns {
  id: string
  type: string
  name: string
  content: string
  proxied: boolean
}
interface Pack {
  id: string
  status: string
  type: string
}

const keyAuth = { "x-auth-email": World.email, "x-auth-key": World.apiKey }
const fixtureNames = (p: (n: string, z: (typeof World.memberZones)[number]) => boolean) =>
  World.memberZones
    .filter((z) => p(z.name, z))
    .map((z) => z.name)
    .sort()

let p: Platform
const get = <A = any>(path: string, o?: Parameters<typeof request>[2]) => request<A>(p.baseUrl, path, o)
/** Every zone name of a filtered list, asserting the whole set fits in one page of 50. */
const zoneNames = async (query: string) => {
  const r = await get<List<Zone>>(`/zones?per_page=50&${query}`)
  assertEnvelope(r, true)
  expect(r.body.result_info.total_count).toBe(r.body.result.length)
  return r.body.result.map((z) => z.name).sort()
}
const zoneId = async (name: string) => (await get<List<Zone>>(`/zones?name=${name}`)).body.result[0]!.id

beforeAll(async () => {
  p = await startPlatform()
})
afterAll(async () => {
  await p?.close()
})

describe("envelope", () => {
  it("every JSON answer, success or failure, is a v4 envelope with content-type application/json", async () => {
    const acme = await zoneId("acme.com")
    for (const path of [
      "/zones",
      `/zones/${acme}`,
      `/zones/${acme}/dns_records`,
      `/zones/${acme}/ssl/certificate_packs`,
      "/accounts",
      "/memberships",
      "/user/invites",
      "/user/tokens/verify"
    ]) {
      const r = await get(path)
      expect(r.status, path).toBe(200)
      assertEnvelope(r, true)
    }
    for (const [path, status] of [
      ["/zones?per_page=4", 400],
      ["/zones/0000", 404],
      ["/nope", 404],
      ["/zones?direction=up", 400]
    ] as const) {
      const r = await get(path)
      expect(r.status, path).toBe(status)
      assertEnvelope(r, false)
      expect(firstError(r).code).toBeGreaterThanOrEqual(1000)
    }
  })

  it("lists carry result_info with page, per_page, count, total_count and total_pages", async () => {
    for (const path of ["/zones", "/accounts", "/memberships", `/zones/${await zoneId("acme.com")}/dns_records`]) {
      const r = await get<List<unknown>>(path)
      expect(Object.keys(r.body.result_info).sort(), path).toEqual([
        "count",
        "page",
        "per_page",
        "total_count",
        "total_pages"
      ])
      expect(r.body.result_info.count).toBe(r.body.result.length)
    }
  })
})

describe("GET /zones", () => {
  it("pages by 20 by default: the demo world's zones in pages of 20, the last with the rest", async () => {
    const pages = Math.ceil(DemoZones / 20)
    const first = await get<List<Zone>>("/zones")
    expect(first.body.result).toHaveLength(20)
    expect(first.body.result_info).toEqual({
      page: 1,
      per_page: 20,
      count: 20,
      total_count: DemoZones,
      total_pages: pages
    })
    const last = await get<List<Zone>>(`/zones?page=${pages}`)
    expect(last.body.result).toHaveLength(DemoZones - 20 * (pages - 1))
    expect(last.body.result_info).toMatchObject({
      page: pages,
      count: DemoZones - 20 * (pages - 1),
      total_count: DemoZones,
      total_pages: pages
    })
  })

  it("a page past the end is an empty success, not the last page again", async () => {
    const past = Math.ceil(DemoZones / 20) + 1
    const r = await get<List<Zone>>(`/zones?page=${past}`)
    expect(r.status).toBe(200)
    assertEnvelope(r, true)
    expect(r.body.result).toEqual([])
    expect(r.body.result_info).toMatchObject({ page: past, count: 0, total_count: DemoZones })
  })

  it("the pages together hold every zone of the fixture exactly once", async () => {
    const ids: Array<string> = []
    const names: Array<string> = []
    for (let page = 1; page <= 3; page++) {
      for (const z of (await get<List<Zone>>(`/zones?page=${page}`)).body.result) {
        ids.push(z.id)
        names.push(z.name)
      }
    }
    expect(new Set(ids).size).toBe(DemoZones)
    expect(names.sort()).toEqual(fixtureNames(() => true))
  })

  it("per_page is bounded to 5..50", async () => {
    expect((await get<List<Zone>>("/zones?per_page=5")).body.result).toHaveLength(5)
    expect((await get<List<Zone>>("/zones?per_page=50")).body.result).toHaveLength(DemoZones)
    for (const bad of [4, 51]) {
      const r = await get(`/zones?per_page=${bad}`)
      expect(r.status).toBe(400)
      expect(firstError(r).message).toMatch(new RegExp(`per_page.*\\b5\\b.*\\b50\\b.*\\b${bad}\\b`))
    }
    const nan = await get("/zones?per_page=ten")
    expect(nan.status).toBe(400)
    expect(firstError(nan).message).toContain("per_page")
  })

  it("filters names with operator prefixes, case-insensitively", async () => {
    expect(await zoneNames("name=contains:globex")).toEqual(fixtureNames((n) => n.includes("globex")))
    expect(await zoneNames("name=starts_with:acme")).toEqual(fixtureNames((n) => n.startsWith("acme")))
    expect(await zoneNames("name=ends_with:.io")).toEqual(fixtureNames((n) => n.endsWith(".io")))
    expect(await zoneNames("name=not_equal:acme.com")).toEqual(fixtureNames((n) => n !== "acme.com"))
    expect(await zoneNames("name=acme.com")).toEqual(["acme.com"])
    expect(await zoneNames("name=ACME.COM")).toEqual(["acme.com"])
    expect(await zoneNames("name=contains:GLOBEX")).toHaveLength(fixtureNames((n) => n.includes("globex")).length)
  })

  it("filters by status, account.id and account.name", async () => {
    expect(await zoneNames("status=pending")).toEqual(fixtureNames((_, z) => "status" in z && z.status === "pending"))
    const globex = (await get<List<Zone>>("/zones?name=globex.com")).body.result[0]!.account
    const byId = await get<List<Zone>>(`/zones?per_page=50&account.id=${globex.id}`)
    expect(byId.body.result.every((z) => z.account.id === globex.id)).toBe(true)
    expect(byId.body.result.map((z) => z.name).sort()).toEqual(fixtureNames((_, z) => z.account === "Globex"))
    expect(await zoneNames("account.name=Initech")).toEqual(fixtureNames((_, z) => z.account === "Initech"))
    expect(await zoneNames("account.name=contains:glob")).toEqual(fixtureNames((_, z) => z.account === "Globex"))
    const bad = await get("/zones?status=sleeping")
    expect(bad.status).toBe(400)
    expect(firstError(bad).message).toContain("status")
  })

  it("match=any joins filters with OR, the default joins them with AND", async () => {
    const moved = fixtureNames((_, z) => "status" in z && z.status === "moved")
    expect(await zoneNames("name=acme.com&status=moved&match=any")).toEqual(["acme.com", ...moved].sort())
    expect(await zoneNames("name=acme.com&status=moved")).toEqual([])
    expect(await zoneNames("name=starts_with:acme&status=moved")).toEqual(moved.filter((n) => n.startsWith("acme")))
  })

  it("orders by account.name descending, whatever the case of direction", async () => {
    const desc = (await get<List<Zone>>("/zones?per_page=50&order=account.name&direction=desc")).body.result
    const accounts = desc.map((z) => z.account.name)
    expect(accounts).toEqual([...accounts].sort().reverse())
    expect(accounts[0]).toBe("Initech")
    const upper = (await get<List<Zone>>("/zones?per_page=50&order=account.name&direction=DESC")).body.result
    expect(upper.map((z) => z.id)).toEqual(desc.map((z) => z.id))
    const asc = (await get<List<Zone>>("/zones?per_page=50&order=name&direction=asc")).body.result.map((z) => z.name)
    expect(asc).toEqual([...asc].sort())
  })

  it("rejects a bad direction, naming it", async () => {
    const r = await get("/zones?order=name&direction=sideways")
    expect(r.status).toBe(400)
    expect(firstError(r).code).toBe(1004)
    expect(firstError(r).message).toMatch(/direction.*asc.*desc.*sideways/)
  })
})

describe("GET /zones/{id}", () => {
  it("answers the zone", async () => {
    const id = await zoneId("acme.com")
    const r = await get<{ result: Zone & { name_servers: Array<string>; plan: { id: string } } }>(`/zones/${id}`)
    expect(r.status).toBe(200)
    expect(r.body.result).toMatchObject({ id, name: "acme.com", status: "active", account: { name: "Acme Corp" } })
    expect(r.body.result.name_servers.length).toBeGreaterThan(0)
    expect(r.body.result.plan.id).toMatch(/^[0-9a-f]{32}$/)
  })

  it("an unknown zone id is 404 with code 7003", async () => {
    const r = await get("/zones/0123456789abcdef0123456789abcdef")
    expect(r.status).toBe(404)
    assertEnvelope(r, false)
    expect(firstError(r).code).toBe(7003)
    expect(firstError(r).message).toContain("0123456789abcdef0123456789abcdef")
    const dns = await get("/zones/0123456789abcdef0123456789abcdef/dns_records")
    expect([dns.status, firstError(dns).code]).toEqual([404, 7003])
  })
})

describe("GET /zones/{id}/dns_records", () => {
  let acme: string
  const dns = (q = "") => get<List<Dns>>(`/zones/${acme}/dns_records${q}`)
  beforeAll(async () => {
    acme = await zoneId("acme.com")
  })

  it("pages by 100 over the 1250 records of acme.com; past the end is empty", async () => {
    const r = await dns()
    expect(r.body.result).toHaveLength(100)
    expect(r.body.result_info).toEqual({ page: 1, per_page: 100, count: 100, total_count: 1250, total_pages: 13 })
    expect((await dns("?page=13")).body.result).toHaveLength(50)
    const past = await dns("?page=14")
    expect(past.status).toBe(200)
    expect(past.body.result).toEqual([])
    const all = (await dns("?per_page=5000")).body.result
    expect(new Set(all.map((x) => x.id)).size).toBe(1250)
  })

  it("filters by type, name forms and proxied", async () => {
    const mx = await dns("?type=MX&per_page=5000")
    expect(mx.body.result.length).toBeGreaterThan(0)
    expect(mx.body.result.every((x) => x.type === "MX")).toBe(true)
    expect(mx.body.result_info.total_count).toBe(mx.body.result.length)

    const contains = (await dns("?name.contains=host-00&per_page=5000")).body.result
    expect(contains.length).toBeGreaterThan(0)
    expect(contains.every((x) => x.name.includes("host-00"))).toBe(true)
    expect(contains.length).toBeLessThan(1250)

    const exact = (await dns("?name.exact=acme.com")).body.result
    expect(exact.length).toBeGreaterThan(0)
    expect(exact.every((x) => x.name === "acme.com")).toBe(true)
    const plain = (await dns("?name=acme.com")).body.result
    expect(plain.map((x) => x.id)).toEqual(exact.map((x) => x.id))

    const proxied = (await dns("?proxied=true&per_page=5000")).body.result
    expect(proxied.length).toBeGreaterThan(0)
    expect(proxied.every((x) => x.proxied)).toBe(true)
    const both = (await dns("?type=A&proxied=false&per_page=5000")).body.result
    expect(both.every((x) => x.type === "A" && !x.proxied)).toBe(true)
  })

  it("orders by name", async () => {
    const names = (await dns("?order=name&per_page=300")).body.result.map((x) => x.name)
    expect(names).toEqual([...names].sort())
    const desc = (await dns("?order=name&direction=desc&per_page=300")).body.result.map((x) => x.name)
    expect(desc).toEqual([...desc].sort().reverse())
  })

  it("rejects an unknown type and a bad proxied, naming them", async () => {
    const r = await dns("?type=BOGUS")
    expect(r.status).toBe(400)
    expect(firstError(r).message).toMatch(/type.*BOGUS/)
    const b = await dns("?proxied=maybe")
    expect(b.status).toBe(400)
    expect(firstError(b).message).toContain("proxied")
  })
})

describe("GET /zones/{id}/ssl/certificate_packs", () => {
  it("lists active packs by default, every pack with status=all or ssl_status=all", async () => {
    for (const name of ["acme.net", "acme.jp"]) {
      const id = await zoneId(name)
      const active = (await get<List<Pack>>(`/zones/${id}/ssl/certificate_packs`)).body.result
      expect(active.every((x) => x.status === "active")).toBe(true)
      const all = (await get<List<Pack>>(`/zones/${id}/ssl/certificate_packs?status=all`)).body.result
      expect(all.length).toBeGreaterThan(active.length)
      expect(all.some((x) => x.status !== "active")).toBe(true)
      const viaSpec = (await get<List<Pack>>(`/zones/${id}/ssl/certificate_packs?ssl_status=all`)).body.result
      expect(viaSpec.map((x) => x.id)).toEqual(all.map((x) => x.id))
    }
    const bad = await get(`/zones/${await zoneId("acme.net")}/ssl/certificate_packs?status=some`)
    expect(bad.status).toBe(400)
    expect(firstError(bad).message).toContain("status")
  })
})

describe("accounts, memberships and invites (read)", () => {
  it("lists the user's accounts, memberships and pending invites", async () => {
    const accounts = await get<List<{ name: string }>>("/accounts")
    expect(accounts.body.result.map((a) => a.name)).toEqual(["Acme Corp", "Globex", "Initech"])
    expect(accounts.body.result_info.total_count).toBe(3)
    const memberships = await get<List<{ status: string; account: { name: string } }>>("/memberships")
    expect(memberships.body.result.map((m) => [m.account.name, m.status])).toEqual([
      ["Acme Corp", "accepted"],
      ["Globex", "accepted"],
      ["Initech", "accepted"]
    ])
    const invites = await get<{ result: Array<{ organization_name: string; status: string }> }>("/user/invites")
    expect(invites.body.result.map((i) => i.organization_name).sort()).toEqual(
      World.invites.map((i) => i.account).sort()
    )
    expect(invites.body.result.every((i) => i.status === "pending")).toBe(true)
  })
})

describe("routing errors", () => {
  it("an unknown route is 404 with code 7000, with or without credentials", async () => {
    for (const token of [World.allToken, null]) {
      const r = await get("/no/such/thing", { token })
      expect(r.status).toBe(404)
      assertEnvelope(r, false)
      expect(firstError(r).code).toBe(7000)
    }
    const method = await get("/zones", { method: "DELETE" })
    expect([method.status, firstError(method).code]).toEqual([404, 7000])
  })
})

describe("PATCH /user/invites/{id} (own store)", () => {
  let q: Platform
  const call = <A = any>(path: string, o?: Parameters<typeof request>[2]) => request<A>(q.baseUrl, path, o)
  let invites: Array<{ id: string; organization_name: string; organization_id: string }>
  beforeAll(async () => {
    q = await startPlatform()
    invites = (await call("/user/invites")).body.result
  })
  afterAll(async () => {
    await q?.close()
  })
  const inviteOf = (account: string) => invites.find((i) => i.organization_name === account)!

  it("rejects a bad status value, a malformed body and an unknown invite", async () => {
    const id = inviteOf("Umbrella Partners").id
    const bad = await call(`/user/invites/${id}`, { method: "PATCH", body: { status: "maybe" } })
    expect(bad.status).toBe(400)
    assertEnvelope(bad, false)
    expect(firstError(bad).message).toMatch(/status.*maybe/)
    const malformed = await call(`/user/invites/${id}`, { method: "PATCH", body: "{not json" })
    expect(malformed.status).toBe(400)
    assertEnvelope(malformed, false)
    const missing = await call(`/user/invites/${id}`, { method: "PATCH", body: {} })
    expect(missing.status).toBe(400)
    const unknown = await call("/user/invites/00000000000000000000000000000000", {
      method: "PATCH",
      body: { status: "accepted" }
    })
    expect([unknown.status, firstError(unknown).code]).toEqual([404, 7003])
    expect((await call(`/user/invites/${id}`)).body.result.status).toBe("pending")
  })

  it("accepting makes the user a member: the account and its zones appear for the key and the token", async () => {
    const before = await call<List<{ name: string }>>("/accounts", { token: null, headers: keyAuth })
    expect(before.status).toBe(200)
    expect(before.body.result.map((a) => a.name)).not.toContain("Umbrella Partners")
    const umbrella = inviteOf("Umbrella Partners")
    const r = await call(`/user/invites/${umbrella.id}`, { method: "PATCH", body: { status: "accepted" } })
    expect(r.status).toBe(200)
    assertEnvelope(r, true)
    expect(r.body.result).toMatchObject({
      id: umbrella.id,
      status: "accepted",
      organization_id: umbrella.organization_id
    })
    const after = await call<List<{ id: string; name: string }>>("/accounts", { token: null, headers: keyAuth })
    expect(after.body.result.map((a) => a.name)).toEqual(["Acme Corp", "Globex", "Initech", "Umbrella Partners"])
    const zones = await call<List<Zone>>(`/zones?account.id=${umbrella.organization_id}`, {
      token: null,
      headers: keyAuth
    })
    expect(zones.body.result.map((z) => z.name)).toEqual(["umbrella-partners.com"])
    expect((await call<List<Zone>>("/zones")).body.result_info.total_count).toBe(47)
    expect((await call(`/user/invites/${umbrella.id}`)).body.result.status).toBe("accepted")
  })

  it("an invite already answered cannot be answered again", async () => {
    const umbrella = inviteOf("Umbrella Partners")
    const again = await call(`/user/invites/${umbrella.id}`, { method: "PATCH", body: { status: "rejected" } })
    expect(again.status).toBe(400)
    assertEnvelope(again, false)
    expect(firstError(again).message).toContain("accepted")
    expect((await call(`/user/invites/${umbrella.id}`)).body.result.status).toBe("accepted")
  })

  it("rejecting leaves the accounts unchanged", async () => {
    const hooli = inviteOf("Hooli Labs")
    const r = await call(`/user/invites/${hooli.id}`, { method: "PATCH", body: { status: "rejected" } })
    expect([r.status, r.body.result.status]).toEqual([200, "rejected"])
    const accounts = await call<List<{ name: string }>>("/accounts", { token: null, headers: keyAuth })
    expect(accounts.body.result.map((a) => a.name)).not.toContain("Hooli Labs")
    const again = await call(`/user/invites/${hooli.id}`, { method: "PATCH", body: { status: "accepted" } })
    expect(again.status).toBe(400)
  })

  it("the answers persist in the SQLite store across a restart, which does not seed again", async () => {
    await q.close()
    q = await startPlatform(q.stateDir)
    const statuses = (await call<{ result: Array<{ organization_name: string; status: string }> }>("/user/invites"))
      .body.result
    expect(Object.fromEntries(statuses.map((i) => [i.organization_name, i.status]))).toEqual({
      "Umbrella Partners": "accepted",
      "Hooli Labs": "rejected"
    })
    expect((await call<List<Zone>>("/zones")).body.result_info.total_count).toBe(47)
  })
})
