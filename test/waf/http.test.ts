/** HTTP against the embedded platform: the previous WAF's endpoints, the migration operations and the state machine. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  CLOUDFLARE_MANAGED_RULESET,
  OWASP_RULESET,
  OWASP_SCORE_RULE,
  PREVIOUS_CLOUDFLARE_PACKAGE,
  PREVIOUS_OWASP_PACKAGE
} from "../../src/waf/catalog.js"
import { assertEnvelope, firstError, request, startPlatform, type Platform } from "../helpers/platform.js"

let p: Platform
const ids = new Map<string, string>()
const zone = (name: string) => ids.get(name)!
const get = (path: string) => request(p.baseUrl, path)
const send = (method: string, path: string, body?: unknown) => request(p.baseUrl, path, { method, body })
const ep = (name: string, q = "") => `/zones/${zone(name)}/rulesets/phases/http_request_firewall_managed/entrypoint${q}`

beforeAll(async () => {
  p = await startPlatform()
  for (let page = 1; page <= 3; page++) {
    const r = await get(`/zones?per_page=50&page=${page}`)
    for (const z of r.body.result) ids.set(z.name, z.id)
  }
})
afterAll(async () => p.close())

describe("previous WAF endpoints", () => {
  it("lists the packages with the zone's OWASP settings", async () => {
    const r = await get(`/zones/${zone("acme.com")}/firewall/waf/packages`)
    assertEnvelope(r, true)
    expect(r.body.result.map((x: any) => x.id).sort()).toEqual(
      [PREVIOUS_CLOUDFLARE_PACKAGE, PREVIOUS_OWASP_PACKAGE].sort()
    )
    expect(r.body.result.find((x: any) => x.id === PREVIOUS_OWASP_PACKAGE)).toMatchObject({
      detection_mode: "anomaly",
      sensitivity: "high",
      action_mode: "block",
      zone_id: zone("acme.com")
    })
    expect(r.body.result_info).toMatchObject({ page: 1, total_count: 2 })
  })
  it("patches the OWASP package; refuses the traditional one and bad values, naming the field", async () => {
    const z = zone("initech.net")
    const ok = await send("PATCH", `/zones/${z}/firewall/waf/packages/${PREVIOUS_OWASP_PACKAGE}`, {
      sensitivity: "low",
      action_mode: "simulate"
    })
    expect(ok.body.result).toMatchObject({ sensitivity: "low", action_mode: "simulate" })
    const trad = await send("PATCH", `/zones/${z}/firewall/waf/packages/${PREVIOUS_CLOUDFLARE_PACKAGE}`, {
      sensitivity: "low"
    })
    expect(trad.status).toBe(400)
    expect(firstError(trad).message).toMatch(/anomaly \(OWASP\) package/)
    const bad = await send("PATCH", `/zones/${z}/firewall/waf/packages/${PREVIOUS_OWASP_PACKAGE}`, {
      sensitivity: "extreme"
    })
    expect(bad.status).toBe(400)
    expect(firstError(bad).message).toMatch(/sensitivity/)
  })
  it("groups and rules: list with filters, patch modes within allowed_modes", async () => {
    const z = zone("initech.net")
    const groups = await get(`/zones/${z}/firewall/waf/packages/${PREVIOUS_CLOUDFLARE_PACKAGE}/groups`)
    expect(groups.body.result.length).toBe(5)
    const wp = groups.body.result.find((g: any) => g.name === "Cloudflare WordPress")
    const off = await send(
      "PATCH",
      `/zones/${z}/firewall/waf/packages/${PREVIOUS_CLOUDFLARE_PACKAGE}/groups/${wp.id}`,
      { mode: "off" }
    )
    expect(off.body.result).toMatchObject({ id: wp.id, mode: "off" })
    expect(
      (await get(`/zones/${z}/firewall/waf/packages/${PREVIOUS_CLOUDFLARE_PACKAGE}/groups?mode=off`)).body.result.map(
        (g: any) => g.id
      )
    ).toEqual([wp.id])
    const rule = await send("PATCH", `/zones/${z}/firewall/waf/packages/${PREVIOUS_CLOUDFLARE_PACKAGE}/rules/100000`, {
      mode: "simulate"
    })
    expect(rule.body.result).toMatchObject({ id: "100000", mode: "simulate", default_mode: "block" })
    const bad = await send("PATCH", `/zones/${z}/firewall/waf/packages/${PREVIOUS_OWASP_PACKAGE}/rules/950001`, {
      mode: "block"
    })
    expect(bad.status).toBe(400)
    expect(firstError(bad).message).toMatch(/rule 950001 allows on, off/)
    const sim = await get(`/zones/${z}/firewall/waf/packages/${PREVIOUS_CLOUDFLARE_PACKAGE}/rules?mode=SIM`)
    expect(sim.body.result.map((r: any) => r.id)).toContain("100000")
  })
  it("URI-based overrides: create, get, update, delete; bad bodies name the field", async () => {
    const z = zone("initech-mobile.com")
    const created = await send("POST", `/zones/${z}/firewall/waf/overrides`, {
      urls: ["initech-mobile.com/api/*"],
      rules: { "100015": "disable" }
    })
    assertEnvelope(created, true)
    const id = created.body.result.id
    expect((await get(`/zones/${z}/firewall/waf/overrides/${id}`)).body.result).toMatchObject({
      id,
      urls: ["initech-mobile.com/api/*"],
      paused: false
    })
    const upd = await send("PUT", `/zones/${z}/firewall/waf/overrides/${id}`, {
      id,
      urls: ["initech-mobile.com/v2/*"],
      rules: { "100015": "simulate" },
      rewrite_action: { block: "simulate" }
    })
    expect(upd.body.result.urls).toEqual(["initech-mobile.com/v2/*"])
    const noRules = await send("POST", `/zones/${z}/firewall/waf/overrides`, { urls: ["x/*"] })
    expect(noRules.status).toBe(400)
    expect(firstError(noRules).message).toMatch(/^rules: /)
    const badRule = await send("POST", `/zones/${z}/firewall/waf/overrides`, {
      urls: ["x/*"],
      rules: { nope: "block" }
    })
    expect(firstError(badRule).message).toMatch(/^rules\.nope: /)
    expect((await send("DELETE", `/zones/${z}/firewall/waf/overrides/${id}`)).body.result).toEqual({ id })
    expect((await get(`/zones/${z}/firewall/waf/overrides/${id}`)).status).toBe(404)
  })
})

describe("migration", () => {
  it("check: compatible in phase 2, phase 1 reasons without phase_two, URI overrides block", async () => {
    const r = await get(`/zones/${zone("acme.com")}/waf_migration/check?phase_two=1`)
    expect(r.body.result).toEqual({ compatible: true, migration_state: "start" })
    const p1 = await get(`/zones/${zone("acme.com")}/waf_migration/check`)
    expect(p1.body.result.compatible).toBe(false)
    expect(p1.body.result.reasons.map((x: any) => x.code)).toContain("owasp_enabled")
    const api = await get(`/zones/${zone("acme-api.com")}/waf_migration/check`)
    expect(api.body.result.compatible).toBe(true)
    const uri = await get(`/zones/${zone("acme.net")}/waf_migration/check?phase_two=1`)
    expect(uri.body.result).toMatchObject({
      compatible: false,
      migration_state: "start",
      reasons: [{ code: "uri_override", blocking: true }]
    })
  })
  it("config: the mapping's configuration (skip rules first, sensitivity table, Simulate -> log)", async () => {
    const r = await get(`/zones/${zone("acme.com")}/waf_migration/config?phase_two=1`)
    assertEnvelope(r, true)
    const rules = r.body.result.rules
    expect(r.body.result.name).toBe("default")
    expect(rules[0]).toMatchObject({
      action: "skip",
      action_parameters: { ruleset: "current" },
      id: "",
      version: "",
      ref: ""
    })
    const cf = rules.find((x: any) => x.action_parameters?.id === CLOUDFLARE_MANAGED_RULESET)
    expect(cf.action_parameters.overrides.rules).toContainEqual({
      id: "23ee7cebe6e8443e99ecf932ab579455",
      enabled: false
    })
    const ow = rules.find((x: any) => x.action_parameters?.id === OWASP_RULESET)
    expect(ow.action_parameters.overrides.rules).toEqual([
      { id: OWASP_SCORE_RULE, score_threshold: 40, action: "block" }
    ])
    const shop = await get(`/zones/${zone("acme-shop.com")}/waf_migration/config?phase_two=1`)
    const owShop = shop.body.result.rules.find((x: any) => x.action_parameters?.id === OWASP_RULESET)
    expect(owShop.action_parameters.overrides.rules[0]).toEqual({
      id: OWASP_SCORE_RULE,
      score_threshold: 25,
      action: "log"
    })
  })
  it("status and entry point before migrating", async () => {
    const s = await get(`/zones/${zone("globex.com")}/waf_migration/status`)
    expect(s.body.result).toMatchObject({
      migration_state: "start",
      old_waf_status: "enabled",
      new_waf_status: "disabled",
      plan: "business",
      validation_mode_allowed: false
    })
    const e = await get(ep("globex.com"))
    expect(e.status).toBe(404)
    expect(firstError(e)).toMatchObject({
      code: 10003,
      message: "could not find entrypoint ruleset in the http_request_firewall_managed phase"
    })
  })
  it("validation mode is for enterprise zones only", async () => {
    const config = (await get(`/zones/${zone("globex.org")}/waf_migration/config?phase_two=1`)).body.result
    const body = {
      name: config.name,
      rules: config.rules.map(({ id: _i, version: _v, ref: _r, ...rest }: any) => rest)
    }
    const r = await send("PUT", ep("globex.org", "?waf_migration=validation&phase_two=1"), body)
    expect(r.status).toBe(403)
    expect(firstError(r).code).toBe(10302)
    expect(firstError(r).message).toMatch(/enterprise zones only/)
  })
  it("id/version/ref: required on the final update, omitted on the validation update; a bad body changes nothing", async () => {
    const config = (await get(`/zones/${zone("acme-shop.com")}/waf_migration/config?phase_two=1`)).body.result
    const stripped = {
      name: config.name,
      rules: config.rules.map(({ id: _i, version: _v, ref: _r, ...rest }: any) => rest)
    }
    const missing = await send("PUT", ep("acme-shop.com", "?waf_migration=pending&phase_two=1"), stripped)
    expect(missing.status).toBe(400)
    expect(firstError(missing).message).toMatch(/^rules\[0\]\.id: the final update/)
    const withIds = await send("PUT", ep("acme-shop.com", "?waf_migration=validation&phase_two=1"), config)
    expect(withIds.status).toBe(400)
    expect(firstError(withIds).message).toMatch(/^rules\[0\]\.id: the validation update .* omits id, version and ref/)
    const badExpr = await send("PUT", ep("acme-shop.com", "?waf_migration=pending&phase_two=1"), {
      ...config,
      rules: [{ ...config.rules[0], expression: "http.request.uri.pth eq 1" }]
    })
    expect(firstError(badExpr).message).toMatch(/^rules\[0\]\.expression: /)
    const badMode = await send("PUT", ep("acme-shop.com", "?waf_migration=3&phase_two=1"), config)
    expect(firstError(badMode).message).toMatch(
      /waf_migration must be pending \(or 1\) or validation \(or 2\), got "3"/
    )
    expect((await get(`/zones/${zone("acme-shop.com")}/waf_migration/status`)).body.result.migration_state).toBe(
      "start"
    )
  })
  it("enterprise: start -> validation (2) -> finished (1); then the previous WAF answers MigrationFinished", async () => {
    const name = "acme-shop.com"
    const config = (await get(`/zones/${zone(name)}/waf_migration/config?phase_two=1`)).body.result
    const stripped = {
      name: config.name,
      rules: config.rules.map(({ id: _i, version: _v, ref: _r, ...rest }: any) => rest)
    }
    const v = await send("PUT", ep(name, "?waf_migration=2&phase_two=1"), stripped)
    assertEnvelope(v, true)
    expect(v.body.result).toMatchObject({ phase: "http_request_firewall_managed", kind: "zone", version: "1" })
    expect((await get(`/zones/${zone(name)}/waf_migration/status`)).body.result).toMatchObject({
      migration_state: "validation",
      old_waf_status: "enabled",
      new_waf_status: "enabled"
    })
    expect((await get(`/zones/${zone(name)}/firewall/waf/packages`)).status).toBe(200)
    const f = await send("PUT", ep(name, "?waf_migration=pending&phase_two=1"), config)
    assertEnvelope(f, true)
    expect(f.body.result.version).toBe("2")
    expect((await get(`/zones/${zone(name)}/waf_migration/status`)).body.result).toMatchObject({
      migration_state: "finished",
      old_waf_status: "disabled",
      new_waf_status: "enabled"
    })
    for (const path of [
      "/firewall/waf/packages",
      `/firewall/waf/packages/${PREVIOUS_OWASP_PACKAGE}/groups`,
      `/firewall/waf/packages/${PREVIOUS_CLOUDFLARE_PACKAGE}/rules`,
      "/firewall/waf/overrides",
      "/settings/waf"
    ]) {
      const r = await get(`/zones/${zone(name)}${path}`)
      expect(r.status).toBe(409)
      expect(firstError(r)).toMatchObject({ code: 10301 })
      expect(firstError(r).message).toMatch(/migration of zone acme-shop.com is finished and cannot be reversed/)
    }
    const again = await send("PUT", ep(name, "?waf_migration=validation&phase_two=1"), stripped)
    expect(again.status).toBe(409)
    expect((await get(`/zones/${zone(name)}/waf_migration/check?phase_two=1`)).body.result).toMatchObject({
      compatible: false,
      migration_state: "finished"
    })
    expect((await get(ep(name))).body.result.version).toBe("2")
  })
  it("business: start -> finished directly with pending (1)", async () => {
    const name = "globex.com"
    const config = (await get(`/zones/${zone(name)}/waf_migration/config?phase_two=1`)).body.result
    const r = await send("PUT", ep(name, "?waf_migration=1&phase_two=1"), config)
    assertEnvelope(r, true)
    expect((await get(`/zones/${zone(name)}/waf_migration/status`)).body.result.migration_state).toBe("finished")
    expect(
      (
        await send("PATCH", `/zones/${zone(name)}/firewall/waf/packages/${PREVIOUS_OWASP_PACKAGE}`, {
          sensitivity: "low"
        })
      ).status
    ).toBe(409)
  })
  it("URI-based overrides block until deleted", async () => {
    const name = "acme.net"
    const config = (await get(`/zones/${zone(name)}/waf_migration/config?phase_two=1`)).body.result
    const r = await send("PUT", ep(name, "?waf_migration=pending&phase_two=1"), config)
    expect(r.status).toBe(400)
    expect(firstError(r).code).toBe(10305)
    expect(firstError(r).message).toMatch(/URI-based WAF override/)
    const overrides = (await get(`/zones/${zone(name)}/firewall/waf/overrides`)).body.result
    for (const o of overrides) await send("DELETE", `/zones/${zone(name)}/firewall/waf/overrides/${o.id}`)
    expect((await get(`/zones/${zone(name)}/waf_migration/check?phase_two=1`)).body.result).toEqual({
      compatible: true,
      migration_state: "start"
    })
    assertEnvelope(await send("PUT", ep(name, "?waf_migration=pending&phase_two=1"), config), true)
  })
  it("more than 200 firewall rules to migrate, or an expression over 4 KB, stop the migration: contact support", async () => {
    const many = await get(`/zones/${zone("acme.org")}/waf_migration/check?phase_two=1`)
    expect(many.body.result).toMatchObject({ compatible: false, reasons: [{ code: "too_many_rules", blocking: true }] })
    const manyConfig = (await get(`/zones/${zone("acme.org")}/waf_migration/config?phase_two=1`)).body.result
    expect(manyConfig.rules.filter((r: any) => r.action === "skip").length).toBe(205)
    const r1 = await send("PUT", ep("acme.org", "?waf_migration=pending&phase_two=1"), manyConfig)
    expect(r1.status).toBe(400)
    expect(firstError(r1)).toMatchObject({ code: 10303 })
    expect(firstError(r1).message).toBe(
      "the number of firewall rules to migrate (205) exceeds 200: contact support to migrate this zone"
    )
    const longConfig = (await get(`/zones/${zone("acme-cdn.net")}/waf_migration/config?phase_two=1`)).body.result
    const r2 = await send("PUT", ep("acme-cdn.net", "?waf_migration=validation&phase_two=1"), {
      name: "default",
      rules: longConfig.rules.slice(1).map(({ id: _i, version: _v, ref: _r, ...rest }: any) => rest)
    })
    expect(r2.status).toBe(400)
    expect(firstError(r2)).toMatchObject({ code: 10304 })
    expect(firstError(r2).message).toMatch(
      /^firewall rule \w+ has an expression of \d+ bytes, longer than 4 KB \(4096 bytes\): contact support/
    )
    expect((await get(`/zones/${zone("acme-cdn.net")}/waf_migration/status`)).body.result.migration_state).toBe("start")
  })
  it("firewall rules that bypass the WAF become skip rules, placed first", async () => {
    const rules = (await get(`/zones/${zone("acme.com")}/waf_migration/config?phase_two=1`)).body.result.rules
    expect(rules[0]).toMatchObject({
      action: "skip",
      expression: 'http.request.uri.path matches "^/upload$"',
      action_parameters: { ruleset: "current" }
    })
    expect(rules[0].description).toMatch(/^Migrated from firewall rule \w+ \(bypass WAF\): allow uploads without waf/)
  })
  it("seeded states: a zone under validation and a finished one", async () => {
    expect((await get(`/zones/${zone("acme-media.com")}/waf_migration/status`)).body.result.migration_state).toBe(
      "validation"
    )
    expect((await get(`/zones/${zone("acme-labs.org")}/waf_migration/status`)).body.result.migration_state).toBe(
      "finished"
    )
    expect((await get(`/zones/${zone("acme-labs.org")}/firewall/waf/packages`)).status).toBe(409)
  })
})
