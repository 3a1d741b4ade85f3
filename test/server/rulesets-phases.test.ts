/**
 * The rulesets API's remaining gaps over HTTP against the embedded platform, each answer checked
 * against the platform's OpenAPI document: the entry points of phases the local platform does not
 * keep answer as the platform does without one (404, 10003), an unknown phase is a 400 naming
 * `ruleset_phase`, a write there is refused with nothing written (never the router's 7000); the
 * custom and managed entry points keep their own routes; and the version history keeps the newest
 * 50 versions, the older ones pruned by the write that adds one.
 */
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { storeFile } from "../../src/server/platform.js"
import { asDocumented, explain } from "../helpers/openapi.js"
import { assertEnvelope, firstError, request, startPlatform, type Answer, type Platform } from "../helpers/platform.js"

let p: Platform
let zones: Array<string> = []
const send = (method: string, path: string, body?: unknown) => request(p.baseUrl, path, { method, body })
const entrypoint = (zone: string, phase: string) => `/zones/${zone}/rulesets/phases/${phase}/entrypoint`
const OPERATION = "/zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint"

/** The answer is the one the platform's document allows for the operation and status. */
const documented = (method: "get" | "put", a: Answer) => {
  const v = asDocumented(method, OPERATION, a.status)
  if (!v(a.body)) throw new Error(`${method} ${a.status}: ${explain(v)}`)
}

beforeAll(async () => {
  p = await startPlatform()
  zones = (await request(p.baseUrl, "/zones?per_page=50")).body.result
    .filter((z: any) => z.plan?.legacy_id === "enterprise")
    .map((z: any) => z.id)
})
afterAll(async () => p?.close())

describe("entry points of the other phases", () => {
  it("a phase the platform knows: 404, code 10003, as on a zone without that entry point", async () => {
    for (const phase of ["http_request_transform", "http_ratelimit", "http_request_sbfm", "ddos_l7"]) {
      const r = await send("GET", entrypoint(zones[0]!, phase))
      expect(r.status).toBe(404)
      assertEnvelope(r, false)
      expect(firstError(r)).toEqual({ code: 10003, message: `could not find entrypoint ruleset in the ${phase} phase` })
      documented("get", r)
    }
  })

  it("a phase it does not know: 400 naming ruleset_phase, the phases and the value", async () => {
    const r = await send("GET", entrypoint(zones[0]!, "http_request_firewall_customs"))
    expect(r.status).toBe(400)
    assertEnvelope(r, false)
    const e = firstError(r)
    expect(e.code).toBe(1004)
    expect(e.message).toMatch(/^ruleset_phase: must be one of ddos_l4, ddos_l7, .*http_request_firewall_custom, /)
    expect(e.message.endsWith('; got "http_request_firewall_customs"')).toBe(true)
    documented("get", r)
    expect((await send("PUT", entrypoint(zones[0]!, "nope"), { rules: [] })).status).toBe(400)
  })

  it("a write there is refused, saying why, and writes nothing; dry_run is read first", async () => {
    const z = zones[1]!
    const before = (await send("GET", `/zones/${z}/rulesets`)).body.result
    const r = await send("PUT", entrypoint(z, "http_request_transform"), {
      rules: [{ action: "rewrite", expression: "true" }]
    })
    expect(r.status).toBe(400)
    assertEnvelope(r, false)
    expect(firstError(r)).toEqual({
      code: 1004,
      message:
        "ruleset_phase: the local platform keeps the entry points of http_request_firewall_custom, http_ratelimit and http_request_firewall_managed only, got \"http_request_transform\" (nothing was written; that phase's rules are the real platform's)"
    })
    documented("put", r)
    expect((await send("GET", `/zones/${z}/rulesets`)).body.result).toEqual(before)
    const dry = await send("PUT", `${entrypoint(z, "http_request_transform")}?dry_run=maybe`, { rules: [] })
    expect(dry.status).toBe(400)
    expect(firstError(dry).message).toContain("dry_run")
  })

  it("the zone is checked before the phase; the custom and managed entry points keep their own answers", async () => {
    const unknown = await send("GET", entrypoint("0".repeat(32), "http_request_transform"))
    expect(unknown.status).toBe(404)
    expect(firstError(unknown).code).not.toBe(10003)
    const z = zones[2]!
    const custom = await send("GET", entrypoint(z, "http_request_firewall_custom"))
    expect(firstError(custom)).toEqual({
      code: 10003,
      message: "could not find entrypoint ruleset in the http_request_firewall_custom phase"
    })
    const put = await send("PUT", entrypoint(z, "http_request_firewall_custom"), {
      rules: [{ action: "block", expression: "ssl" }]
    })
    assertEnvelope(put, true)
    documented("put", put)
    const managed = await send("GET", entrypoint(z, "http_request_firewall_managed"))
    expect(managed.status === 200 || firstError(managed).message.includes("http_request_firewall_managed")).toBe(true)
    expect(managed.body.errors.map((e: { code: number }) => e.code)).not.toContain(7000)
  })
})

describe("version history", () => {
  it("keeps the newest 50 versions: the write that adds the 51st prunes the 1st, in the same transaction", async () => {
    const z = zones[3]!
    for (let i = 1; i <= 53; i++) {
      const r = await send("PUT", entrypoint(z, "http_request_firewall_custom"), {
        rules: [{ action: "block", expression: `http.request.uri.path eq "/${i}"`, ref: "one" }]
      })
      expect(r.status).toBe(200)
      expect(r.body.result.version).toBe(String(i))
    }
    const id = (await send("GET", entrypoint(z, "http_request_firewall_custom"))).body.result.id as string
    const versions = (await send("GET", `/zones/${z}/rulesets/${id}/versions`)).body.result as Array<{
      version: string
    }>
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 50 }, (_, i) => String(53 - i)))
    const kept = await send("GET", `/zones/${z}/rulesets/${id}/versions/4`)
    expect(kept.body.result.rules[0].expression).toBe('http.request.uri.path eq "/4"')
    const pruned = await send("GET", `/zones/${z}/rulesets/${id}/versions/3`)
    expect(pruned.status).toBe(404)
    expect(firstError(pruned)).toEqual({
      code: 10003,
      message: `could not find version 3 of ruleset ${id} (its latest is 53; versions before 4 are pruned: the history keeps the newest 50)`
    })
    // The entry point's own history paths answer the same versions.
    const byPhase = await send("GET", `${entrypoint(z, "http_request_firewall_custom")}/versions`)
    expect(byPhase.body.result).toEqual(versions)
    const v4 = await send("GET", `${entrypoint(z, "http_request_firewall_custom")}/versions/4`)
    expect(v4.body.result).toEqual(kept.body.result)
    const v3 = await send("GET", `${entrypoint(z, "http_request_firewall_custom")}/versions/3`)
    expect(firstError(v3)).toEqual(firstError(pruned))
    // The demo world's enterprise zones run the new WAF: its entry point shows its latest version only.
    const managed = await send("GET", `${entrypoint(z, "http_request_firewall_managed")}/versions`)
    expect(managed.status).toBe(200)
    expect(managed.body.result.map((v: { phase: string }) => v.phase)).toEqual(["http_request_firewall_managed"])
    for (const phase of ["http_request_transform", "http_ratelimit"]) {
      const none = await send("GET", `${entrypoint(z, phase)}/versions`)
      expect(none.status).toBe(404)
      expect(firstError(none)).toEqual({
        code: 10003,
        message: `could not find entrypoint ruleset in the ${phase} phase`
      })
    }
    expect((await send("GET", `${entrypoint(z, "nope")}/versions/1`)).status).toBe(400)
    const db = new Database(storeFile(p.stateDir), { readonly: true })
    try {
      const rows = db
        .prepare(
          "SELECT min(version) AS lo, max(version) AS hi, count(*) AS n FROM zone_ruleset_versions WHERE ruleset_id = ?"
        )
        .get(id)
      expect(rows).toEqual({ lo: 4, hi: 53, n: 50 })
    } finally {
      db.close()
    }
  })

  it("the managed entry point keeps its latest version only: an older one is not found, and not called pruned", async () => {
    // The first enterprise zone of the demo world that runs the new WAF (has the managed entry point).
    let z = ""
    let before: Answer | undefined
    for (const id of zones) {
      const r = await send("GET", entrypoint(id, "http_request_firewall_managed"))
      if (r.status === 200) {
        z = id
        before = r
        break
      }
    }
    expect(before?.status).toBe(200)
    const managedAt = entrypoint(z, "http_request_firewall_managed")
    const { id, version, rules } = before!.body.result as {
      id: string
      version: string
      rules: Array<{ action: string; expression: string; action_parameters?: unknown; enabled?: boolean }>
    }
    const put = await send("PUT", managedAt, {
      rules: rules.map((r) => ({
        action: r.action,
        expression: r.expression,
        ...(r.action_parameters !== undefined ? { action_parameters: r.action_parameters } : {}),
        ...(r.enabled !== undefined ? { enabled: r.enabled } : {})
      }))
    })
    expect(put.status).toBe(200)
    const latest = put.body.result.version as string
    expect(Number(latest)).toBe(Number(version) + 1)
    const expected = {
      code: 10003,
      message: `could not find version ${version} of ruleset ${id} (its latest is ${latest}; the local platform keeps only the latest version of the http_request_firewall_managed entry point (the WAF migration writes it whole))`
    }
    const old = await send("GET", `/zones/${z}/rulesets/${id}/versions/${version}`)
    expect(old.status).toBe(404)
    expect(firstError(old)).toEqual(expected)
    expect(firstError(await send("GET", `${managedAt}/versions/${version}`))).toEqual(expected)
    // A version it never had is not found, with nothing said about older ones.
    expect(firstError(await send("GET", `/zones/${z}/rulesets/${id}/versions/99`))).toEqual({
      code: 10003,
      message: `could not find version 99 of ruleset ${id} (its latest is ${latest})`
    })
  })
})
