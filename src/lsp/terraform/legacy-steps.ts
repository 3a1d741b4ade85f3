/**
 * What the legacy rewrite (./legacy-plan.ts) says around the rulesets it writes: the
 * plan's notes as comment lines naming each old resource by its address, the provider version's
 * steps (import, `terraform state rm` or `removed` blocks, deleting the HCL), the quota the zone's
 * plan may not have (the plan is not in a file), and the scanner's own finding on an old resource,
 * carrying the fix: one diagnostic per resource.
 */
import type { PlanNote } from "../../domain/migration.js"
import { scanText } from "../../deprecations/scan-text.js"
import { findingOf, scannerNow } from "../deprecations.js"
import { finding, type Fix, type Range } from "../findings.js"
import type { ResourceBlock } from "./analyze.js"
import { literalZoneId, pinText, versionName } from "./firewall-rewrite.js"
import { hclString } from "./ruleset-hcl.js"
import { admits, importId, type ProviderMajor, type ProviderTarget } from "./version.js"

export const RL_PHASE = "http_ratelimit"
export const CUSTOM_PHASE = "http_request_firewall_custom"

/** A plan note as a comment line (without its marker: `#` in HCL, a `"//"` item in JSON), the source named by its Terraform address. */
export const noteLine = (n: PlanNote, names: ReadonlyMap<string, string>): string => {
  let message = n.message
  for (const [id, addr] of names)
    message = message
      .replace(`rate limit ${id}:`, `${addr}:`)
      .replace(`lockdown ${id}:`, `${addr}:`)
      .replace(new RegExp(`\\blockdowns ([^:]*\\b)${id}\\b`), `lockdowns $1${addr}`)
  // The zone's plan is not known in a file: the plan functions map it as Enterprise's, said so.
  message = message
    .replace("the unknown plan offers", "any plan offers")
    .replace("on the unknown plan", "below Enterprise")
  return `${n.severity === "unmapped" ? "not migrated (the resource stays)" : n.severity}: ${message}`
}

/** The plans (by name) whose quota `count` rules exceed: the zone's plan is not known in a file. */
const overQuota = (count: number, limits: Readonly<Record<string, number>>) =>
  Object.entries(limits).filter(([, n]) => count > n)

export const quotaFinding = (
  what: string,
  count: number,
  limits: Readonly<Record<string, number>>,
  at: Range,
  move: string
) => {
  const over = overQuota(count, limits)
  if (over.length === 0) return undefined
  return finding(
    "information",
    "terraform-rewrite-quota",
    `${what}: ${count} rules, more than the ${over.map(([p, n]) => `${p} plan's ${n}`).join(", ")}: on such a plan the platform refuses the ruleset`,
    at,
    { hint: `delete some first, or plan with the zone's real plan: ${move}` }
  )
}

/** The steps of the procedure for the provider version, as comment lines. */
export const steps = (
  t: ProviderTarget,
  major: ProviderMajor,
  zone: string,
  resource: string,
  phase: string,
  from: string,
  old: ReadonlyArray<string>,
  existing: boolean,
  afterwards: ReadonlyArray<string>,
  where = "their HCL"
): Array<string> => {
  const zoneId = literalZoneId(zone)
  const pinned = pinText(t)
  const id = importId(major, zoneId)
  return [
    `Migrated from ${from} by edgectl (the mapping of \`edgectl firewall ${phase === RL_PHASE ? "rate-limits" : "lockdowns"} migrate\`).`,
    `Written for provider ${versionName(major)} (${pinned}).`,
    ...(existing
      ? [`  1. nothing to import: these rules are appended to ${resource}, the zone's ${phase} entry point.`]
      : [
          `  1. if the zone has its ${phase} entry point, import it (a second one is refused):`,
          `     terraform import ${resource} ${id}`,
          `     (Terraform 1.5+: or an import block, to = ${resource} and id = "${id}"; the ruleset id:`,
          `     GET /zones/${zoneId}/rulesets/phases/${phase}/entrypoint, result.id)`
        ]),
    `  2. terraform plan, then apply: the new rules take over while the old ones still run.`,
    `  3. remove the old resources from the state (terraform state rm -dry-run first), before deleting ${where}:`,
    ...old.map((a) => `     terraform state rm ${a}`),
    "     (Terraform 1.7+: or a removed block for each, from = <address> with lifecycle { destroy = false })",
    `  4. delete ${where}.`,
    ...afterwards.map((l) => `  ${l}`)
  ]
}

/** The scanner's finding on an old resource (its deprecation, dates and pin), with the rewrite's fix first. */
export const deprecationFinding = (text: string, b: ResourceBlock, target: ProviderTarget, fix: Fix | undefined) => {
  const start = b.node.startIndex
  const hit = scanText(text.slice(start, b.node.endIndex), "terraform", {
    now: scannerNow(),
    pin: target.constraint
  }).find((h) => h.kind === "terraform")
  if (hit === undefined) return undefined
  const f = findingOf({ ...hit, start: hit.start + start, end: hit.end + start })
  return fix === undefined ? f : { ...f, fixes: [fix, ...(f.fixes ?? [])] }
}

/**
 * What the pinned provider refuses in a rate limiting rule: 5.0-5.4 take only periods of 10, 60, 600
 * and 3600 s (without a pin `terraform init` takes the latest, which takes them all).
 */
export const ratelimitVersionNotes = (t: ProviderTarget, major: ProviderMajor, periods: ReadonlyArray<number>) => {
  const odd = [...new Set(periods.filter((p) => ![10, 60, 600, 3600].includes(p)))]
  if (major !== 5 || odd.length === 0 || t.constraint === undefined || !admits(t.constraint, "5.4.0")) return []
  return [
    `warning: period ${odd.join(", ")} is refused by provider 5.0-5.4 (they take 10, 60, 600 or 3600): pin ${hclString(">= 5.5.0")} or later`
  ]
}
