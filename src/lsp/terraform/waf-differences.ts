/**
 * Where the previous-WAF rewrite's ruleset differs from what `waf config` makes of the zone, so
 * that its steps do not promise "terraform plan shows no changes" when following them changes
 * what the zone does: page rules that turn the WAF off or disable security (waf config writes a
 * skip rule for each, the rewrite reads no page rule) and the zone's `waf` setting
 * (`cloudflare_zone_settings_override`, 5.x `cloudflare_zone_setting`; the rewrite takes it as on).
 * Read from the HCL tree: the settings may sit in a nested block (`actions { … }`, 3.x/4.x) or
 * an object attribute (`actions = { … }`, 5.x).
 */
import type { HclNode } from "../hcl.js"
import type { ResourceBlock } from "./analyze.js"
import { exprText, perInstance } from "./firewall-read.js"

/** Each `key = value` below a node (attributes of nested blocks, elements of objects), with its value's text. */
const settings = (n: HclNode, out: Array<{ key: string; value: string }> = []) => {
  for (const c of n.namedChildren) {
    if (c === null) continue
    if (c.type === "attribute" || c.type === "object_elem") {
      const [k, v] = c.namedChildren
      const key = k?.text.replace(/^"|"$/g, "")
      if (key !== undefined && v !== undefined && v !== null) out.push({ key, value: v.text })
    }
    settings(c, out)
  }
  return out
}

/** The resource's zone is the group's (same `zone_id` and `provider`), or cannot be told. */
const sameZone = (text: string, b: ResourceBlock, zone: string, provider: string | undefined) => {
  const z = exprText(text, b, "zone_id")
  return z === undefined || perInstance(z) || (z === zone && exprText(text, b, "provider") === provider)
}

/** One line per difference between the ruleset written for the zone and `waf config`'s (none: no change). */
export const wafDifferences = (
  text: string,
  blocks: ReadonlyArray<ResourceBlock>,
  zone: string,
  provider: string | undefined
): Array<string> => {
  const out: Array<string> = []
  for (const b of blocks) {
    if (!sameZone(text, b, zone, provider)) continue
    const set = settings(b.node)
    const address = `${b.type}.${b.name}`
    if (b.type === "cloudflare_page_rule") {
      const off = set.some(
        (s) => (s.key === "disable_security" && s.value !== "false") || (s.key === "waf" && s.value !== '"on"')
      )
      if (off)
        out.push(
          `${address} turns the WAF off or disables security: waf config makes it a skip rule, which this ruleset lacks (applying it deletes that skip rule; add it by hand)`
        )
    } else if (
      (b.type === "cloudflare_zone_settings_override" && set.some((s) => s.key === "waf" && s.value !== '"on"')) ||
      // 5.x: one resource per setting.
      (b.type === "cloudflare_zone_setting" &&
        b.attributes.get("setting_id")?.value === "waf" &&
        b.attributes.get("value")?.value !== "on")
    )
      out.push(
        `${address} sets waf: waf config deploys the managed rulesets disabled while it is off, this ruleset enabled`
      )
  }
  return out
}
