/**
 * The scanner's core: the list's data is well formed (a new entry is a data change, checked here),
 * paths in code with each way of interpolating an id, the method of the call around a path, the
 * provider pin's lowest version, and the state of a deprecation on a clock.
 */
import { describe, expect, it } from "vitest"
import { pathUses } from "../../src/deprecations/api-paths.js"
import { deprecationById, deprecations, stateOn } from "../../src/deprecations/catalog.js"
import { scanText } from "../../src/deprecations/scan-text.js"
import { lowestAllowed } from "../../src/deprecations/terraform.js"

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/

describe("the deprecation list (src/deprecations/deprecations.json)", () => {
  it("has unique ids, days as dates, patterns that compile, and something to detect in each entry", () => {
    const ids = deprecations.map((d) => d.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const d of deprecations) {
      for (const day of [d.deprecated, d.endOfLife, ...(d.earlierEnds ?? [])])
        if (day !== null) expect(day, d.id).toMatch(ISO_DAY)
      const { api = [], text = [], rules = [], sdk = [], terraform = [], skipProducts = [] } = d.detect
      expect(
        api.length + text.length + rules.length + sdk.length + terraform.length + skipProducts.length,
        d.id
      ).toBeGreaterThan(0)
      for (const a of api) {
        expect(a.path, d.id).toMatch(/^\^\/.*\$$/)
        expect(() => new RegExp(a.path)).not.toThrow()
        for (const m of a.methods) expect(["GET", "POST", "PUT", "PATCH", "DELETE"]).toContain(m)
      }
      for (const p of [...text, ...rules, ...sdk])
        expect(() => new RegExp(p.pattern.replace(/^\(\?i\)/, ""))).not.toThrow()
      expect(d.replacement.length, d.id).toBeGreaterThan(0)
    }
  })
})

describe("paths in code", () => {
  const one = (text: string) => pathUses(text).map((u) => [u.path, u.method])
  it("reads each way of writing an id as one segment", () => {
    expect(one('curl "$API/zones/$ZONE_ID/rate_limits/${RL}"')).toEqual([["/zones/ID/rate_limits/ID", "GET"]])
    expect(one("fetch(`${API}/zones/${z.id}/filters`)")).toEqual([["/zones/ID/filters", "GET"]])
    expect(one('requests.put(f"{API}/zones/{zone_id}/rate_limits/{rid}")')).toEqual([
      ["/zones/ID/rate_limits/ID", "PUT"]
    ])
    expect(one('requests.put(API + "/zones/%s/rate_limits/%s" % (z, r))')).toEqual([
      ["/zones/ID/rate_limits/ID", "PUT"]
    ])
    expect(one('axios.delete(base + "/zones/" + zone + "/firewall/ua_rules/" + id)')).toEqual([
      ["/zones/ID/firewall/ua_rules/ID", "DELETE"]
    ])
    expect(one("GET /zones/:zone_id/firewall/lockdowns/<id>")).toEqual([["/zones/ID/firewall/lockdowns/ID", undefined]])
    expect(one('curl "$API/zones/$Z/dns_records?name=contains:www"')).toEqual([["/zones/ID/dns_records", "GET"]])
  })

  it("finds the method of the call: curl's -X and --data, fetch's options on the next lines, Go's NewRequest", () => {
    expect(one('curl -s "$API/zones/$Z/rate_limits" --data @rl.json')).toEqual([["/zones/ID/rate_limits", "POST"]])
    expect(one('curl -s \\\n  -X PATCH "$API/zones/$Z/settings"')).toEqual([["/zones/ID/settings", "PATCH"]])
    expect(one('await fetch(`${API}/zones/${z}/settings`, {\n  method: "PATCH",\n  body\n})')).toEqual([
      ["/zones/ID/settings", "PATCH"]
    ])
    expect(one('http.NewRequest(http.MethodPut,\n\tapi+"/zones/"+zone+"/rate_limits/"+id, nil)')).toEqual([
      ["/zones/ID/rate_limits/ID", "PUT"]
    ])
    // The next call's options are not this call's.
    expect(one('http.Get(api + "/zones/" + z + "/rate_limits")\nhttp.NewRequest(http.MethodPut, x, nil)')).toEqual([
      ["/zones/ID/rate_limits", "GET"]
    ])
  })

  it("matches a deprecated path only with one of its methods, and not its look-alikes", () => {
    const ids = (text: string) => scanText(text, "shell", { now: new Date("2026-11-24T00:00:00Z") }).map((h) => h.id)
    expect(ids('curl -X PATCH "$API/zones/$Z/settings"')).toEqual(["DEP-ZSBATCH"])
    expect(ids('curl -X PUT "$API/zones/$Z/settings"')).toEqual([])
    expect(ids('curl "$API/zones/$Z/settings/ssl"')).toEqual([])
    expect(ids('curl "$API/accounts/$A/workers/dispatch/namespaces/$N"')).toEqual([])
    expect(ids('curl "$API/accounts/$A/storage/kv/namespaces/$N/values/k"')).toEqual([])
    // A record's type changed in place: only a PUT/PATCH whose body names the type.
    expect(ids('curl -X PATCH "$API/zones/$Z/dns_records/$R" --data \'{"ttl":60}\'')).toEqual([])
    expect(ids('curl -X PATCH "$API/zones/$Z/dns_records/$R" --data \'{"type":"A"}\'')).toEqual(["DEP-DNSTYPE"])
  })
})

describe("the pin and the clock", () => {
  it("takes a constraint's lowest allowed provider version", () => {
    expect(lowestAllowed("~> 4.40")).toEqual([4, 40, 0])
    expect(lowestAllowed(">= 5.1.0, < 6")).toEqual([5, 1, 0])
    expect(lowestAllowed("= 3.30.0")).toEqual([3, 30, 0])
    expect(lowestAllowed("4.52.5")).toEqual([4, 52, 5])
    expect(lowestAllowed("< 5")).toBeUndefined()
  })

  it("counts days to and from an end of life, which begins at the start of its day (UTC)", () => {
    const d = deprecationById("DEP-DNSANALYTICS")!
    expect(stateOn(d, new Date("2026-11-30T23:59:59Z"))).toEqual({
      state: "upcoming",
      endOfLife: "2026-12-01",
      daysLeft: 1
    })
    expect(stateOn(d, new Date("2026-12-01T00:00:00Z"))).toEqual({ state: "past", endOfLife: "2026-12-01", daysAgo: 0 })
    expect(stateOn(deprecationById("DEP-ZL")!, new Date())).toEqual({ state: "undated" })
  })
})
