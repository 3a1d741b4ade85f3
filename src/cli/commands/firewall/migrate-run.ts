/**
 * What `edgectl firewall migrate` does: firewall rules -> WAF custom rules, on the one migration
 * engine (src/services/migration-engine.ts) through the service the TUI uses too
 * (src/services/custom-rules-migration-service.ts): this file owns no step. The plan is computed
 * once; `--dry-run` prints it (`--json`: the plan object), the apply sends exactly it, journaled.
 * A re-run finishes an unfinished journal (or pauses migrated rules found active); `--rollback`
 * restores the journal's "before". A stop (a refusal, a lost connection, SIGINT/SIGTERM/SIGHUP)
 * says what was written and prints the commands that finish and undo it. `--replay` runs a traffic file
 * through the zone before and after the plan (./migrate-replay.ts).
 */
import * as Effect from "effect/Effect"
import {
  applyZoneMigration,
  checkZoneMigration,
  firewallMigrationDriver,
  journalBefore,
  planZoneMigration,
  resumeZoneMigration,
  rollbackZoneMigration,
  zoneMigrationJournal,
  type FirewallJournal,
  type FirewallMigrationPlan
} from "../../../services/custom-rules-migration-service.js"
import { outcomeText, sentOfKinds } from "../../migration-cli.js"
import type { MigrationFlow } from "../../migration-runner.js"
import { printLine } from "../../output.js"
import { migrationCommand } from "./migration-command.js"
import type { Parsed } from "./options.js"
import { endText, printDryRun, printPreview } from "./migrate-print.js"
import { replayFirewallPlan } from "./migrate-replay.js"

const what = "firewall migrate"

export const firewallFlow: MigrationFlow<FirewallMigrationPlan, FirewallJournal> = {
  command: { what, kind: firewallMigrationDriver.kind, commands: firewallMigrationDriver.commands },
  title: "migration",
  rollbackQuestion: (zone) =>
    `Roll back the migration of zone ${zone}: restore its custom rules and its firewall rules' paused flags as they were before it?`,
  finishing: (zone) => `finishing the migration of zone ${zone}`,
  journal: zoneMigrationJournal,
  rollback: rollbackZoneMigration,
  resume: resumeZoneMigration,
  printUnfinished: (steps) => {
    printLine(`Dry run: nothing was changed. Finishing it re-reads the zone and sends the steps not in effect among:`)
    for (const s of steps) printLine(`  ${s.method} ${s.path}  (${s.description})`)
  },
  plan: planZoneMigration,
  nothing: (plan, zone) =>
    plan.before.firewallRules.length === 0 ? `Nothing to migrate: zone ${zone} has no firewall rules.` : undefined,
  check: checkZoneMigration,
  printDryRun,
  printPreview,
  endText,
  question: (plan, zone, deleteOld) =>
    `Write ${plan.expected.customRules.length} custom rule(s) on zone ${zone} and ${deleteOld ? "delete" : "pause"} ${plan.steps.length - (plan.steps[0]?.key === "entrypoint" ? 1 : 0)} firewall rule(s)?`,
  apply: applyZoneMigration,
  done: (plan, zone, done) => {
    // What this run sent: another run may have written some of the steps meanwhile (outcomeText counts them).
    const lines = [
      `Migrated zone ${zone}: ${plan.expected.customRules.length} custom rule(s); ${sentOfKinds(done, ["pause", "delete"])} firewall rule(s) ${plan.delete_old ? "deleted" : "paused"}; ${outcomeText(done)}.`
    ]
    const left = plan.migration.entries.filter((e) => e.custom_rule === null).map((e) => e.firewall_rule)
    if (left.length > 0) lines.push(`Not migrated, left as they are: ${left.join(", ")} (see the notes above).`)
    return lines
  }
}

export const migrate = (o: Parsed<"migrate">) =>
  migrationCommand(
    what,
    o,
    firewallFlow,
    (z, file) =>
      Effect.gen(function* () {
        const plan = yield* planZoneMigration(z, false)
        return yield* replayFirewallPlan(plan, file, yield* journalBefore(z))
      }),
    { zone: o.zone, customRules: true }
  )
