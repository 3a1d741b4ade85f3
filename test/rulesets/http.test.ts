/** HTTP against the embedded platform: a zone's rulesets, the custom phase's entry point and single-rule writes. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { assertEnvelope, firstError, request, startPlatform, type Platform } from "../helpers/platform.js"

let p: Platform
/** The first zones of each plan, in list order. */
const byPlan = new Map<string, Array<string>>()
const send = (method: string, path: string, body?: unknown) => request(p.baseUrl, path, { method, body })
const ep = (zone: string, q = "") => `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint${q}`
/** A zone of `plan` no other test has written to. */
const freshZone = (plan: string) => {
  const z = byPlan.get(plan)?.shift()
  if (!z) throw new Error(`no ${plan} zone left`)
  return z
}

beforeAll(async () => {
  p = await startPlatform()
  for (let page = 1; page <= 3; page++) {
    const r = await request(p.baseUrl, `/zones?per_page=50&page=${page}`)
    for (const z of r.body.result) {
      const plan = z.plan?.legacy_id ?? "free"
      byPlan.set(plan, [...(byPlan.get(plan) ?? []), z.id])
    }
  }
})
afterAll(async () => p?.close())

const block = (expression: string, extra: Record<string, unknown> = {}) => ({ action: "block", expression, ...extra })

describe("the custom phase's entry point", () => {
  it("is missing at first (404, code 10003); a PUT creates it with ids, refs, versions and times", async () => {
    const z = freshZone("enterprise")
    const missing = await send("GET", ep(z))
    expect(missing.status).toBe(404)
    expect(firstError(missing)).toEqual({
      code: 10003,
      message: "could not find entrypoint ruleset in the http_request_firewall_custom phase"
    })
    const put = await send("PUT", ep(z), {
      name: "default",
      rules: [
        {
          action: "skip",
          expression: "ip.src in {192.0.2.0/24}",
          action_parameters: { ruleset: "current" },
          ref: "office"
        },
        block('http.request.uri.path contains "/admin"', { enabled: false, description: "admin" })
      ]
    })
    assertEnvelope(put, true)
    const r = put.body.result
    expect(r).toMatchObject({ name: "default", kind: "zone", phase: "http_request_firewall_custom", version: "1" })
    expect(r.rules).toHaveLength(2)
    expect(r.rules[0]).toMatchObject({ ref: "office", version: "1", enabled: true, action: "skip" })
    expect(r.rules[1]).toMatchObject({ ref: r.rules[1].id, enabled: false, description: "admin" })
    expect(r.rules[0].id).toMatch(/^[0-9a-f]{32}$/)
    expect(r.last_updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    expect((await send("GET", ep(z))).body.result).toEqual(r)

    // A second PUT replaces the list; a rule named by its ref keeps its id, and its version when unchanged.
    const twice = await send("PUT", ep(z), {
      rules: [block("true", { id: r.rules[1].id }), block("false", { id: r.rules[1].id })]
    })
    expect(firstError(twice).message).toBe(`rules[1].id: rules[0] is rule ${r.rules[1].id} already`)
    const unknownId = await send("PUT", ep(z), { rules: [block("true", { id: "0".repeat(32) })] })
    expect(firstError(unknownId).message).toBe(`rules[0].id: ruleset ${r.id} has no rule ${"0".repeat(32)}`)
    const again = await send("PUT", ep(z), {
      rules: [
        {
          action: "skip",
          expression: "ip.src in {192.0.2.0/24}",
          action_parameters: { ruleset: "current" },
          ref: "office"
        }
      ]
    })
    expect(again.body.result.version).toBe("2")
    expect(again.body.result.rules).toEqual([r.rules[0]])
    // A rule that names a stored rule's id keeps it even when another rule of the body has that rule's ref.
    const swap = await send("PUT", ep(z), {
      rules: [
        { ...block("true", { id: r.rules[0].id }), ref: "renamed" },
        {
          action: "skip",
          expression: "ip.src in {192.0.2.0/24}",
          action_parameters: { ruleset: "current" },
          ref: "office"
        }
      ]
    })
    const [renamed, office] = swap.body.result.rules
    expect(renamed).toMatchObject({ id: r.rules[0].id, ref: "renamed", version: "2" })
    expect(office.id).not.toBe(r.rules[0].id)
    expect(office).toMatchObject({ ref: "office", version: "1" })
  })

  it("lists the zone's rulesets without rules, and reads one by id", async () => {
    const z = freshZone("pro")
    const put = await send("PUT", ep(z), { name: "default", rules: [block('http.host eq "a.example"')] })
    const list = await send("GET", `/zones/${z}/rulesets`)
    assertEnvelope(list, true)
    const mine = list.body.result.find((x: any) => x.phase === "http_request_firewall_custom")
    expect(mine).toEqual({
      id: put.body.result.id,
      name: "default",
      description: "",
      kind: "zone",
      version: "1",
      last_updated: put.body.result.last_updated,
      phase: "http_request_firewall_custom"
    })
    expect((await send("GET", `/zones/${z}/rulesets/${mine.id}`)).body.result).toEqual(put.body.result)
    const unknown = await send("GET", `/zones/${z}/rulesets/0123456789abcdef0123456789abcdef`)
    expect(unknown.status).toBe(404)
    expect(firstError(unknown).message).toBe("could not find ruleset 0123456789abcdef0123456789abcdef")
  })

  it("refuses bad bodies naming the field, the limit and the value; a refused PUT changes nothing", async () => {
    const z = freshZone("pro")
    const cases: Array<[unknown, number, RegExp]> = [
      [
        { rules: [{ action: "blok", expression: "true" }] },
        400,
        /^rules\[0\]\.action: expected one of block, .*, got "blok"$/
      ],
      [{ rules: [block("http.host eq")] }, 400, /^rules\[0\]\.expression: Filter parsing error/],
      [
        { rules: [block('http.request.uri.path matches "^/a"')] },
        400,
        /^rules\[0\]\.expression: `matches` \(regex\) needs the Business or Enterprise plan, this zone is on pro$/
      ],
      [
        { rules: [{ action: "log", expression: "true" }] },
        400,
        /^rules\[0\]\.action: the log action needs the Enterprise plan, this zone is on pro$/
      ],
      [
        { rules: [block("x".repeat(4097))] },
        400,
        /^rules\[0\]\.expression: expressions are limited to 4,096 characters, got 4,097$/
      ],
      [
        { rules: [{ action: "skip", expression: "true", action_parameters: { products: ["wafx"] } }] },
        400,
        /^rules\[0\]\.action_parameters\.products\[0\]: expected one of zoneLockdown, .*, got "wafx"$/
      ],
      [
        { rules: [{ action: "skip", expression: "true" }] },
        400,
        /^rules\[0\]\.action_parameters: a skip rule needs ruleset, phases or products, got nothing$/
      ],
      [
        { rules: [block("true", { logging: { enabled: false } })] },
        400,
        /^rules\[0\]\.logging: only a skip rule takes logging/
      ],
      [
        {
          rules: [
            block("true", {
              action_parameters: { response: { status_code: 200, content: "", content_type: "text/plain" } }
            })
          ]
        },
        400,
        /^rules\[0\]\.action_parameters\.response\.status_code: expected an integer from 400 to 499, got 200$/
      ],
      [
        { rules: [block("true", { ref: "a" }), block("false", { ref: "a" })] },
        400,
        /^rules\[1\]\.ref: refs are unique in a ruleset, "a" is also the ref of rules\[0\]$/
      ],
      [
        { rules: Array.from({ length: 21 }, (_, i) => block(`http.host eq "h${i}"`)) },
        400,
        /^rules: a pro zone may have at most 20 custom rules in the http_request_firewall_custom phase, got 21$/
      ],
      [{ kind: "custom", rules: [] }, 400, /^kind: expected one of zone, got "custom"$/]
    ]
    for (const [body, status, message] of cases) {
      const r = await send("PUT", ep(z), body)
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(status)
      expect(firstError(r).message).toMatch(message)
    }
    expect(firstError(await send("PUT", ep(z), { rules: Array.from({ length: 21 }, () => block("true")) })).code).toBe(
      10200
    )
    expect((await send("GET", ep(z))).status).toBe(404)
    const dry = await send("PUT", ep(z, "?dry_run=true"), { rules: [block("true")] })
    expect(dry.status).toBe(200)
    expect(dry.body.result).toBeNull()
    expect((await send("GET", ep(z))).status).toBe(404)
    const badDry = await send("PUT", ep(z, "?dry_run=yes"), { rules: [] })
    expect(firstError(badDry).message).toBe('dry_run: expected true or false, got "yes"')
  })
})

describe("beside the managed entry point", () => {
  it("lists both entry points after a WAF migration, reads the managed one by id as saved, and writes rules of the custom one only", async () => {
    const zoneId = (await send("GET", "/zones?name=initech-cloud.io")).body.result[0].id as string
    const config = (await send("GET", `/zones/${zoneId}/waf_migration/config?phase_two=1`)).body.result
    const managed = await send(
      "PUT",
      `/zones/${zoneId}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1`,
      config
    )
    assertEnvelope(managed, true)
    const custom = await send("PUT", ep(zoneId), { name: "default", rules: [block("true")] })
    const list = (await send("GET", `/zones/${zoneId}/rulesets`)).body.result
    expect(list.map((r: any) => [r.phase, r.id])).toEqual([
      ["http_request_firewall_custom", custom.body.result.id],
      ["http_request_firewall_managed", managed.body.result.id]
    ])
    expect(list.every((r: any) => !("rules" in r))).toBe(true)
    expect((await send("GET", `/zones/${zoneId}/rulesets/${managed.body.result.id}`)).body.result).toEqual(
      managed.body.result
    )
    const write = await send("POST", `/zones/${zoneId}/rulesets/${managed.body.result.id}/rules`, block("true"))
    expect(write.status).toBe(400)
    expect(firstError(write).message).toMatch(
      /^ruleset_id: single-rule changes on this platform are for the http_request_firewall_custom entry point; ruleset [0-9a-f]{32} is the http_request_firewall_managed entry point/
    )
  })
})

describe("the explicit create", () => {
  it("creates the custom entry point once (name, kind and phase required); a second one is 400 with code 20217", async () => {
    const z = freshZone("business")
    const missing = await send("POST", `/zones/${z}/rulesets`, { kind: "zone", phase: "http_request_firewall_custom" })
    expect(firstError(missing).message).toBe("name: required to create a ruleset, got nothing")
    const kind = await send("POST", `/zones/${z}/rulesets`, {
      name: "mine",
      kind: "custom",
      phase: "http_request_firewall_custom"
    })
    expect(firstError(kind).message).toBe('kind: a zone\'s rulesets on this platform are of kind zone, got "custom"')
    const phase = await send("POST", `/zones/${z}/rulesets`, { name: "mine", kind: "zone", phase: "http_ratelimit" })
    expect(firstError(phase).message).toBe('phase: expected one of http_request_firewall_custom, got "http_ratelimit"')
    const body = { name: "mine", kind: "zone", phase: "http_request_firewall_custom", rules: [block("true")] }
    const made = await send("POST", `/zones/${z}/rulesets`, body)
    assertEnvelope(made, true)
    expect(made.body.result).toMatchObject({ name: "mine", version: "1", rules: [{ action: "block" }] })
    expect((await send("GET", ep(z))).body.result).toEqual(made.body.result)
    const second = await send("POST", `/zones/${z}/rulesets`, body)
    expect(second.status).toBe(400)
    expect(firstError(second)).toMatchObject({ code: 20217 })
    expect(firstError(second).message).toMatch(
      /^exceeded maximum number of zone\/account rulesets for phase http_request_firewall_custom/
    )
    const renamed = await send("PUT", ep(z), { name: "other", rules: [] })
    expect(firstError(renamed).message).toBe('name: a ruleset\'s name cannot be changed (it is "mine"), got "other"')
  })
})

describe("single rules", () => {
  const setUp = async (plan: string, n: number) => {
    const z = freshZone(plan)
    const r = await send("PUT", ep(z), {
      name: "default",
      rules: Array.from({ length: n }, (_, i) => block(`http.host eq "h${i}.example"`, { ref: `r${i}` }))
    })
    assertEnvelope(r, true)
    return { z, rs: r.body.result, rules: `/zones/${z}/rulesets/${r.body.result.id}/rules` }
  }
  const refs = (r: any) => r.rules.map((x: any) => x.ref)

  it('adds a rule: appended, or before/after a rule, first and last with "", at a 1-based index', async () => {
    const { rs, rules } = await setUp("business", 2)
    const [a, b] = rs.rules
    let r = await send("POST", rules, block("true", { ref: "end" }))
    expect(r.body.result).toMatchObject({ version: "2" })
    expect(refs(r.body.result)).toEqual(["r0", "r1", "end"])
    r = await send("POST", rules, { ...block("true", { ref: "first" }), position: { before: "" } })
    expect(refs(r.body.result)).toEqual(["first", "r0", "r1", "end"])
    r = await send("POST", rules, { ...block("true", { ref: "afterA" }), position: { after: a.id } })
    expect(refs(r.body.result)).toEqual(["first", "r0", "afterA", "r1", "end"])
    r = await send("POST", rules, { ...block("true", { ref: "beforeB" }), position: { before: b.id } })
    expect(refs(r.body.result)).toEqual(["first", "r0", "afterA", "beforeB", "r1", "end"])
    r = await send("POST", rules, { ...block("true", { ref: "second" }), position: { index: 2 } })
    expect(refs(r.body.result)).toEqual(["first", "second", "r0", "afterA", "beforeB", "r1", "end"])
    expect(r.body.result.version).toBe("6")
    const added = r.body.result.rules[1]
    expect(added).toMatchObject({ version: "1", enabled: true })
    expect(added.id).not.toBe(rs.rules[0].id)

    const out = await send("POST", rules, { ...block("true"), position: { index: 9 } })
    expect(out.status).toBe(400)
    expect(firstError(out).message).toBe(
      "position.index: expected an integer from 1 to 8 (the ruleset has 7 other rules), got 9"
    )
    const two = await send("POST", rules, { ...block("true"), position: { index: 1, after: "" } })
    expect(firstError(two).message).toMatch(/^position: expected exactly one of before, after or index/)
    const missing = await send("POST", rules, { ...block("true"), position: { after: "0".repeat(32) } })
    expect(firstError(missing).message).toMatch(/^position\.after: ruleset [0-9a-f]{32} has no other rule 0{32}$/)
  })

  it("updates a rule (its version moves), moves one (its version stays), deletes one; every change is a new ruleset version", async () => {
    const { rs, rules } = await setUp("business", 3)
    const [a, b, c] = rs.rules
    const upd = await send(
      "PATCH",
      `${rules}/${b.id}`,
      block('http.host eq "new.example"', { ref: "r1", enabled: false })
    )
    assertEnvelope(upd, true)
    expect(upd.body.result.version).toBe("2")
    expect(upd.body.result.rules[1]).toMatchObject({
      id: b.id,
      version: "2",
      enabled: false,
      expression: 'http.host eq "new.example"'
    })
    const moved = await send("PATCH", `${rules}/${c.id}`, { position: { index: 1 } })
    expect(moved.body.result.version).toBe("3")
    expect(refs(moved.body.result)).toEqual(["r2", "r0", "r1"])
    expect(moved.body.result.rules[0]).toEqual(c)
    const after = await send("PATCH", `${rules}/${c.id}`, { position: { after: "" } })
    expect(refs(after.body.result)).toEqual(["r0", "r1", "r2"])
    const tooFar = await send("PATCH", `${rules}/${a.id}`, { position: { index: 4 } })
    expect(firstError(tooFar).message).toBe(
      "position.index: expected an integer from 1 to 3 (the ruleset has 2 other rules), got 4"
    )
    const del = await send("DELETE", `${rules}/${a.id}`)
    assertEnvelope(del, true)
    expect(refs(del.body.result)).toEqual(["r1", "r2"])
    expect(del.body.result.version).toBe("5")
    // Every saved write is a version, readable whole; a dry run is none.
    const versions = (await send("GET", `/zones/${zoneOf(rules)}/rulesets/${rs.id}/versions`)).body.result
    expect(versions.map((v: any) => v.version)).toEqual(["5", "4", "3", "2", "1"])
    expect(versions.every((v: any) => !("rules" in v))).toBe(true)
    const v3 = await send("GET", `/zones/${zoneOf(rules)}/rulesets/${rs.id}/versions/3`)
    expect(v3.body.result).toEqual(moved.body.result)
    const v9 = await send("GET", `/zones/${zoneOf(rules)}/rulesets/${rs.id}/versions/9`)
    expect(v9.status).toBe(404)
    expect(firstError(v9).message).toBe(`could not find version 9 of ruleset ${rs.id} (its latest is 5)`)
    const gone = await send("DELETE", `${rules}/${a.id}`)
    expect(gone.status).toBe(404)
    expect(firstError(gone).message).toBe(`could not find rule ${a.id} in ruleset ${rs.id}`)
    const dry = await send("DELETE", `${rules}/${b.id}?dry_run=true`)
    expect(dry.body.result).toBeNull()
    expect(refs((await send("GET", ep(zoneOf(rules)))).body.result)).toEqual(["r1", "r2"])
  })

  it("keeps the plan's limit on adds; refuses rule writes on an unknown ruleset", async () => {
    const { z, rules } = await setUp("pro", 20)
    const over = await send("POST", rules, block("true"))
    expect(over.status).toBe(400)
    expect(firstError(over)).toMatchObject({ code: 10200 })
    expect(firstError(over).message).toMatch(/at most 20 custom rules .*, got 21$/)
    const unknown = await send("POST", `/zones/${z}/rulesets/${"f".repeat(32)}/rules`, block("true"))
    expect(unknown.status).toBe(404)
  })
})

/** The zone id in a rules path. */
const zoneOf = (rulesPath: string) => rulesPath.split("/")[2]!
