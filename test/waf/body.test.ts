/** Units: the entry point body rules (id/version/ref per mode, fields named) and the wizard's config edits. */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { CATALOG, CLOUDFLARE_MANAGED_RULESET, OWASP_RULESET, OWASP_SCORE_RULE } from "../../src/waf/catalog.js"
import { checkEntrypointBody } from "../../src/waf/body.js"
import {
  cycleAction,
  cycleOwaspAction,
  cycleParanoia,
  cycleThreshold,
  managedRules,
  owaspSettings,
  toggleRule
} from "../../src/waf/edit.js"
import { planMigration } from "../../src/waf/mapping.js"
import { checkOverrideBody } from "../../src/server/waf-override-body.js"
import { previousWaf } from "../helpers/waf.js"

const config = planMigration(
  previousWaf({ sensitivity: "high", action: "block", rules: { "100043A": "disable" } })
).config
const message = (e: Either.Either<unknown, { message: string }>) =>
  Either.match(e, { onLeft: (x) => x.message, onRight: () => "ok" })
const strip = (c: typeof config) => ({ ...c, rules: c.rules.map(({ id: _i, version: _v, ref: _r, ...rest }) => rest) })

describe("entry point body", () => {
  it("pending: the config as returned is accepted; a missing id, version or ref is named", () => {
    expect(message(checkEntrypointBody(config, "pending"))).toBe("ok")
    for (const k of ["id", "version", "ref"] as const) {
      const body = {
        ...config,
        rules: config.rules.map((r, i) =>
          i === 1 ? Object.fromEntries(Object.entries(r).filter(([x]) => x !== k)) : r
        )
      }
      expect(message(checkEntrypointBody(body, "pending"))).toMatch(
        new RegExp(`^rules\\[1\\]\\.${k}: the final update \\(waf_migration=pending\\) must carry id, version and ref`)
      )
    }
    expect(message(checkEntrypointBody({ ...config, rules: [{ ...config.rules[0], id: 7 }] }, "pending"))).toBe(
      "rules[0].id: must be a string, got 7"
    )
  })
  it("validation: id, version and ref must be omitted", () => {
    expect(message(checkEntrypointBody(strip(config), "validation"))).toBe("ok")
    expect(message(checkEntrypointBody(config, "validation"))).toMatch(
      /^rules\[0\]\.id: the validation update \(waf_migration=validation\) omits id, version and ref; remove id/
    )
  })
  it("names bad fields: action, expression, ruleset id, rule override ids, thresholds, skip parameters", () => {
    const r0 = strip(config).rules[0]!
    const one = (rule: unknown) => message(checkEntrypointBody({ name: "default", rules: [rule] }, "validation"))
    expect(one({ ...r0, action: "block" })).toMatch(/^rules\[0\]\.action: must be execute or skip/)
    expect(one({ ...r0, expression: 'http.request.uri.path eq "/' })).toMatch(/^rules\[0\]\.expression: /)
    expect(one({ ...r0, action_parameters: { id: "nope" } })).toMatch(
      /^rules\[0\]\.action_parameters\.id: must be a managed ruleset id/
    )
    expect(
      one({ ...r0, action_parameters: { id: CLOUDFLARE_MANAGED_RULESET, overrides: { rules: [{ id: "x" }] } } })
    ).toMatch(/overrides\.rules\[0\]\.id: must be the id of a rule of Cloudflare Managed Ruleset/)
    expect(
      one({
        ...r0,
        action_parameters: { id: OWASP_RULESET, overrides: { rules: [{ id: OWASP_SCORE_RULE, score_threshold: 0 }] } }
      })
    ).toMatch(/score_threshold: must be an integer between 1 and 1000, got 0/)
    expect(
      one({
        ...r0,
        action_parameters: {
          id: OWASP_RULESET,
          overrides: { categories: [{ category: "paranoia-level-9", enabled: false }] }
        }
      })
    ).toMatch(/categories\[0\]\.category: must be a category/)
    expect(one({ action: "skip", expression: "true", action_parameters: {} })).toMatch(
      /exactly one of ruleset, rulesets and rules, got none/
    )
    expect(one({ action: "skip", expression: "true", action_parameters: { rulesets: [OWASP_RULESET] } })).toBe("ok")
    expect(message(checkEntrypointBody({ name: "x" }, "pending"))).toMatch(/^rules: must be an array/)
    expect(message(checkEntrypointBody("nope", undefined))).toMatch(/^body: must be an object/)
  })
  it("without a catalog (a remote platform): managed ruleset, rule and category ids for form only, the rest as always", () => {
    const r0 = strip(config).rules[0]!
    const one = (rule: unknown) => message(checkEntrypointBody({ name: "default", rules: [rule] }, "validation", null))
    const unknownId = "77454fe2d30c4220b5701f6fdfb893ba"
    expect(
      one({
        ...r0,
        action_parameters: {
          id: unknownId,
          overrides: { categories: [{ category: "wordpress", enabled: false }], rules: [{ id: "abc", action: "log" }] }
        }
      })
    ).toBe("ok")
    expect(one({ action: "skip", expression: "true", action_parameters: { rules: { [unknownId]: ["abc"] } } })).toBe(
      "ok"
    )
    expect(one({ ...r0, action_parameters: { id: "" } })).toBe(
      'rules[0].action_parameters.id: must be a managed ruleset id, a non-empty string, got ""'
    )
    expect(one({ ...r0, action_parameters: { id: unknownId, overrides: { rules: [{ id: 7 }] } } })).toBe(
      "rules[0].action_parameters.overrides.rules[0].id: must be a non-empty string, got 7"
    )
    expect(one({ ...r0, action_parameters: { id: unknownId, overrides: { action: "deny" } } })).toMatch(
      /^rules\[0\]\.action_parameters\.overrides\.action: must be one of block, /
    )
    expect(one({ ...r0, expression: 'http.request.uri.path eq "/' })).toMatch(/^rules\[0\]\.expression: /)
  })
  it("URI-based override bodies", () => {
    expect(message(checkOverrideBody({ urls: ["a.com/*"], rules: { "100000": "block" } }, "id", false))).toBe("ok")
    expect(message(checkOverrideBody({ urls: [], rules: {} }, "id", false))).toMatch(/^urls: must be a non-empty array/)
    expect(message(checkOverrideBody({ urls: ["a"], groups: { nope: "off" } }, "id", false))).toMatch(
      /^groups\.nope: no group/
    )
    expect(message(checkOverrideBody({ urls: ["a"], rules: { "100000": "nuke" } }, "id", false))).toMatch(
      /^rules\.100000: must be one of default, disable, simulate, block, challenge/
    )
    expect(message(checkOverrideBody({ urls: ["a"], rules: {} }, "id", true))).toMatch(
      /^rewrite_action: an update sends id, urls, rules and rewrite_action/
    )
    expect(message(checkOverrideBody({ urls: ["a"], rules: {}, priority: 1.5 }, "id", false))).toMatch(/^priority: /)
  })
})

describe("config edits (the wizard's override step)", () => {
  it("toggles a rule and cycles its action; back to default removes the override", () => {
    const id = CATALOG.ruleMap["100000"]!
    const off = toggleRule(config, id)
    expect(managedRules(off).find((r) => r.id === id)).toMatchObject({ enabled: false, overridden: true })
    expect(managedRules(toggleRule(off, id)).find((r) => r.id === id)).toMatchObject({
      enabled: true,
      overridden: false
    })
    const a1 = cycleAction(config, id)
    expect(managedRules(a1).find((r) => r.id === id)!.action).toBe("managed_challenge")
    let c = a1
    for (let i = 0; i < 4; i++) c = cycleAction(c, id)
    expect(managedRules(c).find((r) => r.id === id)).toMatchObject({ action: "block", overridden: false })
    expect(managedRules(config).find((r) => r.id === "23ee7cebe6e8443e99ecf932ab579455")).toMatchObject({
      enabled: false,
      overridden: true
    })
  })
  it("OWASP: paranoia level, threshold and action, as overrides of the ruleset", () => {
    expect(owaspSettings(config)).toEqual({ paranoia: 2, threshold: 40, action: "block" })
    const c = cycleOwaspAction(cycleThreshold(cycleParanoia(config)))
    expect(owaspSettings(c)).toEqual({ paranoia: 3, threshold: 60, action: "managed_challenge" })
    const exec = c.rules.find((r) => r.action_parameters?.id === OWASP_RULESET)!
    expect(exec.action_parameters!.overrides!.categories).toEqual([{ category: "paranoia-level-4", enabled: false }])
    expect(message(checkEntrypointBody(c, "pending"))).toBe("ok")
  })
})
