/**
 * What `edgectl firewall lockdowns migrate` does: a zone's Zone Lockdown and User Agent Blocking
 * rules -> WAF custom rules, in one ordered list (src/firewall/lockdown-ua-plan.ts), on the one
 * migration engine through src/services/lockdown-ua-migration-service.ts: this file owns no step.
 * The plan is computed once; `--dry-run` prints it (`--json`: the plan object), the apply sends
 * exactly it, journaled; a re-run finishes an unfinished journal; `--rollback` restores the
 * journal's "before" (refused after --delete-old).
 * `--replay FILE` runs a traffic file through the zone now and the plan's end state (after an apply:
 * the journal's "before" and the zone now), through src/services/legacy-replay-service.ts, and
 * prints it as `firewall migrate --replay` does (./migrate-replay.ts).
 */
import * as Effect from "effect/Effect"
import {
  applyLockdownUa,
  checkLockdownUa,
  lockdownUaDriver,
  lockdownUaJournal,
  planLockdownUa,
  resumeLockdownUa,
  rollbackLockdownUa,
  type LockdownUaJournal,
  type LockdownUaPlan
} from "../../../services/lockdown-ua-migration-service.js"
import { lockdownUaJournalBefore, replayLockdownUa } from "../../../services/legacy-replay-service.js"
import { outcomeText, sentOfKinds } from "../../migration-cli.js"
import { previewRequestsEnd, replayFailures, type MigrationFlow } from "../../migration-runner.js"
import { lockdownUaRows } from "../../../firewall/legacy-migration-rows.js"
import { clip, printLine, printTable } from "../../output.js"
import { migrationCommand } from "./migration-command.js"
import type { Parsed } from "./options.js"

const what = "firewall lockdowns migrate"

/** The source -> custom rules table and the notes. */
export const printLockdownUaPreview = (p: LockdownUaPlan) => {
  printLine(
    `Migration of zone ${p.zone.name}: ${p.before.lockdowns.length} Zone Lockdown and ${p.before.uaRules.length} User Agent Blocking rule(s) -> custom rules`
  )
  if (p.mapping.length > 0) {
    printLine("")
    printTable(
      ["SOURCE", "WAS", "BECOMES (#: place in the custom rules)"],
      lockdownUaRows(p, clip).map((r) => [r.source, r.was, r.becomes])
    )
  }
  if (p.notes.length > 0) {
    printLine("")
    for (const n of p.notes) printLine(`${n.severity}: ${n.message}`)
  }
}

const endText = (p: LockdownUaPlan) => {
  const changed = p.steps.filter((s) => s.key.startsWith("pause:") || s.key.startsWith("delete:")).length
  return `zone ${p.zone.name} would have ${p.expected.customRules.length} custom rule(s); ${changed} Zone Lockdown / UA rule(s) ${p.delete_old ? "deleted" : "paused"}.`
}

export const lockdownUaFlow: MigrationFlow<LockdownUaPlan, LockdownUaJournal> = {
  command: { what, kind: lockdownUaDriver.kind, commands: lockdownUaDriver.commands },
  title: "Zone Lockdown migration",
  rollbackQuestion: (zone) =>
    `Roll back the Zone Lockdown migration of zone ${zone}: restore its custom rules and resume its Zone Lockdown and UA rules?`,
  finishing: (zone) => `finishing zone ${zone}`,
  journal: lockdownUaJournal,
  rollback: rollbackLockdownUa,
  resume: resumeLockdownUa,
  plan: planLockdownUa,
  nothing: (plan, zone) =>
    plan.before.lockdowns.length + plan.before.uaRules.length === 0
      ? `Nothing to migrate: zone ${zone} has no Zone Lockdown or User Agent Blocking rules.`
      : undefined,
  check: checkLockdownUa,
  printDryRun: previewRequestsEnd(printLockdownUaPreview, endText),
  printPreview: printLockdownUaPreview,
  endText,
  question: (plan, zone, deleteOld) =>
    `Write ${plan.expected.customRules.length} custom rule(s) on zone ${zone} and ${deleteOld ? "delete" : "pause"} ${plan.steps.filter((s) => s.key !== "entrypoint").length} Zone Lockdown / UA rule(s)?`,
  apply: applyLockdownUa,
  done: (plan, zone, done) => [
    `Migrated zone ${zone}: ${plan.expected.customRules.length} custom rule(s); ${sentOfKinds(done, ["pause", "delete"])} Zone Lockdown / UA rule(s) ${plan.delete_old ? "deleted" : "paused"}; ${outcomeText(done)}.`
  ]
}

export const lockdownsMigrate = (o: Parsed<"lockdownsMigrate">) =>
  migrationCommand(
    what,
    o,
    lockdownUaFlow,
    (z, file) =>
      Effect.gen(function* () {
        const plan = yield* planLockdownUa(z, false)
        const before = yield* lockdownUaJournalBefore(z)
        return yield* replayFailures(what, replayLockdownUa(plan, file, before, z.plan?.legacy_id))
      }),
    { zone: o.zone, customRules: true }
  )
