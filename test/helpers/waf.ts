/** A zone's previous WAF for unit tests: the catalog's defaults with the given settings. */
import type { ActionMode, BypassFirewallRule, PageRule, PreviousWaf, Sensitivity } from "../../src/domain/waf.js"
import { PREVIOUS_OWASP_PACKAGE } from "../../src/waf/catalog.js"
import { groupsOf, packagesOf, rulesOf } from "../../src/waf/view.js"

export const previousWaf = (
  o: {
    sensitivity?: Sensitivity
    action?: ActionMode
    waf?: "on" | "off"
    groups?: Record<string, "on" | "off">
    rules?: Record<string, any>
    firewall?: Array<BypassFirewallRule>
    pages?: Array<PageRule>
    overrides?: PreviousWaf["overrides"]
  } = {}
): PreviousWaf => {
  const s = {
    packages: new Map([[PREVIOUS_OWASP_PACKAGE, { sensitivity: o.sensitivity, action_mode: o.action }]]),
    groups: new Map(Object.entries(o.groups ?? {})),
    rules: new Map(Object.entries(o.rules ?? {}))
  }
  return {
    waf: o.waf ?? "on",
    packages: packagesOf("z", s),
    groups: groupsOf(s),
    rules: rulesOf(s),
    overrides: o.overrides ?? [],
    firewall_rules: o.firewall ?? [],
    page_rules: o.pages ?? []
  }
}
