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
import * as Option from "effect/Option"
import {
  applyLockdownUa,
  checkLockdownUa,
  lockdownUaDriver,
  lockdownUaJournal,
  planLockdownUa,
  resumeLockdownUa,
  rollbackLockdownUa,
  type LockdownUaPlan
} from "../../../services/lockdown-ua-migration-service.js"
import { lockdownUaJournalBefore, replayLockdownUa } from "../../../services/legacy-replay-service.js"
import { resolveZone } from "../../../services/zones-service.js"
import { migrationTargetLayer } from "../../environment.js"
import {
  journaled,
  type MigrationCommand,
  outcomeText,
  printRequests,
  progressOf,
  sentOfKinds
} from "../../migration-cli.js"
import { inputFile, opt } from "../../options.js"
import { clip, printJson, printLine, printTable } from "../../output.js"
import { confirmOrRefuse } from "../../prompt.js"
import { CliFailure, usage } from "../../run.js"
import { runFw } from "./common.js"
import type { Parsed } from "./inputs.js"
import { reportReplay } from "./migrate-replay.js"

const what = "firewall lockdowns migrate"
const command: MigrationCommand = { what, kind: lockdownUaDriver.kind, commands: lockdownUaDriver.commands }

const cancelled = () =>
  Effect.fail(new CliFailure({ text: `error: ${what}: cancelled; nothing was changed`, exitCode: 1 }))

/** The source -> custom rules table and the notes. */
const printPreview = (p: LockdownUaPlan) => {
  const byRef = new Map(p.expected.customRules.map((r, i) => [r.ref, { r, i }]))
  const source = new Map<string, string>([
    ...p.before.lockdowns.map(
      (l) => [l.id, `lockdown: ${clip(l.urls.join(" "), 30)}${l.paused ? ", paused" : ""}`] as const
    ),
    ...p.before.uaRules.map(
      (u) => [u.id, `UA ${u.mode}: ${clip(u.configuration.value, 24)}${u.paused ? ", paused" : ""}`] as const
    )
  ])
  printLine(
    `Migration of zone ${p.zone.name}: ${p.before.lockdowns.length} Zone Lockdown and ${p.before.uaRules.length} User Agent Blocking rule(s) -> custom rules`
  )
  if (p.mapping.length > 0) {
    printLine("")
    printTable(
      ["SOURCE", "WAS", "BECOMES (#: place in the custom rules)"],
      p.mapping.map((m) => [
        m.rule,
        source.get(m.rule) ?? "",
        m.refs
          .map((ref) => {
            const e = byRef.get(ref)
            return e === undefined ? ref : `#${e.i + 1} ${e.r.action}${e.r.enabled === false ? " (disabled)" : ""}`
          })
          .join(", ")
      ])
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

export const lockdownsMigrate = (o: Parsed<"lockdownsMigrate">) =>
  Effect.gen(function* () {
    if (o.zone.trim() === "") return yield* Effect.fail(usage("--zone needs a value, got an empty string"))
    if (o.rollback && (o.dryRun || o.deleteOld))
      return yield* Effect.fail(
        usage("--rollback restores the journal's before; it cannot be used with --dry-run or --delete-old")
      )
    const replayFile = opt(o.replay)
    if (replayFile !== undefined && (o.dryRun || o.deleteOld || o.yes || o.rollback))
      return yield* Effect.fail(
        usage("--replay only compares; it cannot be used with --dry-run, --delete-old, --rollback or --yes")
      )
    if (replayFile !== undefined && replayFile !== "-") yield* inputFile("replay", replayFile)
    const journals = migrationTargetLayer({ remote: o.remote, persistTo: Option.getOrUndefined(o.persistTo) })
    const work = Effect.gen(function* () {
      const z = yield* resolveZone(o.zone)
      if (replayFile !== undefined) {
        const report = yield* Effect.catchTag(
          replayLockdownUa(
            yield* planLockdownUa(z, false),
            replayFile,
            yield* lockdownUaJournalBefore(z),
            z.plan?.legacy_id
          ),
          "InvalidInput",
          (e) => Effect.fail(new CliFailure({ text: `error: ${what} --replay: ${e.message}`, exitCode: 1 }))
        )
        return yield* reportReplay(what, o, z.name, report)
      }
      const progress = progressOf(o.json)
      if (o.rollback) {
        if ((yield* lockdownUaJournal(z)) !== undefined) {
          const yes = yield* confirmOrRefuse(
            `Roll back the Zone Lockdown migration of zone ${z.name}: restore its custom rules and resume its Zone Lockdown and UA rules?`,
            { yes: o.yes },
            { what, doing: `rolling back zone ${z.name}`, hint: "pass --yes to roll back" }
          )
          if (!yes) return yield* cancelled()
        }
        const done = yield* journaled(command, z, rollbackLockdownUa(z, progress))
        if (o.json) return printJson({ zone: z.name, rollback: done })
        return printLine(`Rolled back the Zone Lockdown migration of zone ${z.name}: ${outcomeText(done)}.`)
      }
      const found = yield* lockdownUaJournal(z)
      if (found !== undefined && !found.status.finished) {
        const { journal, status } = found
        const steps = journal.plan.migration.steps
        const undoing = status.operation === "rollback"
        const of = undoing ? (journal.plan.rollback?.steps.length ?? 0) : steps.length
        const text = `Found an unfinished ${undoing ? "rollback" : "migration"} of zone ${z.name} (journal ${journal.base}.json): ${status.written.length} of ${of} step(s) written${status.unanswered !== undefined ? ", 1 sent with no answer (it may have been applied)" : ""}${status.failed !== undefined ? `; it stopped on: ${status.failed.error}` : ""}.`
        if (o.dryRun) {
          if (o.json)
            return printJson({ dry_run: true, unfinished: true, journal: `${journal.base}.json`, steps, status })
          printLine(text)
          return printRequests(steps)
        }
        if (!o.json)
          printLine(`${text} ${undoing ? "Applying the journal's migration again." : "Finishing the migration."}`)
        const yes = yield* confirmOrRefuse(
          `Finish the Zone Lockdown migration of zone ${z.name}?`,
          { yes: o.yes },
          { what, doing: `finishing zone ${z.name}`, hint: "pass --yes to finish it, or --rollback --yes to undo it" }
        )
        if (!yes) return yield* cancelled()
        const done = yield* journaled(
          command,
          z,
          resumeLockdownUa(journal, { ...status, operation: "migrate" }, progress)
        )
        if (o.json) return printJson({ zone: z.name, resumed: done })
        return printLine(`Finished the Zone Lockdown migration of zone ${z.name}: ${outcomeText(done)}.`)
      }
      const plan = yield* planLockdownUa(z, o.deleteOld)
      if (plan.before.lockdowns.length + plan.before.uaRules.length === 0) {
        if (o.json) return printJson({ plan, outcome: null })
        return printLine(`Nothing to migrate: zone ${z.name} has no Zone Lockdown or User Agent Blocking rules.`)
      }
      const checked = plan.refused === undefined
      if (checked) yield* checkLockdownUa(plan)
      if (o.dryRun) {
        if (o.json) printJson(plan)
        else {
          printPreview(plan)
          printLine("")
          if (plan.refused === undefined) {
            printRequests(plan.steps)
            printLine("")
            printLine(`and ${endText(plan)}`)
          }
        }
        if (plan.refused !== undefined)
          return yield* Effect.fail(new CliFailure({ text: `error: ${what}: refused: ${plan.refused}`, exitCode: 1 }))
        return
      }
      if (!o.json) {
        printPreview(plan)
        printLine("")
      }
      if (plan.refused !== undefined)
        return yield* Effect.fail(
          new CliFailure({ text: `error: ${what}: refused, nothing was changed: ${plan.refused}`, exitCode: 1 })
        )
      if (plan.steps.length === 0) {
        if (o.json) return printJson({ plan, outcome: null })
        return printLine(`Nothing to do: ${endText(plan).replace(" would have ", " has ")}`)
      }
      const changed = plan.steps.filter((s) => s.key !== "entrypoint").length
      const yes = yield* confirmOrRefuse(
        `Write ${plan.expected.customRules.length} custom rule(s) on zone ${z.name} and ${o.deleteOld ? "delete" : "pause"} ${changed} Zone Lockdown / UA rule(s)?`,
        { yes: o.yes },
        { what, doing: `migrating zone ${z.name}`, hint: "pass --yes to migrate, or --dry-run to see the requests" }
      )
      if (!yes) return yield* cancelled()
      const done = yield* journaled(command, z, applyLockdownUa(plan, progress, { checked }))
      if (o.json) return printJson({ plan, outcome: done })
      const sentChanged = sentOfKinds(done, ["pause", "delete"])
      printLine(
        `Migrated zone ${z.name}: ${plan.expected.customRules.length} custom rule(s); ${sentChanged} Zone Lockdown / UA rule(s) ${o.deleteOld ? "deleted" : "paused"}; ${outcomeText(done)}.`
      )
    })
    return yield* runFw(what, o, { zone: o.zone, customRules: true }, Effect.provide(work, journals))
  })
