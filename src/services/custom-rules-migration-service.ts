/**
 * The migration of a zone's firewall rules to custom rules as the TUI runs it: read the old rules and
 * the custom phase, map them with the one pure mapping (src/firewall/custom-rules.ts), replay a
 * traffic file through both, and apply: write the custom phase first, then pause the old rules that
 * now have a custom rule, so a failure half way never leaves the zone without either.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as readline from "node:readline"
import type { CustomRule, CustomRulesMigration } from "../domain/custom-rule.js"
import { InvalidInput } from "../domain/errors.js"
import type { Rule } from "../domain/firewall.js"
import { migrateFirewallRules } from "../firewall/custom-rules.js"
import { makeCustomRulesReplayer, type CustomRulesReplayReport } from "../firewall/custom-rules-replay.js"
import { allRules, setRulePaused } from "./firewall-service.js"
import { getCustomRules, putCustomRules, type CustomRuleInput } from "./rulesets-service.js"

export interface MigrationPreview {
  /** The zone's firewall rules as listed (creation order). */
  readonly firewallRules: ReadonlyArray<Rule>
  readonly migration: CustomRulesMigration
  /** How many custom rules the zone has now (an apply replaces them). */
  readonly existing: number
}

export const previewMigration = (zoneId: string, plan: string | undefined) =>
  Effect.all([allRules(zoneId), getCustomRules(zoneId)]).pipe(
    Effect.map(([firewallRules, custom]): MigrationPreview => ({
      firewallRules,
      migration: migrateFirewallRules(firewallRules, plan === undefined ? {} : { plan }),
      existing: custom?.rules.length ?? 0
    }))
  )

/** The old rules an apply pauses: those that became a custom rule and still run. */
export const rulesToPause = (p: MigrationPreview): ReadonlyArray<Rule> =>
  p.firewallRules.filter(
    (r) => !r.paused && p.migration.entries.some((e) => e.firewall_rule === r.id && e.custom_rule !== null)
  )

/** Writes the custom phase, then pauses the old rules it replaces; answers how many rules were written and how many were paused. */
export const applyMigration = (zoneId: string, p: MigrationPreview) =>
  Effect.gen(function* () {
    // The mapping writes no block response, the one field whose shapes differ.
    yield* putCustomRules(zoneId, { rules: p.migration.rules as ReadonlyArray<CustomRuleInput> })
    const pause = rulesToPause(p)
    for (const r of pause) yield* setRulePaused(zoneId, r.id, true)
    return { written: p.migration.rules.length, paused: pause.length }
  })

/** Replays a traffic file (one request per line) through the old rules and the new ones. */
export const replayMigrationFile = (
  firewallRules: ReadonlyArray<Rule>,
  customRules: ReadonlyArray<CustomRule>,
  file: string
): Effect.Effect<CustomRulesReplayReport, InvalidInput> =>
  Effect.tryPromise({
    try: async () => {
      if (!fs.statSync(file).isFile()) throw new Error("is not a file")
      const replayer = makeCustomRulesReplayer(firewallRules, customRules)
      const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })
      let n = 0
      for await (const line of rl) replayer.line(line, ++n)
      return replayer.report()
    },
    catch: (e) =>
      new InvalidInput({
        message: `traffic file ${JSON.stringify(file)}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`,
        clientSide: true
      })
  })
