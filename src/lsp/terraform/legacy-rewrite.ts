/**
 * The HCL side of the legacy products' rewrite (./legacy-plan.ts, which plans it for
 * both syntaxes): the file's resources read as data, and each write as HCL in the pinned
 * provider's syntax (`customRulesetHcl`), the steps and notes as `#` comments after the zone's
 * last old resource; a ruleset of the phase already in the file gets the rules appended
 * (./legacy-append.ts). The fix is offered on the scanner's own finding of each old
 * resource (./legacy-steps.ts).
 */
import type { Range, TextEdit } from "../findings.js"
import type { ResourceBlock, TerraformRewrite } from "./analyze.js"
import { customRulesetHcl } from "./custom-rules-hcl.js"
import { address, exprText } from "./firewall-read.js"
import { appendRules } from "./legacy-append.js"
import { legacyPlan, type LegacySyntax } from "./legacy-plan.js"
import { dataOf } from "./legacy-read.js"
import { LEGACY_PRODUCT_RESOURCES } from "./legacy-types.js"
import { deprecationFinding } from "./legacy-steps.js"

const READ = new Set([...LEGACY_PRODUCT_RESOURCES, "cloudflare_ruleset", "cloudflare_firewall_rule"])

/** The fixes for the file's legacy security resources (per zone and phase) and the findings on what they leave. */
export const legacyRewrite: TerraformRewrite = (text, blocks, target) => {
  const major = target.constraint === undefined ? 5 : target.major
  const rangeOf = (b: ResourceBlock, k?: string): Range => {
    const n = (k !== undefined ? b.attributes.get(k)?.node : undefined) ?? b.typeLabel
    return { start: n.startIndex, end: n.endIndex }
  }
  const syntax: LegacySyntax<ResourceBlock> = {
    range: rangeOf,
    address,
    where: "their HCL",
    write: (w) => {
      const at = Math.max(...w.sources.map((b) => b.node.endIndex))
      const comments = w.comments.map((l) => `# ${l}`).join("\n")
      if (w.existing !== undefined) {
        const appended = appendRules(w.existing, w.rules, major, w.before)
        if ("why" in appended) return appended
        return { edits: [...appended.edits, { range: { start: at, end: at }, newText: `\n\n${comments}` }] }
      }
      const out = customRulesetHcl(
        { resource: w.name, zone: w.zone, name: "default", phase: w.phase, rules: w.rules },
        major
      )
      if (!("text" in out)) return { why: out.problems.join("; "), hint: "rewrite these rules by hand" }
      const provider = exprText(text, w.sources[0]!, "provider")
      const hcl = out.text
        .replace(/^(resource .*\{\n)/, `$1${provider !== undefined ? `  provider = ${provider}\n\n` : ""}`)
        .replace(/\n$/, "")
      const edits: Array<TextEdit> = [{ range: { start: at, end: at }, newText: `\n\n${comments}\n${hcl}` }]
      return { edits }
    }
  }
  const { fixes, findings } = legacyPlan(
    blocks
      .filter((b) => READ.has(b.type))
      .map((b) => {
        const zone = exprText(text, b, "zone_id")
        const provider = exprText(text, b, "provider")
        return {
          s: b,
          type: b.type,
          name: b.name,
          key: `${provider ?? ""}\u0000${zone}`,
          zone,
          provider,
          // A firewall rule tells only its zone (its custom rules come first): its body is not read.
          data: b.type === "cloudflare_firewall_rule" ? {} : dataOf(b)
        }
      }),
    target,
    syntax
  )
  for (const b of blocks)
    if (LEGACY_PRODUCT_RESOURCES.includes(b.type)) {
      const f = deprecationFinding(text, b, target, fixes.get(b))
      if (f !== undefined) findings.push(f)
    }
  return { fixes, findings }
}
