/**
 * The WAF wizard's (./waf-wizard.tsx) data: what it loads for a zone, and the lines that say what a
 * deploy sends and what `u` drops when the overrides were edited.
 */
import * as Effect from "effect/Effect"
import type { WafConfig } from "../../src/domain/waf.js"
import * as Waf from "../../src/services/waf-migration-service.js"
import { configDiff } from "../../src/waf/config-diff.js"
import { wrapText } from "./waf-step-views.js"

export const load = (z: Waf.WafZone) =>
  Effect.gen(function* () {
    const [status, check] = yield* Effect.all([Waf.status(z), Waf.check(z)], { concurrency: 2 })
    // URI-based overrides block the migration: the Check step lists them, to delete them there.
    const overrides = check.reasons?.some((r) => r.code === "uri_override") ? yield* Waf.listOverrides(z) : []
    const preview = status.migration_state === "finished" ? undefined : yield* Waf.preview(z)
    // Under validation the new WAF already runs a configuration (maybe an edited one): finishing
    // sends that one, not the platform's proposal, unless the user edits it again.
    const running =
      status.migration_state === "validation"
        ? yield* Effect.map(Waf.deployed(z), (r): WafConfig => ({ name: r.name, rules: r.rules }))
        : undefined
    return {
      status,
      check,
      overrides,
      preview,
      base: running ?? preview?.config,
      baseName: running ? "configuration running in validation" : "platform's proposed configuration"
    }
  })
export type Data = Effect.Effect.Success<ReturnType<typeof load>>

/** The configuration a deploy starts from, the user's edits of it, and the pane's width. */
export interface Edited {
  readonly base: WafConfig | undefined
  readonly edits: WafConfig | undefined
  readonly baseName: string
  readonly columns: number
}

/** What a deploy sends, in at most `budget` rows of a dialog `width` wide. */
export const sendingLines = (
  { base, edits, baseName, columns }: Edited,
  budget: number,
  width: number
): Array<string> => {
  if (!edits || !base) return [`Sends the ${baseName}, unedited.`]
  const diff = configDiff(base, edits, { descriptions: columns >= 100 }).map((l) => `  - ${l}`)
  if (diff.length === 0) return [`Sends your edited configuration; it is the same as the ${baseName}.`]
  const head = `Sends your EDITED configuration, not the ${baseName}. It differs in:`
  const rowsOf = (l: string) => wrapText(l, width).length
  const shown: Array<string> = []
  let used = rowsOf(head) + 1
  for (const [i, l] of diff.entries()) {
    const last = i === diff.length - 1
    if (used + rowsOf(l) > budget - (last ? 0 : 1)) break
    shown.push(l)
    used += rowsOf(l)
  }
  return [head, ...shown, ...(shown.length < diff.length ? [`  … and ${diff.length - shown.length} more`] : [])]
}

/** What `u` drops, in at most `budget` lines. */
export const undoLines = ({ base, edits, baseName, columns }: Edited, budget: number): Array<string> => {
  const diff = edits && base ? configDiff(base, edits, { descriptions: columns >= 100 }) : []
  const head = `The overrides go back to the ${baseName}; these edits are lost:`
  const room = Math.max(1, budget - 2)
  const shown = diff.slice(0, diff.length > room ? room - 1 : room).map((l) => `  - ${l}`)
  return [
    head,
    ...(diff.length === 0 ? ["  (none: the edited configuration is the same)"] : shown),
    ...(shown.length < diff.length && diff.length > 0 ? [`  … and ${diff.length - shown.length} more`] : [])
  ]
}
