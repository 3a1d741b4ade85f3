/** Reading a zone's previous WAF: which firewall rules and page rules touch it. */
import type { BypassFirewallRule, PageRule } from "../domain/waf.js"

/** Firewall rules with action bypass whose products include the previous WAF (`waf`). */
export const wafBypassRules = (rules: ReadonlyArray<BypassFirewallRule>) =>
  rules.filter((r) => r.action === "bypass" && r.products.includes("waf"))

/**
 * What a page rule does to the WAF: `disable_security`, `off` or `on` (its `waf` action), or
 * undefined when it does not touch it.
 */
export const pageRuleWafEffect = (rule: PageRule): "disable_security" | "off" | "on" | undefined => {
  for (const a of rule.actions) {
    if (a.id === "disable_security") return "disable_security"
    if (a.id === "waf" && (a.value === "off" || a.value === "on")) return a.value
  }
  return undefined
}
