/**
 * What a deploy is about to send, in the words of the override step: how an edited configuration
 * differs from the platform's proposed one (rule overrides, OWASP level, threshold, action), and a
 * short account of a configuration (what was sent, read back from the entry point). Pure.
 */
import type { WafConfig } from "../domain/waf.js"
import { managedRules, owaspSettings } from "./edit.js"

const yesNo = (b: boolean) => (b ? "on" : "off")

/**
 * One line per difference, the OWASP settings first, then one per rule (`rule 518c5de3 (SQLi -
 * UNION based): enabled on -> off, action block -> log`); empty when equal. Without
 * `descriptions` a rule is named by its id alone (narrow panes).
 */
export const configDiff = (
  proposed: WafConfig,
  edited: WafConfig,
  o: { readonly descriptions?: boolean } = {}
): ReadonlyArray<string> => {
  const lines: Array<string> = []
  const o1 = owaspSettings(proposed)
  const o2 = owaspSettings(edited)
  if (o1 && o2) {
    if (o1.paranoia !== o2.paranoia) lines.push(`OWASP paranoia level: PL${o1.paranoia} -> PL${o2.paranoia}`)
    if (o1.threshold !== o2.threshold) lines.push(`OWASP score threshold: ${o1.threshold} -> ${o2.threshold}`)
    if (o1.action !== o2.action) lines.push(`OWASP action: ${o1.action} -> ${o2.action}`)
  }
  const before = new Map(managedRules(proposed).map((r) => [r.id, r]))
  for (const r of managedRules(edited)) {
    const b = before.get(r.id)
    if (b === undefined) continue
    const changes = [
      ...(b.enabled !== r.enabled ? [`enabled ${yesNo(b.enabled)} -> ${yesNo(r.enabled)}`] : []),
      ...(b.action !== r.action ? [`action ${b.action} -> ${r.action}`] : [])
    ]
    if (changes.length > 0)
      lines.push(
        `rule ${r.id.slice(0, 8)}${o.descriptions === false ? "" : ` (${r.description})`}: ${changes.join(", ")}`
      )
  }
  return lines
}

/** A configuration in a few lines: its skip and execute rules, the managed rules it changes, OWASP. */
export const configSummary = (c: Pick<WafConfig, "rules">): ReadonlyArray<string> => {
  const cfg = { name: "", rules: c.rules }
  const skips = c.rules.filter((r) => r.action === "skip").length
  const executes = c.rules.filter((r) => r.action === "execute").length
  const changed = managedRules(cfg).filter((r) => r.overridden)
  const owasp = owaspSettings(cfg)
  return [
    `${c.rules.length} rules: ${skips} skip, ${executes} execute`,
    changed.length === 0
      ? "Cloudflare Managed Ruleset: no rule overrides"
      : `Cloudflare Managed Ruleset: ${changed.length} rule overrides (${changed.map((r) => `${r.id.slice(0, 8)} ${r.enabled ? r.action : "off"}`).join(", ")})`,
    owasp ? `OWASP: PL${owasp.paranoia}, threshold ${owasp.threshold}, action ${owasp.action}` : "OWASP: not deployed"
  ]
}
