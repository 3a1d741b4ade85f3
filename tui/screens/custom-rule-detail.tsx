/**
 * How the custom rules panel names and shows a rule: its action in a word or two (a skip names
 * what it skips), `#n (description)` as the dialogs and notices name it, and enter's view of one
 * rule whole (the whole expression wrapped, what it skips, logging, ref, id, version).
 */
import type { ZoneRule } from "../../src/domain/ruleset.js"
import { DetailBox } from "../components/detail-box.js"

/** A custom rule's action as one word or two: a skip names what it skips. */
export const customAction = (r: {
  readonly action: string
  readonly action_parameters?:
    | {
        readonly ruleset?: string | undefined
        readonly products?: ReadonlyArray<string> | undefined
        readonly phases?: ReadonlyArray<string> | undefined
      }
    | undefined
}): string => {
  if (r.action !== "skip") return r.action
  const p = r.action_parameters
  const rest = p?.ruleset === "current" ? ["rest"] : []
  return `skip ${[...rest, ...(p?.products ?? []), ...(p?.phases ?? [])].join(",")}`
}

/** `#3 (block bad bots)`, or `#3` without a description. */
export const ruleLabel = (r: ZoneRule, place: number) => `#${place}${r.description ? ` (${r.description})` : ""}`

export function CustomRuleDetail({ rule, place, height }: { rule: ZoneRule; place: number; height: number }) {
  const p = rule.action_parameters
  const fields: Array<readonly [string, string]> = [
    ["action", customAction(rule)],
    ...(rule.action === "skip"
      ? ([
          [
            "skips",
            [
              ...(p?.ruleset === "current" ? ["the remaining custom rules"] : []),
              ...(p?.products ?? []),
              ...(p?.phases ?? [])
            ].join(", ")
          ],
          ["logging", rule.logging?.enabled === false ? "off" : "on"]
        ] as const)
      : []),
    ...(p?.response !== undefined
      ? ([["response", `${p.response.status_code} ${p.response.content_type}`]] as const)
      : []),
    ["enabled", rule.enabled ? "yes" : "no (kept, not run)"],
    ["ref", rule.ref],
    ["id", rule.id],
    ["version", `${rule.version} · ${rule.last_updated}`]
  ]
  return (
    <DetailBox
      title={`Custom rule ${ruleLabel(rule, place)}`}
      fields={fields}
      textLabel="expression"
      text={rule.expression}
      height={height}
    />
  )
}
