/**
 * What the Terraform rewrites say about a zone they write no ruleset for, beyond a resource they
 * cannot read: the same zone written two ways (`data.cloudflare_zone.z.id` and `….zone_id`, one
 * zone id: two rulesets would be two entry points of one phase, and the second is refused), and a
 * zone whose ruleset of the phase the file already has (a second entry point is refused too).
 */
import { finding, type Finding, type Range } from "../findings.js"

/** The zone a `zone_id` expression names: `.id` and `.zone_id` of one zone resource or data source are one zone. */
const identity = (zone: string) => zone.replace(/\.(zone_)?id$/, ".<zone>")

/**
 * The groups (by key: provider and zone expression) whose zone another group writes another way:
 * a warning on each (`at`: where), and their keys, which the rewrite leaves without a ruleset.
 */
export const zoneSpellings = <G extends { readonly zone: string; readonly provider: string | undefined }>(
  groups: ReadonlyMap<string, G>,
  at: (g: G) => Range
): { readonly keys: ReadonlySet<string>; readonly findings: ReadonlyArray<Finding> } => {
  const byZone = new Map<string, Array<[string, G]>>()
  for (const [k, g] of groups) {
    const id = `${g.provider ?? ""}\u0000${identity(g.zone)}`
    byZone.set(id, [...(byZone.get(id) ?? []), [k, g]])
  }
  const keys = new Set<string>()
  const findings: Array<Finding> = []
  for (const same of byZone.values()) {
    const spellings = [...new Set(same.map(([, g]) => g.zone))]
    if (spellings.length < 2) continue
    for (const [k, g] of same) {
      keys.add(k)
      findings.push(
        finding(
          "warning",
          "terraform-rewrite-unclear",
          `zone_id = ${g.zone}: the file names this zone as ${spellings.join(" and as ")}; one ruleset per zone and phase is written, so none is written for it until one spelling is used`,
          at(g),
          { hint: `write zone_id the same way (${spellings[0]}) in every resource of the zone` }
        )
      )
    }
  }
  return { keys, findings }
}

/** The reason a zone gets no rewrite: the file already has its ruleset of the phase. */
export const existingRulesetFinding = (zone: string, phase: string, ruleset: string, at: Range): Finding =>
  finding(
    "information",
    "terraform-rewrite-existing-ruleset",
    `zone_id = ${zone} already has ${ruleset} in phase ${phase}: no second ruleset is written (the platform refuses a second entry point of a phase)`,
    at,
    { hint: `add the mapped rules to ${ruleset} by hand` }
  )
