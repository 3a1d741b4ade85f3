/**
 * Units: how `edgectl firewall migrate` words a refusal. A 10110 that is not a parse error (a
 * `matches` above the zone's plan) stays one message (it was glued: "…this zone is on proinvalid
 * expression: …"), and a quota on custom rules points at the custom rules, not the firewall rules.
 */
import { describe, expect, it } from "vitest"
import { explain } from "../../src/cli/commands/firewall/common.js"
import { hintFor } from "../../src/cli/commands/firewall/hints.js"
import { InvalidExpression, QuotaExceeded } from "../../src/domain/errors.js"
import { planGatedMessage } from "../../src/firewall/expression.js"
import { edgectl } from "../helpers/cli.js"

describe("firewall migrate's errors", () => {
  it("a plan-gated expression's message is kept whole", () => {
    const message = `rules[3].expression: ${planGatedMessage("pro")}`
    const e = explain({ zone: "example.com" })(new InvalidExpression({ message, diagnostics: [] }))
    expect(e.message).toBe(message)
  })

  it("a quota on custom rules hints at the custom rules", () => {
    const e = new QuotaExceeded({ message: "rules: a pro zone may have at most 20 custom rules" })
    expect(hintFor({ zone: "example.com", customRules: true })(e)).toBe(
      "delete custom rules you no longer need (edgectl custom-rules list --zone example.com)"
    )
    expect(hintFor({ zone: "example.com" })(e)).toContain("edgectl firewall rules list")
  })

  it("the CLI prints such a refusal as one message (custom-rules add on a Pro zone)", () => {
    const r = edgectl([
      "custom-rules",
      "add",
      "--zone",
      "initech.com",
      "--expression",
      'http.request.uri.path matches "^/x"',
      "--action",
      "block"
    ])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(
      "error: custom-rules add: rules[0].expression: `matches` (regex) needs the Business or Enterprise plan, this zone is on pro [code 10110]\n"
    )
  })
})
