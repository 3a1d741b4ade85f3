/** Units: the firewall store (migration 0004_firewall, the repository, the demo seed). */
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { check } from "../../src/rules/index.js"
import { open } from "../../src/store/db.js"
import { seedDemo } from "../../src/demo/seeds.js"
import { DemoFirewall } from "../../src/demo/firewall-rules.js"
import {
  countRules,
  deleteFilters,
  deleteRules,
  findFilterByExpression,
  insertFilters,
  insertRules,
  listFilters,
  listRules,
  queryRules,
  ruleQuota,
  updateRule
} from "../../src/store/firewall-repo.js"
import { hexId } from "../../src/domain/ids.js"

const store = () =>
  Effect.runPromise(
    open(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-fw-")), "platform.sqlite"), seedDemo())
  )
const Now = "2024-07-01T00:00:00.000000Z"

describe("firewall store", () => {
  it("seeds demo rules whose expressions all check", async () => {
    const db = await store()
    const acme = hexId("zone", "acme.com")
    const rules = listRules(db, acme)
    expect(rules.map((r) => r.description)).toEqual(DemoFirewall["acme.com"]!.map((r) => r.name))
    for (const r of rules)
      expect(check(r.filter!.expression).diagnostics.filter((d) => d.severity === "error")).toEqual([])
    expect(rules.find((r) => r.action === "bypass")!.products).toEqual(["waf"])
    expect(rules.find((r) => r.paused)?.action).toBe("js_challenge")
    expect(countRules(db, acme)).toBe(rules.length)
    db.close()
  })

  it("keeps the per-plan quota from the fixture", async () => {
    const db = await store()
    expect(ruleQuota(db, hexId("zone", "acme.com"))).toEqual({ plan: "enterprise", rules: 1000 })
    expect(ruleQuota(db, hexId("zone", "globex.com"))).toEqual({ plan: "business", rules: 100 })
    expect(ruleQuota(db, hexId("zone", "initech.com"))).toEqual({ plan: "pro", rules: 20 })
    db.close()
  })

  it("inserts, lists, updates and deletes; a rule outlives its deleted filter", async () => {
    const db = await store()
    const z = hexId("zone", "acme.net")
    const [f] = insertFilters(db, z, [{ expression: 'http.host eq "a.acme.net"', description: "a" }], Now)
    expect(findFilterByExpression(db, z, 'http.host eq "a.acme.net"')?.id).toBe(f!.id)
    const [r] = insertRules(db, z, [{ filter_id: f!.id, action: "block" }], Now)
    expect(r).toMatchObject({
      action: "block",
      priority: null,
      paused: false,
      filter: { id: f!.id, expression: 'http.host eq "a.acme.net"' }
    })
    expect(listFilters(db, z, { expression: "A.ACME" }, { offset: 0, limit: 10 }).total).toBe(1)
    expect(queryRules(db, z, { action: "block" }, { offset: 0, limit: 10 }).rows.map((x) => x.id)).toEqual([r!.id])
    const u = updateRule(db, z, { ...r!, priority: 5, paused: true, products: null }, Now)
    expect(u).toMatchObject({ priority: 5, paused: true })
    expect(deleteFilters(db, z, [f!.id, "nope"])).toEqual([f!.id])
    expect(listRules(db, z)[0]!.filter).toBeNull()
    expect(deleteRules(db, z, [r!.id])).toEqual([r!.id])
    expect(countRules(db, z)).toBe(0)
    db.close()
  })
})
