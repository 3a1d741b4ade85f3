/**
 * The one flow of every migration command of the CLI, written once and driven by a description
 * (`MigrationFlow`): the plan computed once; `--dry-run` prints it (`--json`: the plan); the
 * confirmation names the zone and the counts; the journaled apply with progress
 * (./migration-cli.ts); a re-run finishes an unfinished journal; `--rollback` restores the
 * journal's "before"; the outcome sentence and the exit codes. `firewall migrate`, `firewall
 * lockdowns migrate`, `firewall rate-limits migrate` and `migrate --zone` are descriptions of it: a
 * command owns its plan's words, never a step of the flow.
 */
import * as Effect from "effect/Effect"
import type { ClientEnv } from "../api/client.js"
import type { InvalidInput, MigrationStopped, V4Error } from "../domain/errors.js"
import type { MigrationStep } from "../domain/migration.js"
import type { Zone } from "../domain/zone.js"
import type { RunOutcome, StepProgress } from "../services/migration-engine.js"
import type { Journal, JournalStatus, MigrationTarget } from "../services/migration-journal.js"
import { resolveZone } from "../services/zones-service.js"
import { inputProblem } from "./files.js"
import { journaled, outcomeText, printRequests, progressOf, type MigrationCommand } from "./migration-cli.js"
import { printJson, printLine } from "./output.js"
import { confirmOrRefuse } from "./prompt.js"
import { CliFailure, usage } from "./run.js"

type Env = ClientEnv | MigrationTarget
type Ops = V4Error | MigrationStopped
type Progress = ((p: StepProgress) => void) | undefined

/** What a plan must hold for the flow: its steps, and why it cannot be applied when it cannot. */
export interface FlowPlan {
  readonly steps: ReadonlyArray<MigrationStep>
  readonly refused?: string | undefined
}

/** A journal of the zone and where it stands, as the services' `…Journal(zone)` answer it. */
interface FoundJournal<J extends Journal<MigrationStep, unknown>> {
  readonly journal: J
  readonly status: JournalStatus
}

/** One migration command: its words and its service's operations. */
export interface MigrationFlow<P extends FlowPlan, J extends Journal<MigrationStep, unknown>> {
  readonly command: MigrationCommand
  /** The migration in sentences: "migration", "Zone Lockdown migration". */
  readonly title: string
  readonly rollbackQuestion: (zone: string) => string
  /** What the refusal of an unanswered confirmation to finish says it was doing. */
  readonly finishing: (zone: string) => string
  readonly journal: (z: Zone) => Effect.Effect<FoundJournal<J> | undefined, V4Error, Env>
  readonly rollback: (z: Zone, progress: Progress) => Effect.Effect<RunOutcome, Ops, Env>
  readonly resume: (journal: J, status: JournalStatus, progress: Progress) => Effect.Effect<RunOutcome, Ops, Env>
  /** The dry run of an unfinished journal: its steps (default: each request with its body). */
  readonly printUnfinished?: (steps: ReadonlyArray<MigrationStep>) => void
  readonly plan: (z: Zone, deleteOld: boolean) => Effect.Effect<P, V4Error, Env>
  /** The sentence when the zone has nothing of this kind at all, or undefined. */
  readonly nothing: (plan: P, zone: string) => string | undefined
  /** The platform's check of the plan (its dry runs), before the dry run prints and before the apply asks. */
  readonly check: (plan: P) => Effect.Effect<void, V4Error, Env>
  readonly printDryRun: (plan: P) => void
  readonly printPreview: (plan: P) => void
  /** "zone Z would have …": the dry run's last line; with "has", the sentence of a plan with nothing to do. */
  readonly endText: (plan: P) => string
  readonly question: (plan: P, zone: string, deleteOld: boolean) => string
  readonly apply: (
    plan: P,
    progress: Progress,
    options: { readonly checked: boolean }
  ) => Effect.Effect<RunOutcome, Ops, Env>
  /** The lines after a successful apply. */
  readonly done: (plan: P, zone: string, outcome: RunOutcome) => ReadonlyArray<string>
}

export interface FlowFlags {
  readonly zone: string
  readonly yes: boolean
  readonly dryRun: boolean
  readonly deleteOld: boolean
  readonly rollback: boolean
  readonly json: boolean
}

/**
 * The usage errors every migration command checks before it reads anything; `replay`: the traffic
 * file of `--replay`, which only compares, so it goes with no option that writes or plans a write.
 */
export const flowUsage = (o: FlowFlags, replay?: string): CliFailure | undefined => {
  if (o.zone.trim() === "") return usage("--zone needs a value, got an empty string")
  if (replay !== undefined && (o.dryRun || o.deleteOld || o.yes || o.rollback))
    return usage("--replay only compares; it cannot be used with --dry-run, --delete-old, --rollback or --yes")
  if (o.rollback && (o.dryRun || o.deleteOld))
    return usage("--rollback restores the journal's before; it cannot be used with --dry-run or --delete-old")
  return undefined
}

/**
 * Every migration's `--replay` failure, one wording: `error: <command> --replay: <why>`, where the
 * why names the file (a missing file, a file of no request with its first bad line, nothing to compare).
 */
const replayFailure = (what: string, why: string) =>
  new CliFailure({ text: `error: ${what} --replay: ${why}`, exitCode: 1 })

/** The `--replay` file checked before the zone is read: a path that is missing or a directory fails (`-` is stdin). */
export const checkReplayFile = (what: string, file: string): Effect.Effect<void, CliFailure> =>
  Effect.suspend(() => {
    const why = inputProblem(file)
    return why === undefined ? Effect.void : Effect.fail(replayFailure(what, why))
  })

/** A replay's InvalidInput (the file unreadable or of no request, nothing to compare) as the command's `--replay` failure. */
export const replayFailures = <A, E, R>(what: string, replay: Effect.Effect<A, E | InvalidInput, R>) =>
  Effect.catchIf(
    replay,
    (e): e is InvalidInput => (e as { readonly _tag?: unknown })._tag === "InvalidInput",
    (e) => Effect.fail(replayFailure(what, e.message))
  )

const cancelled = (what: string) =>
  Effect.fail(new CliFailure({ text: `error: ${what}: cancelled; nothing was changed`, exitCode: 1 }))

/** The whole flow of a migration command on the zone of `o` (a zone already resolved, or its name). */
export const runFlow = <P extends FlowPlan, J extends Journal<MigrationStep, unknown>>(
  f: MigrationFlow<P, J>,
  o: FlowFlags,
  zone?: Zone
): Effect.Effect<void, V4Error | CliFailure, Env> =>
  Effect.gen(function* () {
    const what = f.command.what
    const z = zone ?? (yield* resolveZone(o.zone))
    const progress = progressOf(o.json)
    if (o.rollback) {
      if ((yield* f.journal(z)) !== undefined) {
        const yes = yield* confirmOrRefuse(
          f.rollbackQuestion(z.name),
          { yes: o.yes },
          { what, doing: `rolling back zone ${z.name}`, hint: "pass --yes to roll back" }
        )
        if (!yes) return yield* cancelled(what)
      }
      const done = yield* journaled(f.command, z, f.rollback(z, progress))
      if (o.json) return printJson({ zone: z.name, rollback: done })
      return printLine(`Rolled back the ${f.title} of zone ${z.name}: ${outcomeText(done)}.`)
    }
    const found = yield* f.journal(z)
    if (found !== undefined && !found.status.finished) {
      const { journal, status } = found
      const steps = journal.plan.migration.steps
      // A rollback stopped half way is undone by applying the journal's migration again.
      const undoing = status.operation === "rollback"
      const of = undoing ? (journal.plan.rollback?.steps.length ?? 0) : steps.length
      const text = `Found an unfinished ${undoing ? "rollback" : "migration"} of zone ${z.name} (journal ${journal.base}.json): ${status.written.length} of ${of} step(s) written${status.unanswered !== undefined ? ", 1 sent with no answer (it may have been applied)" : ""}${status.failed !== undefined ? `; it stopped on: ${status.failed.error}` : ""}.`
      if (o.dryRun) {
        if (o.json)
          return printJson({ dry_run: true, unfinished: true, journal: `${journal.base}.json`, steps, status })
        printLine(text)
        return (f.printUnfinished ?? printRequests)(steps)
      }
      if (!o.json)
        printLine(`${text} ${undoing ? "Applying the journal's migration again." : "Finishing the migration."}`)
      const yes = yield* confirmOrRefuse(
        `Finish the ${f.title} of zone ${z.name}?`,
        { yes: o.yes },
        { what, doing: f.finishing(z.name), hint: "pass --yes to finish it, or --rollback --yes to undo it" }
      )
      if (!yes) return yield* cancelled(what)
      const done = yield* journaled(f.command, z, f.resume(journal, { ...status, operation: "migrate" }, progress))
      if (o.json) return printJson({ zone: z.name, resumed: done })
      return printLine(`Finished the ${f.title} of zone ${z.name}: ${outcomeText(done)}.`)
    }
    const plan = yield* f.plan(z, o.deleteOld)
    const nothing = f.nothing(plan, z.name)
    if (nothing !== undefined) {
      if (o.json) return printJson({ plan, outcome: null })
      return printLine(nothing)
    }
    // The platform checks the plan before the dry run prints and before the apply asks.
    const checked = plan.refused === undefined
    if (checked) yield* f.check(plan)
    if (o.dryRun) {
      if (o.json) printJson(plan)
      else f.printDryRun(plan)
      if (plan.refused !== undefined)
        return yield* Effect.fail(new CliFailure({ text: `error: ${what}: refused: ${plan.refused}`, exitCode: 1 }))
      return
    }
    if (!o.json) {
      f.printPreview(plan)
      printLine("")
    }
    if (plan.refused !== undefined)
      return yield* Effect.fail(
        new CliFailure({ text: `error: ${what}: refused, nothing was changed: ${plan.refused}`, exitCode: 1 })
      )
    if (plan.steps.length === 0) {
      if (o.json) return printJson({ plan, outcome: null })
      return printLine(`Nothing to do: ${f.endText(plan).replace(" would have ", " has ")}`)
    }
    const yes = yield* confirmOrRefuse(
      f.question(plan, z.name, o.deleteOld),
      { yes: o.yes },
      { what, doing: `migrating zone ${z.name}`, hint: "pass --yes to migrate, or --dry-run to see the requests" }
    )
    if (!yes) return yield* cancelled(what)
    const done = yield* journaled(f.command, z, f.apply(plan, progress, { checked }))
    if (o.json) return printJson({ plan, outcome: done })
    for (const line of f.done(plan, z.name, done)) printLine(line)
  })

/** The dry run of the Zone Lockdown and rate limit migrations: the preview, the requests, the end. */
export const previewRequestsEnd =
  <P extends FlowPlan>(preview: (p: P) => void, endText: (p: P) => string) =>
  (plan: P) => {
    preview(plan)
    printLine("")
    if (plan.refused === undefined) {
      printRequests(plan.steps)
      printLine("")
      printLine(`and ${endText(plan)}`)
    }
  }
