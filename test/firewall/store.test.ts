/**
 * Units: the firewall store (migration 0004_firewall, the client's writes, the synchronous
 * listings, the demo seed).
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { check } from "../../src/rules/index.js"
import { acquire, type Db } from "../../src/store/db.js"
import { seedDemo } from "../../src/demo/seeds.js"
import { DemoFirewall } from "../../src/demo/firewall-rules.js"
import {
  countRules,
  deleteFilters,
  deleteRule,
  deleteRules,
  filterIdsByExpression,
  insertFilters,
  insertRules,
  ruleQuota,
  setPriorities,
  updateFilters,
  updateRules
} from "../../src/store/firewall-repo.js"
import { listFilters, listRules, queryRules } from "../../src/store/firewall-listings.js"
import { hexId } from "../../src/domain/ids.js"

/** `use` on a new demo store, closed after. */
const withStore = <A, E>(use: (store: Db) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(
        acquire(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-fw-")), "platform.sqlite"), seedDemo()),
        use
      )
    )
  )
const Now = "2024-07-01T00:00:00.000000Z"
const Later = "2024-07-02T00:00:00.000000Z"
const filter = (expression: string) => ({ expression, paused: false, description: null, ref: null })
const rule = { action: "block", priority: null, paused: false, description: null, ref: null, products: null }

describe("firewall store", () => {
  it("seeds demo rules whose expressions all check", () =>
    withStore(({ db, sql }) =>
      Effect.gen(function* () {
        const acme = hexId("zone", "acme.com")
        const rules = listRules(db, acme)
        expect(rules.map((r) => r.description)).toEqual(DemoFirewall["acme.com"]!.map((r) => r.name))
        for (const r of rules)
          expect(check(r.filter!.expression).diagnostics.filter((d) => d.severity === "error")).toEqual([])
        expect(rules.find((r) => r.action === "bypass")!.products).toEqual(["waf"])
        expect(rules.find((r) => r.paused)?.action).toBe("js_challenge")
        expect(yield* countRules(sql, acme)).toBe(rules.length)
      })
    ))

  it("writes a large body's new filters and rules several to a statement, in the body's order", () =>
    withStore(({ db, sql }) =>
      Effect.gen(function* () {
        const z = hexId("zone", "acme.net")
        // More than one statement's worth of each (at most 999 parameters: 124 filters, 90 rules).
        const filters = yield* insertFilters(
          sql,
          z,
          Array.from({ length: 300 }, (_, i) => filter(`http.host eq "f${i}.acme.net"`)),
          Now
        )
        expect(listFilters(db, z, {}, { offset: 0, limit: 1000 }).rows.map((f) => f.id)).toEqual(
          filters.map((f) => f.id)
        )
        const body = Array.from({ length: 250 }, (_, i) =>
          i % 2 === 0
            ? {
                ...rule,
                description: `r${i}`,
                filter: { kind: "new" as const, filter: filter(`http.host eq "r${i}.acme.net"`) }
              }
            : { ...rule, description: `r${i}`, filter: { kind: "id" as const, id: filters[i]!.id } }
        )
        const written = yield* insertRules(sql, z, body, Now)
        expect(written.map((r) => r.description)).toEqual(body.map((r) => r.description))
        expect(written.map((r) => r.filter!.expression)).toEqual(
          body.map((r, i) => (r.filter.kind === "new" ? r.filter.filter.expression : filters[i]!.expression))
        )
        expect(listRules(db, z).map((r) => r.id)).toEqual(written.map((r) => r.id))
      })
    ))

  it("keeps the per-plan quota from the fixture; an unknown zone has the free plan's", () =>
    withStore(({ sql }) =>
      Effect.gen(function* () {
        expect(yield* ruleQuota(sql, hexId("zone", "acme.com"))).toEqual({ plan: "enterprise", rules: 1000 })
        expect(yield* ruleQuota(sql, hexId("zone", "globex.com"))).toEqual({ plan: "business", rules: 100 })
        expect(yield* ruleQuota(sql, hexId("zone", "initech.com"))).toEqual({ plan: "pro", rules: 20 })
        expect(yield* ruleQuota(sql, "nope")).toEqual({ plan: "free", rules: 5 })
      })
    ))

  it("inserts, lists, updates and deletes; a rule outlives its deleted filter", () =>
    withStore(({ db, sql }) =>
      Effect.gen(function* () {
        const z = hexId("zone", "acme.net")
        const [f] = yield* insertFilters(sql, z, [{ ...filter('http.host eq "a.acme.net"'), description: "a" }], Now)
        const ids = yield* filterIdsByExpression(sql, z, ['http.host eq "a.acme.net"', 'http.host eq "none"'])
        expect([...ids]).toEqual([['http.host eq "a.acme.net"', f!.id]])
        const [r] = yield* insertRules(sql, z, [{ ...rule, filter: { kind: "id", id: f!.id } }], Now)
        expect(r).toMatchObject({
          action: "block",
          priority: null,
          paused: false,
          filter: { id: f!.id, expression: 'http.host eq "a.acme.net"' }
        })
        expect(listFilters(db, z, { expression: "A.ACME" }, { offset: 0, limit: 10 }).total).toBe(1)
        expect(queryRules(db, z, { action: "block" }, { offset: 0, limit: 10 }).rows.map((x) => x.id)).toEqual([r!.id])
        const [u] = yield* updateRules(sql, z, [{ ...r!, priority: 5, paused: true, products: null }], Later)
        expect(u).toMatchObject({ priority: 5, paused: true, modified_on: Later })
        expect((yield* setPriorities(sql, z, [{ id: r!.id, priority: 7 }], Later))[0]!.priority).toBe(7)
        expect(yield* deleteFilters(sql, z, [f!.id, "nope"])).toEqual([f!.id])
        expect(listRules(db, z)[0]!.filter).toBeNull()
        expect(yield* deleteRules(sql, z, [r!.id])).toEqual([r!.id])
        expect(yield* countRules(sql, z)).toBe(0)
      })
    ))

  it("writes a rule's new filter with it, swaps two filters' expressions, deletes a filter left unused", () =>
    withStore(({ db, sql }) =>
      Effect.gen(function* () {
        const z = hexId("zone", "acme.net")
        const [a, b] = yield* insertRules(
          sql,
          z,
          [
            { ...rule, filter: { kind: "new", filter: filter('http.host eq "a"') } },
            { ...rule, filter: { kind: "new", filter: filter('http.host eq "b"') } }
          ],
          Now
        )
        expect([a!.filter!.expression, b!.filter!.expression]).toEqual(['http.host eq "a"', 'http.host eq "b"'])
        const swapped = yield* updateFilters(
          sql,
          z,
          [
            { ...a!.filter!, expression: 'http.host eq "b"' },
            { ...b!.filter!, expression: 'http.host eq "a"' }
          ],
          Later
        )
        expect(swapped.map((f) => f.expression)).toEqual(['http.host eq "b"', 'http.host eq "a"'])
        yield* insertRules(sql, z, [{ ...rule, filter: { kind: "id", id: b!.filter_id } }], Now)
        expect(yield* deleteRule(sql, z, a!.id, true)).toBe(true)
        expect(yield* deleteRule(sql, z, b!.id, true)).toBe(true)
        expect(yield* deleteRule(sql, z, b!.id, true)).toBe(false)
        // a's filter went with it; b's stays: another rule uses it.
        expect(listFilters(db, z, {}, { offset: 0, limit: 10 }).rows.map((f) => f.id)).toEqual([b!.filter_id])
      })
    ))

  it("answers each element of a write as stored right after it: a body naming a filter or a rule twice sees both", () =>
    withStore(({ sql }) =>
      Effect.gen(function* () {
        const z = hexId("zone", "acme.net")
        const [r] = yield* insertRules(
          sql,
          z,
          [{ ...rule, filter: { kind: "new", filter: filter('http.host eq "x"') } }],
          Now
        )
        const f = r!.filter!
        const filters = yield* updateFilters(
          sql,
          z,
          [
            { ...f, expression: 'http.host eq "y"' },
            { ...f, expression: 'http.host eq "z"' }
          ],
          Later
        )
        expect(filters.map((x) => x.expression)).toEqual(['http.host eq "y"', 'http.host eq "z"'])
        const rules = yield* updateRules(
          sql,
          z,
          [
            { ...r!, action: "log" },
            { ...r!, action: "allow" }
          ],
          Later
        )
        expect(rules.map((x) => x.action)).toEqual(["log", "allow"])
        const priorities = yield* setPriorities(
          sql,
          z,
          [
            { id: r!.id, priority: 1 },
            { id: r!.id, priority: 2 }
          ],
          Later
        )
        expect(priorities.map((x) => x.priority)).toEqual([1, 2])
      })
    ))
})
