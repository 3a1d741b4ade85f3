/**
 * The local platform against the platform's published OpenAPI document (fixtures/openapi/): every
 * operation of the document is called on the real embedded server with a valid request, and its
 * answer validated against the documented schema for its status; a few invalid requests per area are
 * validated against the documented failure envelope. Where the document contradicts the platform's
 * documentation, the case names the correction it follows (helpers/openapi.ts `Documented`) and the
 * published document is checked to really reject that answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PREVIOUS_CLOUDFLARE_PACKAGE, PREVIOUS_OWASP_PACKAGE } from "../../src/waf/catalog.js"
import { StructuredCases } from "../helpers/dns-cases.js"
import { asDocumented, asPublished, explain, operations, type Documented, type Method } from "../helpers/openapi.js"
import { request, startPlatform, World, type Platform } from "../helpers/platform.js"

let p: Platform
const covered = new Set<string>()
const ids = new Map<string, string>()
const zone = (name: string) => ids.get(name)!

interface Call {
  readonly query?: string
  readonly body?: unknown
  /** A raw body sent as is (multipart forms, bytes). */
  readonly raw?: BodyInit
  readonly token?: string | null
  /** The corrections of the document this answer relies on (see helpers/openapi.ts). */
  readonly documented?: ReadonlyArray<Documented>
}

/**
 * Calls `method template` with `values` filled into the template and checks the answer: the status
 * expected, the documented schema for it (with the named corrections), and that the published
 * document rejects the answer exactly when a correction is named.
 */
const check = async (method: Method, template: string, values: ReadonlyArray<string>, status: number, c: Call = {}) => {
  let i = 0
  const path = template.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[i++]!))
  const url = `${path}${c.query ? `?${c.query}` : ""}`
  let body: any
  let got: number
  if (c.raw !== undefined) {
    const r = await fetch(p.baseUrl + url, {
      method: method.toUpperCase(),
      headers: { authorization: `Bearer ${World.allToken}` },
      body: c.raw
    })
    got = r.status
    body = JSON.parse(await r.text())
  } else {
    const r = await request(p.baseUrl, url, {
      method: method.toUpperCase(),
      ...(c.body !== undefined ? { body: c.body } : {}),
      ...(c.token !== undefined ? { token: c.token } : {})
    })
    got = r.status
    body = r.body
  }
  const what = `${method.toUpperCase()} ${url}`
  expect(got, `${what}: ${JSON.stringify(body).slice(0, 300)}`).toBe(status)
  const documented = asDocumented(method, template, status)
  expect(
    documented(body),
    `${what} against the document (${explain(documented)}): ${JSON.stringify(body).slice(0, 400)}`
  ).toBe(true)
  const published = asPublished(method, template, status)
  const passes = published(body)
  if (c.documented && c.documented.length > 0) {
    expect(
      passes,
      `${what} follows ${c.documented.join(", ")} but the published document accepts it: the correction is stale`
    ).toBe(false)
  } else {
    expect(passes, `${what} against the published document: ${explain(published)}`).toBe(true)
  }
  if (status < 300) covered.add(`${method.toUpperCase()} ${template}`)
  return body
}

beforeAll(async () => {
  p = await startPlatform()
  for (let page = 1; page <= 3; page++) {
    for (const z of (await request(p.baseUrl, `/zones?per_page=50&page=${page}`)).body.result) ids.set(z.name, z.id)
  }
})
afterAll(async () => {
  await p?.close()
})

describe("zones, DNS records, certificate packs", () => {
  it("valid requests", async () => {
    await check("get", "/zones", [], 200, { query: "per_page=50", documented: ["zoneOwnerNullable"] })
    await check("get", "/zones/{zone_id}", [zone("acme.com")], 200, { documented: ["zoneOwnerNullable"] })
    await check("get", "/zones/{zone_id}/dns_records", [zone("acme.com")], 200, {
      query: "per_page=5000",
      documented: ["dnsCommentNullable"]
    })
    await check("get", "/zones/{zone_id}/ssl/certificate_packs", [zone("acme.com")], 200, { query: "status=all" })
  })
  it("records of every structured type, created with data, list as the document's record union", async () => {
    const z = zone("initech.net")
    for (const c of StructuredCases) {
      const r = await request(p.baseUrl, `/zones/${z}/dns_records`, {
        method: "POST",
        body: {
          type: c.type,
          name: `contract-${c.type.toLowerCase()}`,
          data: c.data,
          ...(c.type === "URI" ? { priority: c.priority } : {})
        }
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
    }
    const listed = await check("get", "/zones/{zone_id}/dns_records", [z], 200, {
      query: "name.startswith=contract-&per_page=100",
      documented: ["dnsCommentNullable"]
    })
    expect(listed.result.map((r: any) => r.type).sort()).toEqual(StructuredCases.map((c) => c.type).sort())
  })
  it("invalid requests answer the failure envelope", async () => {
    await check("get", "/zones", [], 400, { query: "per_page=4" })
    await check("get", "/zones/{zone_id}", ["0".repeat(32)], 404)
    await check("get", "/zones/{zone_id}/dns_records", [zone("acme.com")], 400, { query: "type=BOGUS" })
    await check("get", "/zones/{zone_id}/ssl/certificate_packs", ["f".repeat(32)], 404)
  })
})

describe("accounts, memberships, the user", () => {
  it("valid requests", async () => {
    const accounts = await check("get", "/accounts", [], 200)
    await check("get", "/accounts/{account_id}", [accounts.result[0].id], 200)
    await check("get", "/memberships", [], 200, { documented: ["overlappingOneOf"] })
    await check("get", "/user/tokens/verify", [], 200)
    const invites = await check("get", "/user/invites", [], 200, { documented: ["inviteRolesByName"] })
    const invite = invites.result[0].id
    // The single invite's result is untyped in the document: the reference's shape applies there.
    await check("get", "/user/invites/{invite_id}", [invite], 200)
    await check("patch", "/user/invites/{invite_id}", [invite], 200, { body: { status: "rejected" } })
  })
  it("invalid requests answer the failure envelope", async () => {
    await check("get", "/accounts/{account_id}", ["0".repeat(32)], 404)
    await check("get", "/memberships", [], 400, { query: "status=maybe" })
    await check("get", "/user/tokens/verify", [], 403, { token: "not-a-token-of-this-platform-000000000000" })
    await check("patch", "/user/invites/{invite_id}", ["0".repeat(32)], 404, { body: { status: "accepted" } })
  })
})

describe("firewall filters and rules", () => {
  const F = "/zones/{zone_identifier}/filters"
  const R = "/zones/{zone_identifier}/firewall/rules"
  it("filters: valid requests", async () => {
    const z = zone("acme.com")
    await check("get", F, [z], 200)
    const created = await check("post", F, [z], 200, {
      body: [
        { expression: 'http.request.uri.path eq "/contract-a"' },
        { expression: 'http.request.uri.path eq "/contract-b"', description: "b" }
      ]
    })
    const [a, b] = created.result
    await check("get", `${F}/{id}`, [z, a.id], 200)
    await check("put", F, [z], 200, {
      body: [{ id: a.id, expression: 'http.request.uri.path eq "/contract-a2"', paused: true }]
    })
    await check("put", `${F}/{id}`, [z, b.id], 200, {
      body: { id: b.id, expression: 'http.request.uri.path eq "/contract-b2"' }
    })
    await check("delete", `${F}/{id}`, [z, a.id], 200, { documented: ["singleDeleteIsArray"] })
    await check("delete", F, [z], 200, { query: `id=${b.id}` })
  })
  it("rules: valid requests", async () => {
    const z = zone("acme.com")
    // The demo's rules include some without priority.
    await check("get", R, [z], 200, { documented: ["rulePriorityNullable"] })
    // Bodies are arrays and `action` a string, as the platform's documentation sends them (the
    // document has a single object and types the request's action as an object).
    const created = await check("post", R, [z], 200, {
      body: [
        { filter: { expression: "ip.src eq 198.51.100.7" }, action: "block", description: "contract one" },
        { filter: { expression: "ip.src eq 198.51.100.8" }, action: "challenge", priority: 10 }
      ],
      documented: ["rulePriorityNullable"]
    })
    const [one, two] = created.result
    await check("get", `${R}/{id}`, [z, one.id], 200, { documented: ["rulePriorityNullable"] })
    await check("put", R, [z], 200, {
      body: [{ id: one.id, action: "log", filter: one.filter }],
      documented: ["rulePriorityNullable"]
    })
    await check("put", `${R}/{id}`, [z, two.id], 200, {
      body: { id: two.id, action: "allow", filter: two.filter, priority: 10 }
    })
    await check("patch", R, [z], 200, { body: [{ id: one.id, priority: 20 }] })
    await check("patch", `${R}/{id}`, [z, two.id], 200, { body: { id: two.id, priority: 30 } })
    await check("delete", `${R}/{id}`, [z, one.id], 200, {
      body: { delete_filter_if_unused: true },
      documented: ["singleDeleteIsArray"]
    })
    await check("delete", R, [z], 200, { query: `id=${two.id}` })
  })
  it("invalid requests answer the failure envelope", async () => {
    const z = zone("acme.com")
    await check("post", F, [z], 400, { body: [{ expression: "http.request.uri.pth eq 1" }] })
    await check("get", `${F}/{id}`, [z, "0".repeat(32)], 404)
    await check("post", R, [z], 400, { body: [{ action: "block" }] })
    await check("patch", R, [z], 400, { body: [{ id: "0".repeat(32) }] })
  })
})

describe("KV", () => {
  const NS = "/accounts/{account_id}/storage/kv/namespaces"
  let account = ""
  beforeAll(async () => {
    account = (await request(p.baseUrl, "/accounts")).body.result[0].id
  })
  it("valid requests", async () => {
    await check("get", NS, [account], 200)
    const ns = (await check("post", NS, [account], 200, { body: { title: "contract-ns" } })).result.id
    await check("get", `${NS}/{namespace_id}`, [account, ns], 200)
    await check("put", `${NS}/{namespace_id}`, [account, ns], 200, { body: { title: "contract-ns-renamed" } })
    const form = new FormData()
    form.set("value", "hello")
    form.set("metadata", JSON.stringify({ kind: "greeting" }))
    await check("put", `${NS}/{namespace_id}/values/{key_name}`, [account, ns, "greeting"], 200, { raw: form })
    const value = await fetch(`${p.baseUrl}/accounts/${account}/storage/kv/namespaces/${ns}/values/greeting`, {
      headers: { authorization: `Bearer ${World.allToken}` }
    })
    expect(value.status).toBe(200)
    // The value is the stored bytes, not an envelope: the document's schema for it is a string.
    const text = await value.text()
    expect(asPublished("get", `${NS}/{namespace_id}/values/{key_name}`, 200)(text)).toBe(true)
    expect(text).toBe("hello")
    covered.add(`GET ${NS}/{namespace_id}/values/{key_name}`)
    await check("get", `${NS}/{namespace_id}/metadata/{key_name}`, [account, ns, "greeting"], 200)
    await check("get", `${NS}/{namespace_id}/keys`, [account, ns], 200)
    await check("put", `${NS}/{namespace_id}/bulk`, [account, ns], 200, {
      body: [
        { key: "a", value: "1" },
        { key: "b", value: "2" },
        { key: "c", value: "3" }
      ]
    })
    await check("delete", `${NS}/{namespace_id}/bulk`, [account, ns], 200, { body: ["a"] })
    await check("post", `${NS}/{namespace_id}/bulk/delete`, [account, ns], 200, { body: ["b"] })
    await check("delete", `${NS}/{namespace_id}/values/{key_name}`, [account, ns, "c"], 200)
    await check("delete", `${NS}/{namespace_id}`, [account, ns], 200)
  })
  it("invalid requests answer the failure envelope", async () => {
    await check("post", NS, [account], 400, { body: { title: "t".repeat(513) } })
    await check("get", `${NS}/{namespace_id}`, [account, "0".repeat(32)], 404)
    await check("get", `${NS}/{namespace_id}/keys`, [account, "0".repeat(32)], 404)
  })
})

describe("previous WAF, zone settings, page rules, the managed-phase entry point", () => {
  const PK = "/zones/{zone_identifier}/firewall/waf/packages"
  const G = "/zones/{zone_id}/firewall/waf/packages/{package_id}/groups"
  const WR = "/zones/{zone_id}/firewall/waf/packages/{package_id}/rules"
  const O = "/zones/{zone_identifier}/firewall/waf/overrides"
  const EP = "/zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint"
  it("valid requests", async () => {
    const z = zone("initech.net")
    await check("get", PK, [z], 200)
    await check("get", `${PK}/{identifier}`, [z, PREVIOUS_OWASP_PACKAGE], 200, { documented: ["overlappingOneOf"] })
    await check("patch", `${PK}/{identifier}`, [z, PREVIOUS_OWASP_PACKAGE], 200, {
      body: { sensitivity: "low", action_mode: "simulate" },
      documented: ["overlappingOneOf"]
    })
    const groups = await check("get", G, [z, PREVIOUS_CLOUDFLARE_PACKAGE], 200)
    const group = groups.result[0].id
    await check("get", `${G}/{group_id}`, [z, PREVIOUS_CLOUDFLARE_PACKAGE, group], 200)
    await check("patch", `${G}/{group_id}`, [z, PREVIOUS_CLOUDFLARE_PACKAGE, group], 200, { body: { mode: "off" } })
    await check("get", WR, [z, PREVIOUS_CLOUDFLARE_PACKAGE], 200)
    await check("get", `${WR}/{rule_id}`, [z, PREVIOUS_CLOUDFLARE_PACKAGE, "100000"], 200)
    await check("patch", `${WR}/{rule_id}`, [z, PREVIOUS_CLOUDFLARE_PACKAGE, "100000"], 200, {
      body: { mode: "simulate" }
    })
    const mobile = zone("initech-mobile.com")
    await check("get", O, [mobile], 200)
    const id = (
      await check("post", O, [mobile], 200, {
        body: { urls: ["initech-mobile.com/contract/*"], rules: { "100015": "disable" } }
      })
    ).result.id
    await check("get", `${O}/{id}`, [mobile, id], 200)
    await check("put", `${O}/{id}`, [mobile, id], 200, {
      body: {
        id,
        urls: ["initech-mobile.com/v2/*"],
        rules: { "100015": "simulate" },
        rewrite_action: { block: "simulate" }
      }
    })
    await check("delete", `${O}/{id}`, [mobile, id], 200)
    await check("get", "/zones/{zone_id}/settings/{setting_id}", [z, "waf"], 200)
    await check("patch", "/zones/{zone_id}/settings/{setting_id}", [z, "waf"], 200, { body: { value: "on" } })
    await check("get", "/zones/{zone_id}/pagerules", [zone("acme.com")], 200)
    const shop = zone("acme-shop.com")
    const config = (await request(p.baseUrl, `/zones/${shop}/waf_migration/config?phase_two=1`)).body.result
    await check("put", EP, [shop, "http_request_firewall_managed"], 200, {
      query: "waf_migration=pending&phase_two=1",
      body: config
    })
    await check("get", EP, [shop, "http_request_firewall_managed"], 200)
  })
  it("invalid requests answer the failure envelope", async () => {
    const z = zone("initech.net")
    await check("patch", `${PK}/{identifier}`, [z, PREVIOUS_OWASP_PACKAGE], 400, { body: { sensitivity: "extreme" } })
    await check("patch", `${WR}/{rule_id}`, [z, PREVIOUS_OWASP_PACKAGE, "950001"], 400, { body: { mode: "block" } })
    await check("post", O, [z], 400, { body: { urls: ["x/*"], rules: { nope: "block" } } })
    await check("get", EP, [zone("globex.com"), "http_request_firewall_managed"], 404)
    await check("patch", "/zones/{zone_id}/settings/{setting_id}", [z, "waf"], 400, { body: { value: "sometimes" } })
    // A setting the platform has and the local platform does not serve: the platform's "no route".
    const unserved = await check("get", "/zones/{zone_id}/settings/{setting_id}", [z, "ssl"], 404)
    expect(unserved.errors[0].code).toBe(7000)
  })
})

describe("the custom-phase entry point (the document's phase operations, issue 21)", () => {
  const EP = "/zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint"
  const PHASE = "http_request_firewall_custom"
  it("valid requests", async () => {
    const z = zone("initech.net")
    await check("put", EP, [z, PHASE], 200, {
      body: {
        name: "default",
        rules: [
          {
            action: "skip",
            expression: "ip.src in {192.0.2.0/24}",
            action_parameters: { ruleset: "current", products: ["waf"] },
            logging: { enabled: true },
            ref: "office"
          },
          {
            action: "block",
            expression: 'http.request.uri.path contains "/admin"',
            action_parameters: { response: { status_code: 403, content: "no", content_type: "text/plain" } },
            description: "admin"
          },
          { action: "managed_challenge", expression: "true", enabled: false }
        ]
      },
      documented: ["ruleActionWithUnderscore"]
    })
    await check("get", EP, [z, PHASE], 200, { documented: ["ruleActionWithUnderscore"] })
  })
  it("invalid requests answer the failure envelope", async () => {
    const z = zone("initech.net")
    await check("get", EP, [zone("globex.com"), PHASE], 404)
    await check("put", EP, [z, PHASE], 400, { body: { rules: [{ action: "block", expression: "http.host eq" }] } })
    await check("put", EP, [z, PHASE], 400, { body: { rules: [{ action: "skip", expression: "true" }] } })
  })
})

describe("coverage", () => {
  it("every operation of the document was called with a valid request", () => {
    expect(operations().filter((op) => !covered.has(op))).toEqual([])
  })
})
