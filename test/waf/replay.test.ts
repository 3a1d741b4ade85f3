/** Units: both WAF versions evaluated on the sample traffic; disagreements with the rules responsible. */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { HTTP_SCHEME, RequestContext } from "../../src/rules/index.js"
import { CATALOG, OWASP_RULESET, OWASP_SCORE_RULE } from "../../src/waf/catalog.js"
import { newEngine, previousEngine } from "../../src/waf/engines.js"
import { planMigration } from "../../src/waf/mapping.js"
import { makeReplayer, replayText, withDerivedFields } from "../../src/waf/replay.js"
import { previousWaf } from "../helpers/waf.js"

const sample = fs.readFileSync(path.join(import.meta.dirname, "../../fixtures/waf/traffic-sample.jsonl"), "utf8")
const bypass = {
  id: "fw-webhooks",
  expression: 'starts_with(http.request.uri.path, "/webhooks/")',
  action: "bypass",
  products: ["waf"],
  priority: null,
  paused: false
}

const req = (
  path: string,
  query = "",
  headers: Record<string, Array<string>> = { "user-agent": ["Mozilla/5.0"], accept: ["*/*"] }
) =>
  new RequestContext(
    withDerivedFields({
      "http.request.method": "GET",
      "http.host": "globex.com",
      "http.request.uri.path": path,
      "http.request.uri.query": query,
      "http.request.headers": headers
    }),
    HTTP_SCHEME
  )

describe("replay", () => {
  const prev = previousWaf({ sensitivity: "high", action: "block", firewall: [bypass] })
  const report = replayText(prev, planMigration(prev).config, sample)

  it("reads every request of the sample and reports the disagreements with their rules", () => {
    expect(report.problems).toEqual([])
    expect(report.requests).toBe(32)
    expect(report.agreed + report.disagreements.length).toBe(32)
    const byId = new Map(report.disagreements.map((d) => [d.id, d]))
    const spring = byId.get("spring4shell")!
    expect(spring.kind).toBe("new-only")
    expect(spring.previous.action).toBe("pass")
    expect(spring.next).toMatchObject({
      action: "block",
      rules: [{ source: "Cloudflare Managed Ruleset", description: "Spring - Code Injection - CVE:CVE-2022-22965" }]
    })
    const ua = byId.get("no-user-agent")!
    expect(ua.kind).toBe("different-action")
    expect(ua.previous.rules.map((r) => r.id)).toEqual(["100015"])
    expect(ua.summary).toBe("GET globex.com/api/health")
  })
  it("agrees on requests both block and on requests a bypass rule lets through", () => {
    const ids = new Set(report.disagreements.map((d) => d.id))
    for (const id of ["sqli-union", "xss-script", "log4j", "webhook", "home"]) expect(ids.has(id)).toBe(false)
    const p = previousEngine(prev).decide(req("/webhooks/payments", "sig=<script>"))
    const n = newEngine(planMigration(prev).config).decide(req("/webhooks/payments", "sig=<script>"))
    expect(p.skippedBy).toMatchObject({ source: "firewall rule", id: "fw-webhooks" })
    expect(n.skippedBy?.description).toMatch(/Migrated from firewall rule fw-webhooks/)
  })
  // Matches most OWASP rules of both versions and no Cloudflare rule once the Specials group is off.
  const attack = () =>
    req("/a%00", "q=information_schema+union+select+'+or+'1'='1+<script+javascript:+;cat+|id+../+%0d%0a", {})
  const specialsOff = { groups: { [CATALOG.groups.find((g) => g.name === "Cloudflare Specials")!.id]: "off" as const } }

  it("scores OWASP rules: the threshold decides, the responsible rules are listed with the score rule", () => {
    const p = previousWaf({ sensitivity: "high", action: "block", ...specialsOff })
    const n = newEngine(planMigration(p).config).decide(attack())
    expect(n).toMatchObject({ acted: true, action: "block" })
    expect(n.score).toBeGreaterThanOrEqual(40)
    expect(n.rules.at(-1)!.id).toBe(OWASP_SCORE_RULE)
    const before = previousEngine(p).decide(attack())
    expect(before).toMatchObject({ acted: true, action: "block" })
    expect(before.rules.at(-1)!.id).toBe("981176")
    // A threshold the request does not reach: nothing acts.
    const config = planMigration(p).config
    const raised = {
      ...config,
      rules: config.rules.map((r) =>
        r.action_parameters?.id === OWASP_RULESET
          ? {
              ...r,
              action_parameters: {
                ...r.action_parameters,
                overrides: {
                  ...r.action_parameters.overrides,
                  rules: [{ id: OWASP_SCORE_RULE, score_threshold: 200, action: "block" }]
                }
              }
            }
          : r
      )
    }
    expect(newEngine(raised).decide(attack()).acted).toBe(false)
  })
  it("simulate logs instead of acting, in both versions", () => {
    const p = previousWaf({ sensitivity: "high", action: "simulate", ...specialsOff })
    const before = previousEngine(p).decide(attack())
    const after = newEngine(planMigration(p).config).decide(attack())
    expect(before.acted).toBe(false)
    expect(before.logged.some((x) => x.id === "981176")).toBe(true)
    expect(after.acted).toBe(false)
    expect(after.logged.some((x) => x.id === OWASP_SCORE_RULE)).toBe(true)
  })
  it("WAF-off page rules and the zone switch", () => {
    const p = previousWaf({
      pages: [
        {
          id: "pr1",
          targets: [{ target: "url", constraint: { operator: "matches", value: "globex.com/legacy/*" } }],
          actions: [{ id: "waf", value: "off" }],
          priority: 1,
          status: "active"
        }
      ]
    })
    const r = req("/legacy/x", "q=1+union+select+2")
    expect(previousEngine(p).decide(r).skippedBy).toMatchObject({ source: "page rule", id: "pr1" })
    expect(newEngine(planMigration(p).config).decide(r).skippedBy?.description).toMatch(/page rule pr1/)
    const off = previousWaf({ waf: "off" })
    expect(previousEngine(off).decide(r).acted).toBe(false)
    expect(newEngine(planMigration(off).config).decide(r).acted).toBe(false)
  })
  it("reports bad lines without stopping", () => {
    const r = makeReplayer(prev, planMigration(prev).config)
    r.line("{not json", 1)
    r.line("[1]", 2)
    r.line('{"http.request.uri.pathh": "/"}', 3)
    r.line('{"http.request.uri.path": "/"}', 4)
    const rep = r.report()
    expect(rep.requests).toBe(1)
    expect(rep.problems.map((p) => p.line)).toEqual([1, 2, 3])
    expect(rep.problems[2]!.message).toMatch(/pathh/)
  })
})
