/**
 * Area C over a real socket: the filters and firewall-rules endpoints, every bad body, the spec's
 * creation table (combined call valid / invalid / over quota), the refused filter change through
 * the rules route, duplicates, paging and deletes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hexId } from "../../src/domain/ids.js"
import {
  assertEnvelope,
  firstError,
  request,
  startPlatform,
  type Answer,
  type Platform,
  type RequestOptions
} from "../helpers/platform.js"

let p: Platform
const call = <A = any>(path: string, o?: RequestOptions) => request<A>(p.baseUrl, path, o)

beforeAll(async () => {
  p = await startPlatform()
})
afterAll(async () => {
  await p?.close()
})

const ok = (a: Answer) => {
  expect(a.status, JSON.stringify(a.body)).toBe(200)
  return assertEnvelope(a, true).result as any
}
const failed = (a: Answer, status: number, code: number) => {
  expect(a.status, JSON.stringify(a.body)).toBe(status)
  assertEnvelope(a, false)
  const e = firstError(a) as { code: number; message: string; meta?: any }
  expect(e.code).toBe(code)
  return e
}

const zone = (name: string) => `/zones/${hexId("zone", name)}`
const filtersOf = (z: string) => `${zone(z)}/filters`
const rulesOf = (z: string) => `${zone(z)}/firewall/rules`
const post = (path: string, body: unknown) => call(path, { method: "POST", body })
const put = (path: string, body: unknown) => call(path, { method: "PUT", body })
const count = async (path: string) => (await call(`${path}?per_page=100`)).body.result_info.total_count as number

describe("filters", () => {
  const F = filtersOf("acme.io")

  it("creates an array of filters (paused false, description kept) and lists them with paging", async () => {
    const created = ok(
      await post(F, [
        { expression: "ip.src eq 93.184.216.0" },
        { expression: 'http.request.uri.path matches "^/api/.*$"', description: "/api" }
      ])
    )
    expect(created).toHaveLength(2)
    expect(created[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      paused: false,
      expression: "ip.src eq 93.184.216.0"
    })
    expect(created[1]).toMatchObject({ description: "/api", paused: false })
    const list = await call(`${F}?per_page=5`)
    expect(ok(list).map((f: any) => f.id)).toEqual(created.map((f: any) => f.id))
    expect(list.body.result_info).toEqual({ page: 1, per_page: 5, count: 2, total_count: 2, total_pages: 1 })
    expect(ok(await call(`${F}?page=2&per_page=5`))).toEqual([])
    expect(ok(await call(`${F}?description=API`)).map((f: any) => f.id)).toEqual([created[1].id])
    expect(ok(await call(`${F}/${created[0].id}`))).toEqual(created[0])
  })

  it("answers an invalid expression with 400, the platform's text and the diagnostics, and creates nothing", async () => {
    const before = await count(F)
    const e = failed(
      await post(F, [{ expression: 'http.host eq "ok.example"' }, { expression: "ip.src==34" }]),
      400,
      10110
    )
    expect(e.message).toContain("Filter parsing error")
    expect(e.message).toContain("[1].expression")
    expect(e.meta.diagnostics[0]).toMatchObject({ severity: "error", range: { start: 8 } })
    expect(e.meta.index).toBe(1)
    expect(await count(F)).toBe(before)
  })

  it("answers a duplicate expression with 10102 and the existing filter's id", async () => {
    const [f] = ok(await post(F, [{ expression: 'http.host eq "dup.example"' }]))
    const e = failed(await post(F, [{ expression: 'http.host eq "dup.example"' }]), 400, 10102)
    expect(e.message).toContain("config duplicates an already existing config")
    expect(e.meta).toEqual({ id: f.id })
    failed(
      await post(F, [{ expression: 'http.host eq "x.example"' }, { expression: 'http.host eq "x.example"' }]),
      400,
      1004
    )
  })

  it.each([
    ["not an array", { expression: "ssl" }, "body must be a JSON array of filters"],
    ["an empty array", [], "non-empty JSON array"],
    ["an element that is not an object", ["ssl"], "[0].element must be an object"],
    ["no expression", [{ description: "x" }], "[0].expression is required"],
    ["an empty expression", [{ expression: "  " }], "[0].expression must not be empty"],
    ["a number expression", [{ expression: 42 }], "[0].expression must be a string, got number 42"],
    ["paused not a boolean", [{ expression: "ssl", paused: "yes" }], "[0].paused must be true or false"],
    [
      "a 501-character description",
      [{ expression: "ssl", description: "d".repeat(501) }],
      "[0].description must be at most 500 characters, got 501"
    ],
    [
      "a 51-character ref",
      [{ expression: "ssl", ref: "r".repeat(51) }],
      "[0].ref must be at most 50 characters, got 51"
    ]
  ])("refuses a body with %s (400 naming the field)", async (_, body, text) => {
    const e = failed(await post(F, body), 400, 1004)
    expect(e.message).toContain(text)
  })

  it("refuses a body that is not JSON", async () => {
    failed(await call(F, { method: "POST", body: "[{", headers: { "content-type": "application/json" } }), 400, 1004)
  })

  it("updates one filter and several in one transaction (all must exist); swapping expressions works", async () => {
    const [a, b] = ok(
      await post(F, [{ expression: 'http.host eq "a.example"' }, { expression: 'http.host eq "b.example"' }])
    )
    const one = ok(
      await put(`${F}/${a.id}`, { id: a.id, expression: 'http.host eq "a2.example"', paused: true, description: "A" })
    )
    expect(one).toEqual({ id: a.id, paused: true, expression: 'http.host eq "a2.example"', description: "A" })
    const both = ok(
      await put(F, [
        { id: a.id, expression: b.expression },
        { id: b.id, expression: one.expression }
      ])
    )
    expect(both.map((f: any) => f.expression)).toEqual([b.expression, one.expression])
    const e = failed(
      await put(F, [
        { id: a.id, expression: "ssl" },
        { id: "0".repeat(32), expression: "not ssl" }
      ]),
      400,
      1004
    )
    expect(e.message).toContain("[1].id: no filter")
    expect(ok(await call(`${F}/${a.id}`)).expression).toBe(b.expression)
    failed(await put(`${F}/${"0".repeat(32)}`, { expression: "ssl" }), 404, 7003)
    failed(await put(`${F}/${a.id}`, { id: b.id, expression: "ssl" }), 400, 1004)
    failed(await put(`${F}/${a.id}`, { expression: "http.host eq" }), 400, 10110)
  })

  it("deletes one (array of one id) and several by ?id= (unknown ids ignored)", async () => {
    const [a, b, c] = ok(
      await post(F, [
        { expression: 'http.host eq "d1.example"' },
        { expression: 'http.host eq "d2.example"' },
        { expression: 'http.host eq "d3.example"' }
      ])
    )
    expect(ok(await call(`${F}/${a.id}`, { method: "DELETE" }))).toEqual([{ id: a.id }])
    failed(await call(`${F}/${a.id}`, { method: "DELETE" }), 404, 7003)
    expect(ok(await call(`${F}?id=${b.id}&id=${c.id}&id=${"f".repeat(32)}`, { method: "DELETE" }))).toEqual([
      { id: b.id },
      { id: c.id }
    ])
    expect(ok(await call(F, { method: "DELETE" }))).toEqual([])
  })

  it("answers 404 for a zone the caller cannot see and for an unknown filter", async () => {
    failed(await call(`/zones/${"0".repeat(32)}/filters`), 404, 7003)
    failed(await call(`${F}/${"0".repeat(32)}`), 404, 7003)
  })
})

describe("firewall rules", () => {
  const R = rulesOf("acme.dev")
  const F = filtersOf("acme.dev")

  it("two-step flow: a filter, then a rule referencing it (priority null, paused false)", async () => {
    const [f] = ok(await post(F, [{ expression: 'http.request.uri.path eq "/login"', description: "Login" }]))
    const [r] = ok(await post(R, [{ filter: { id: f.id }, action: "challenge", description: "Challenge login" }]))
    expect(r).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      paused: false,
      description: "Challenge login",
      action: "challenge",
      priority: null,
      filter: { id: f.id, paused: false, expression: 'http.request.uri.path eq "/login"', description: "Login" }
    })
    expect(ok(await call(`${R}/${r.id}`))).toEqual(r)
  })

  it("combined call: filter and rule created together; the SDK's single object is accepted too", async () => {
    const created = ok(
      await post(R, [{ filter: { expression: 'http.user_agent contains "curl"' }, action: "block", priority: 3 }])
    )
    expect(created[0]).toMatchObject({
      action: "block",
      priority: 3,
      filter: { expression: 'http.user_agent contains "curl"', paused: false }
    })
    const filter = ok(await call(`${F}/${created[0].filter.id}`))
    expect(filter.expression).toBe('http.user_agent contains "curl"')
    const single = ok(await post(R, { filter: { expression: 'http.user_agent contains "wget"' }, action: "log" }))
    expect(single).toHaveLength(1)
  })

  it.each(["block", "challenge", "js_challenge", "managed_challenge", "allow", "log"])(
    "accepts action %s",
    async (action) => {
      ok(await post(R, [{ filter: { expression: `http.request.uri.path eq "/${action}"` }, action }]))
    }
  )

  it("accepts bypass with products, and refuses bypass without them or products on another action", async () => {
    const [r] = ok(
      await post(R, [
        { filter: { expression: 'http.request.uri.path eq "/upload"' }, action: "bypass", products: ["waf", "uaBlock"] }
      ])
    )
    expect(r.products).toEqual(["waf", "uaBlock"])
    expect(failed(await post(R, [{ filter: { expression: "ssl" }, action: "bypass" }]), 400, 1004).message).toContain(
      "[0].products is required with action bypass"
    )
    expect(
      failed(await post(R, [{ filter: { expression: "ssl" }, action: "block", products: ["waf"] }]), 400, 1004).message
    ).toContain("only allowed with action bypass")
    expect(
      failed(await post(R, [{ filter: { expression: "ssl" }, action: "bypass", products: ["nope"] }]), 400, 1004)
        .message
    ).toContain("must contain only")
  })

  it.each([
    ["a string body", '"x"', "body must be a JSON array of rules"],
    ["no action", [{ filter: { expression: "ssl" } }], "[0].action is required"],
    [
      "an unknown action",
      [{ filter: { expression: "ssl" }, action: "deny" }],
      '[0].action must be one of block, challenge, js_challenge, managed_challenge, allow, log, bypass, got string "deny"'
    ],
    ["no filter", [{ action: "block" }], "[0].filter is required"],
    ["a filter that is a string", [{ action: "block", filter: "ssl" }], "[0].filter must be an object"],
    ["a filter without id or expression", [{ action: "block", filter: {} }], "[0].filter.expression is required"],
    [
      "a negative priority",
      [{ filter: { expression: "ssl" }, action: "block", priority: -1 }],
      "[0].priority must be an integer between 0 and 2147483647 or null"
    ],
    [
      "a fractional priority",
      [{ filter: { expression: "ssl" }, action: "block", priority: 1.5 }],
      "[0].priority must be an integer"
    ],
    [
      "a string priority",
      [{ filter: { expression: "ssl" }, action: "block", priority: "1" }],
      "[0].priority must be an integer"
    ],
    [
      "paused not a boolean",
      [{ filter: { expression: "ssl" }, action: "block", paused: 1 }],
      "[0].paused must be true or false"
    ],
    [
      "a long description",
      [{ filter: { expression: "ssl" }, action: "block", description: "d".repeat(501) }],
      "[0].description must be at most 500 characters, got 501"
    ],
    [
      "an unknown filter id",
      [{ filter: { id: "0".repeat(32) }, action: "block" }],
      `[0].filter.id: no filter ${"0".repeat(32)} in this zone`
    ]
  ])("refuses a rule body with %s (400, nothing created)", async (_, body, text) => {
    const before = [await count(R), await count(F)]
    const e = failed(await post(R, body), 400, 1004)
    expect(e.message).toContain(text)
    expect([await count(R), await count(F)]).toEqual(before)
  })

  it("combined call is atomic: one invalid element among several creates neither filters nor rules", async () => {
    const before = [await count(R), await count(F)]
    const body = [
      { filter: { expression: 'http.host eq "atomic-1.example"' }, action: "block" },
      { filter: { expression: 'http.host eq "atomic-2.example"' }, action: "allow" },
      { filter: { expression: 'http.host eq "atomic-3.example"' }, action: "nope" }
    ]
    failed(await post(R, body), 400, 1004)
    const bad = [...body.slice(0, 2), { filter: { expression: "http.hots eq 1" }, action: "block" }]
    const e = failed(await post(R, bad), 400, 10110)
    expect(e.message).toContain("[2].filter.expression")
    expect(e.meta.diagnostics[0].code).toBeTruthy()
    expect([await count(R), await count(F)]).toEqual(before)
    expect(ok(await call(`${F}?expression=atomic`))).toEqual([])
  })

  it("a combined call with an existing expression answers the duplicate error naming the filter", async () => {
    const [f] = ok(await post(F, [{ expression: 'http.host eq "shared-by-two.example"' }]))
    const e = failed(
      await post(R, [{ filter: { expression: 'http.host eq "shared-by-two.example"' }, action: "block" }]),
      400,
      10102
    )
    expect(e.meta.id).toBe(f.id)
  })

  it("refuses a filter change through the rules route; the filter is unchanged", async () => {
    const [r] = ok(await post(R, [{ filter: { expression: 'http.host eq "route.example"' }, action: "block" }]))
    const e = failed(
      await put(`${R}/${r.id}`, {
        id: r.id,
        action: "block",
        filter: { id: r.filter.id, expression: 'http.host eq "changed.example"' }
      }),
      400,
      1004
    )
    expect(e.message).toContain("filter.expression: a filter cannot be changed through the firewall rules route")
    expect(e.message).toContain(`/filters/${r.filter.id}`)
    failed(await put(R, [{ id: r.id, action: "block", filter: { id: r.filter.id, paused: true } }]), 400, 1004)
    failed(await post(R, [{ filter: { id: r.filter.id, expression: "ssl" }, action: "log" }]), 400, 1004)
    expect(ok(await call(`${F}/${r.filter.id}`)).expression).toBe('http.host eq "route.example"')
    // Sending the filter as read is not a change.
    const same = ok(await put(`${R}/${r.id}`, { ...r, action: "managed_challenge" }))
    expect(same).toMatchObject({ action: "managed_challenge", filter: r.filter })
  })

  it("PUT erases omitted fields; PATCH changes priorities; bulk PUT needs every id", async () => {
    const [r] = ok(
      await post(R, [
        {
          filter: { expression: 'http.host eq "put.example"' },
          action: "block",
          priority: 7,
          description: "d",
          paused: true
        }
      ])
    )
    const u = ok(await put(`${R}/${r.id}`, { action: "allow", filter: { id: r.filter.id } }))
    expect(u).toEqual({ id: r.id, paused: false, action: "allow", priority: null, filter: r.filter })
    expect(ok(await call(R, { method: "PATCH", body: [{ id: r.id, priority: 42 }] }))[0].priority).toBe(42)
    expect(ok(await call(`${R}/${r.id}`, { method: "PATCH", body: { priority: 5 } }))[0].priority).toBe(5)
    failed(await call(R, { method: "PATCH", body: [{ id: r.id }] }), 400, 1004)
    failed(await put(R, [{ id: "0".repeat(32), action: "block", filter: { id: r.filter.id } }]), 400, 1004)
    failed(await put(`${R}/${r.id}`, { action: "block" }), 400, 1004)
    failed(await put(`${R}/${"0".repeat(32)}`, { action: "block", filter: { id: r.filter.id } }), 404, 7003)
  })

  it("deleting a rule leaves its filter; deleting the filter shows it as deleted on its rules", async () => {
    const [r1, r2] = ok(
      await post(R, [
        { filter: { expression: 'http.host eq "del-1.example"' }, action: "block" },
        { filter: { expression: 'http.host eq "del-2.example"' }, action: "block" }
      ])
    )
    expect(ok(await call(`${R}/${r1.id}`, { method: "DELETE" }))).toEqual([{ id: r1.id }])
    expect(ok(await call(`${F}/${r1.filter.id}`)).id).toBe(r1.filter.id)
    failed(await call(`${R}/${r1.id}`), 404, 7003)
    ok(await call(`${F}/${r2.filter.id}`, { method: "DELETE" }))
    expect(ok(await call(`${R}/${r2.id}`)).filter).toEqual({ id: r2.filter.id, deleted: true })
    expect(ok(await call(`${R}?id=${r2.id}`, { method: "DELETE" }))).toEqual([{ id: r2.id }])
  })

  it("delete_filter_if_unused (query or JSON body) deletes the filter only when no other rule uses it", async () => {
    const [alone] = ok(await post(R, [{ filter: { expression: 'http.host eq "unused-1.example"' }, action: "block" }]))
    expect(ok(await call(`${R}/${alone.id}?delete_filter_if_unused=true`, { method: "DELETE" }))).toEqual([
      { id: alone.id }
    ])
    failed(await call(`${F}/${alone.filter.id}`), 404, 7003)

    const [shared] = ok(await post(F, [{ expression: 'http.host eq "filter-if-unused-shared.example"' }]))
    const [a, b] = ok(
      await post(R, [
        { filter: { id: shared.id }, action: "block" },
        { filter: { id: shared.id }, action: "log" }
      ])
    )
    ok(await call(`${R}/${a.id}`, { method: "DELETE", body: { delete_filter_if_unused: true } }))
    expect(ok(await call(`${F}/${shared.id}`)).id).toBe(shared.id)
    ok(await call(`${R}/${b.id}`, { method: "DELETE", body: { delete_filter_if_unused: true } }))
    failed(await call(`${F}/${shared.id}`), 404, 7003)

    const [kept] = ok(await post(R, [{ filter: { expression: 'http.host eq "unused-2.example"' }, action: "block" }]))
    const bad = failed(
      await call(`${R}/${kept.id}`, { method: "DELETE", body: { delete_filter_if_unused: "yes" } }),
      400,
      1004
    )
    expect(bad.message).toBe('delete_filter_if_unused must be true or false, got "yes"')
    const badQuery = failed(
      await call(`${R}/${kept.id}?delete_filter_if_unused=maybe`, { method: "DELETE" }),
      400,
      1004
    )
    expect(badQuery.message).toContain("delete_filter_if_unused")
    expect(ok(await call(`${R}/${kept.id}`)).id).toBe(kept.id)
    ok(await call(`${R}/${kept.id}?delete_filter_if_unused=false`, { method: "DELETE" }))
    expect(ok(await call(`${F}/${kept.filter.id}`)).id).toBe(kept.filter.id)
  })

  it("lists with filters and paging (action, paused, description)", async () => {
    const list = await call(`${rulesOf("acme.com")}?per_page=5`)
    expect(list.body.result_info).toMatchObject({ page: 1, per_page: 5, count: 5, total_count: 6, total_pages: 2 })
    expect(ok(await call(`${rulesOf("acme.com")}?page=2&per_page=5`))).toHaveLength(1)
    expect(ok(await call(`${rulesOf("acme.com")}?action=bypass`))[0]).toMatchObject({
      products: ["waf"],
      filter: { description: "/upload" }
    })
    expect(ok(await call(`${rulesOf("acme.com")}?paused=true`))).toHaveLength(1)
    expect(ok(await call(`${rulesOf("acme.com")}?description=BOTS`))[0].action).toBe("block")
    failed(await call(`${rulesOf("acme.com")}?per_page=500`), 400, 1004)
    failed(await call(`${rulesOf("acme.com")}?action=deny`), 400, 1004)
  })
})

describe("the rule quota (the spec's third row)", () => {
  // initech.com is on the pro plan: 20 rules, one of them from the demo world.
  const R = rulesOf("initech.com")
  const F = filtersOf("initech.com")

  it("creates the filter and not the rule, and names the quota and the filter", async () => {
    const fill = Array.from({ length: 19 }, (_, i) => ({
      filter: { expression: `http.request.uri.path eq "/q${i}"` },
      action: "block"
    }))
    ok(await post(R, fill))
    expect(await count(R)).toBe(20)
    const filtersBefore = await count(F)
    const e = failed(
      await post(R, [{ filter: { expression: 'http.request.uri.path eq "/one-too-many"' }, action: "block" }]),
      400,
      10200
    )
    expect(e.message).toContain("the pro plan allows 20 rules per zone")
    expect(e.meta.filter_id).toMatch(/^[0-9a-f]{32}$/)
    expect(e.message).toContain(e.meta.filter_id)
    expect(e.meta).toMatchObject({ quota: 20, plan: "pro", rules: 20, filter_ids: [e.meta.filter_id] })
    expect(await count(R)).toBe(20)
    expect(await count(F)).toBe(filtersBefore + 1)
    expect(ok(await call(`${F}/${e.meta.filter_id}`)).expression).toBe('http.request.uri.path eq "/one-too-many"')
  })

  it("a rule referencing an existing filter over quota creates nothing", async () => {
    const [f] = ok(await call(`${F}?expression=one-too-many`))
    const before = await count(F)
    const e = failed(await post(R, [{ filter: { id: f.id }, action: "log" }]), 400, 10200)
    expect(e.meta.filter_id).toBeUndefined()
    expect(e.message).toBe(
      "firewall rule quota exceeded: the pro plan allows 20 rules per zone, the zone has 20 and the request adds 1"
    )
    expect(await count(F)).toBe(before)
  })
})

describe("/filters/validate-expr", () => {
  it("a valid expression succeeds with no result (GET and POST)", async () => {
    const get = await call(`/filters/validate-expr?expression=${encodeURIComponent('http.host eq "a.example"')}`)
    expect([get.status, get.body]).toEqual([200, { result: null, success: true, errors: [], messages: [] }])
    const posted = await post("/filters/validate-expr", { expression: "ip.src in {10.0.0.0/8}" })
    expect([posted.status, posted.body.success]).toEqual([200, true])
  })

  it("an invalid one: 400, the platform's parsing text with a caret, no code, messages null", async () => {
    const r = await post("/filters/validate-expr", { expression: "ip.src==34" })
    expect(r.status).toBe(400)
    expect(r.body.result).toBeNull()
    expect(r.body.success).toBe(false)
    expect(r.body.messages).toBeNull()
    expect(r.body.errors).toHaveLength(1)
    expect(Object.keys(r.body.errors[0])).toEqual(["message"])
    expect(r.body.errors[0].message).toMatch(/^Filter parsing error:\n`ip\.src==34`\n {9}\^\^ /)
  })

  it("a body without a string expression names the field; credentials are required", async () => {
    for (const body of [{}, { expression: 7 }, ["ip.src eq 1.1.1.1"]]) {
      const e = failed(await post("/filters/validate-expr", body), 400, 1004)
      expect(e.message, JSON.stringify(body)).toMatch(/expression|JSON object/)
    }
    failed(await call("/filters/validate-expr?expression=true", { token: null }), 400, 9106)
  })
})
