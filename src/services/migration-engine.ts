/**
 * The one migration engine (docs/architecture.md, "Migrations: one engine"): it sends a plan
 * (src/domain/migration.ts) exactly, journals each step before the request and after the answer
 * (./migration-journal.ts), skips the steps already in effect (so a re-run finishes a stopped
 * migration and sends nothing twice), reads the platform back after the last step and compares it
 * with the plan's end state, and rolls back by sending the inverses of the steps, in reverse order,
 * towards the journal's "before". A failure at any point is a `MigrationStopped` that says what was
 * written and the commands that finish and undo it.
 *
 * A migration plugs in with a `MigrationDriver`: how to read its live state, send a step, tell
 * whether a step is in effect, and compare two states. The firewall rules -> custom rules
 * migration is ./custom-rules-migration-service.ts; the WAF migration is ./waf-migration-run.ts
 * (its plan src/waf/migration-plan.ts): one step, the PUT of the managed entry point with
 * `waf_migration`, whose `inverse` is `{ irreversible: "…" }` (the platform cannot undo it), so its
 * rollback is refused with that reason and the dry run says so before it runs.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Cause from "effect/Cause"
import type { ClientEnv } from "../api/client.js"
import { InvalidInput, MigrationStopped, type V4Error } from "../domain/errors.js"
import { isIrreversible, type MigrationPlan, type MigrationStep } from "../domain/migration.js"
import {
  journalBase,
  journalStatus,
  lockJournal,
  MigrationTarget,
  unlockJournal,
  openJournalLog,
  readJournal,
  writeJournalPlan,
  type Journal,
  type JournalStatus,
  type Operation
} from "./migration-journal.js"

export interface MigrationDriver<Step extends MigrationStep, State> {
  readonly kind: string
  readonly read: (zoneId: string) => Effect.Effect<State, V4Error, ClientEnv>
  readonly send: (zoneId: string, step: Step) => Effect.Effect<unknown, V4Error, ClientEnv>
  readonly inEffect: (step: Step, live: State) => boolean
  /** What differs between the expected and the live state, one line each (empty: equal). */
  readonly differences: (expected: State, live: State) => ReadonlyArray<string>
  /** The commands that finish and undo this kind of migration on a zone, before the target's flags. */
  readonly commands: (zoneName: string) => { readonly migrate: string; readonly rollback: string }
}

/** What a step did in a run: sent and answered, or found in effect already. */
export interface StepProgress {
  readonly index: number
  readonly total: number
  readonly step: MigrationStep
  readonly outcome: "done" | "skipped"
}

export interface RunOutcome {
  readonly operation: Operation
  readonly resumed: boolean
  readonly sent: ReadonlyArray<string>
  readonly skipped: ReadonlyArray<string>
  readonly journal: string
}

type Env = ClientEnv | MigrationTarget

const now = () => new Date().toISOString()

/** The base path of a zone's journal of this kind on the current target. */
export const journalOf = (kind: string, zone: { readonly id: string }, account: { readonly id: string } | undefined) =>
  Effect.map(MigrationTarget, (t) => journalBase(t, zone.id, account?.id, kind))

/** The zone's journal of this kind, with where it stands; undefined when there is none. */
export const findJournal = <Step extends MigrationStep, State>(
  kind: string,
  zone: { readonly id: string },
  account: { readonly id: string } | undefined
) =>
  Effect.map(journalOf(kind, zone, account), (base) => {
    const journal = readJournal<Step, State>(base)
    return journal === undefined ? undefined : { journal, status: journalStatus(journal) }
  })

/** Runs `work` holding the zone's journal lock (./migration-journal.ts), refused while another process holds it. */
const locked = <A, E, R>(
  base: string,
  zone: string,
  work: Effect.Effect<A, E, R>
): Effect.Effect<A, E | InvalidInput, R> =>
  Effect.acquireUseRelease(
    Effect.sync(() => lockJournal(base)),
    (holder): Effect.Effect<A, E | InvalidInput, R> =>
      holder === undefined
        ? work
        : Effect.fail(
            new InvalidInput({
              message: `another edgectl (pid ${holder}) is migrating or rolling back zone ${zone} on this machine; wait for it to end (lock ${base}.lock)`,
              clientSide: true
            })
          ),
    (holder) => Effect.sync(() => (holder === undefined ? unlockJournal(base) : undefined))
  )

const withFlags = (command: string, flags: string) => (flags === "" ? command : `${command} ${flags}`)

/**
 * The stop of a journaled operation as an error, from what the journal says (so a signal's report,
 * read after the work was interrupted, says the same as a refusal's).
 */
export const stoppedFrom = (
  journal: Journal<MigrationStep, unknown>,
  commands: { readonly migrate: string; readonly rollback: string },
  flags: string,
  reason: string
): MigrationStopped => {
  const status = journalStatus(journal)
  const steps = status.operation === "rollback" ? (journal.plan.rollback?.steps ?? []) : journal.plan.migration.steps
  const describe = (key: string) => steps.find((s) => s.key === key)?.description ?? key
  const written = status.written.map(describe)
  const unanswered = status.unanswered !== undefined ? describe(status.unanswered) : undefined
  const what =
    `${written.length} of ${steps.length} step(s) written` +
    (written.length > 0 ? ` (last: ${written[written.length - 1]})` : "") +
    (unanswered !== undefined ? `; sent with no answer, may have been applied: ${unanswered}` : "")
  const migrate = withFlags(`${commands.migrate} --yes`, flags)
  const rollback = withFlags(`${commands.rollback} --yes`, flags)
  return new MigrationStopped({
    message: `${status.operation === "rollback" ? "rollback" : "migration"} of zone ${journal.plan.zone.name} stopped: ${reason}; ${what}; journal ${journal.base}.json`,
    written,
    unanswered,
    journal: `${journal.base}.json`,
    finish: status.operation === "rollback" ? rollback : migrate,
    undo: status.operation === "rollback" ? migrate : rollback
  })
}

/**
 * Whether a refusal says for sure that nothing was saved: an answer of the platform that refuses,
 * not a 5xx, a rate limit, a lost answer or a lost connection (status 0), after which the write may
 * have been applied.
 */
export const refusedForSure = (e: V4Error) =>
  e._tag !== "NoAnswer" && e._tag !== "RateLimited" && !(e._tag === "ApiError" && (e.status < 400 || e.status >= 500))

const causeText = (c: Cause.Cause<V4Error>) => {
  const f = Cause.failureOption(c)
  return f._tag === "Some" ? f.value.message : Cause.pretty(c).split("\n")[0]!
}

/** Runs `steps` towards `expected`, journaling each; `live` is the state the in-effect checks read. */
const execute = <Step extends MigrationStep, State>(
  driver: MigrationDriver<Step, State>,
  base: string,
  operation: Operation,
  resumed: boolean,
  live: State,
  progress: ((p: StepProgress) => void) | undefined
): Effect.Effect<RunOutcome, MigrationStopped | V4Error, Env> =>
  Effect.gen(function* () {
    const target = yield* MigrationTarget
    const journal = () => readJournal<Step, State>(base)!
    const plan = journal().plan
    // The migration again over a rollback that stopped half way: every run's steps, not the last run's only.
    const overRollback =
      operation === "migrate" && journalStatus(journal() as Journal<MigrationStep, unknown>).operation === "rollback"
    const { steps, expected } =
      operation === "rollback"
        ? plan.rollback!
        : {
            steps: plan.migration.steps.slice(overRollback ? 0 : (plan.migration.from ?? 0)),
            expected: plan.migration.expected
          }
    const stop = (reason: string) =>
      stoppedFrom(journal() as Journal<MigrationStep, unknown>, driver.commands(plan.zone.name), target.flags, reason)
    return yield* Effect.acquireUseRelease(
      Effect.sync(() => openJournalLog(base)),
      (log) =>
        Effect.gen(function* () {
          log.append({ event: "begin", operation, resume: resumed, at: now() })
          const sent: Array<string> = []
          const skipped: Array<string> = []
          for (const [index, step] of steps.entries()) {
            if (driver.inEffect(step, live)) {
              log.append({ event: "skipped", key: step.key, at: now() })
              skipped.push(step.key)
              progress?.({ index, total: steps.length, step, outcome: "skipped" })
              continue
            }
            // Recorded before the request: a kill during it leaves "sent, no answer".
            log.append({ event: "sent", key: step.key, at: now() })
            const answer = yield* Effect.exit(driver.send(plan.zone.id, step))
            if (Exit.isFailure(answer)) {
              const error = causeText(answer.cause)
              const refusal = Cause.failureOption(answer.cause)
              // Kept so that a rollback knows an irreversible step may have been applied.
              const maybeApplied = refusal._tag === "None" || !refusedForSure(refusal.value)
              log.append({
                event: "failed",
                key: step.key,
                error,
                ...(maybeApplied ? { maybeApplied } : {}),
                at: now()
              })
              return yield* Effect.fail(stop(`${step.description} was refused: ${error}`))
            }
            log.append({ event: "done", key: step.key, at: now() })
            sent.push(step.key)
            progress?.({ index, total: steps.length, step, outcome: "done" })
          }
          const after = yield* Effect.mapError(driver.read(plan.zone.id), (e) =>
            stop(`reading the zone back failed: ${e.message}`)
          )
          const differences = driver.differences(expected, after)
          if (differences.length > 0) {
            log.append({ event: "differs", differences, at: now() })
            return yield* Effect.fail(
              stop(
                `the zone read back differs from the plan: ${differences.slice(0, 3).join("; ")}${differences.length > 3 ? ` (and ${differences.length - 3} more)` : ""}`
              )
            )
          }
          log.append({ event: "end", operation, at: now() })
          return { operation, resumed, sent, skipped, journal: `${base}.json` }
        }),
      (log) => Effect.sync(() => log.close())
    )
  })

/** Applies a fresh plan: journals it (with its "before"), then sends its steps. */
export const applyPlan = <Step extends MigrationStep, State>(
  driver: MigrationDriver<Step, State>,
  plan: MigrationPlan<Step, State>,
  options: Readonly<Record<string, unknown>>,
  progress?: (p: StepProgress) => void
) =>
  Effect.gen(function* () {
    if (plan.refused !== undefined)
      return yield* Effect.fail(new InvalidInput({ message: plan.refused, clientSide: true }))
    const base = yield* journalOf(driver.kind, plan.zone, plan.account)
    return yield* locked(base, plan.zone.name, applyLocked(driver, plan, options, base, progress))
  })

const applyLocked = <Step extends MigrationStep, State>(
  driver: MigrationDriver<Step, State>,
  plan: MigrationPlan<Step, State>,
  options: Readonly<Record<string, unknown>>,
  base: string,
  progress: ((p: StepProgress) => void) | undefined
) =>
  Effect.gen(function* () {
    const old = readJournal<Step, State>(base)
    const oldStatus = old !== undefined ? journalStatus(old as Journal<MigrationStep, unknown>) : undefined
    // After a finished migration (not rolled back), this run continues its journal: see JournalPlan.
    const merge = old !== undefined && oldStatus?.operation === "migrate" && oldStatus.finished
    const run = merge ? old.events.filter((e) => e.event === "begin" && !e.resume).length + 1 : 1
    const renamed = (s: Step): Step =>
      ({
        ...s,
        key: `${run}/${s.key}`,
        inverse: isIrreversible(s.inverse) ? s.inverse : { ...s.inverse, key: `${run}/${s.inverse.key}` }
      }) as Step
    writeJournalPlan(
      base,
      merge
        ? {
            ...old.plan,
            migration: {
              steps: [...old.plan.migration.steps, ...plan.steps.map(renamed)],
              expected: plan.expected,
              from: old.plan.migration.steps.length
            },
            rollback: undefined,
            options: { ...old.plan.options, ...options }
          }
        : {
            version: 1,
            kind: plan.kind,
            zone: plan.zone,
            account: plan.account,
            before: plan.before,
            migration: { steps: plan.steps, expected: plan.expected },
            options
          },
      !merge
    )
    // The in-effect checks read the zone as it is now, under the lock: another run may have applied
    // steps since this plan's "before" was read (two runs started together pause each rule once).
    const live = yield* driver.read(plan.zone.id)
    return yield* execute(driver, base, "migrate", false, live, progress)
  })

/** Finishes the journal's unfinished operation: reads the zone, skips what is in effect, sends the rest. */
export const resumeJournal = <Step extends MigrationStep, State>(
  driver: MigrationDriver<Step, State>,
  journal: Journal<Step, State>,
  status: JournalStatus,
  progress?: (p: StepProgress) => void
) =>
  locked(
    journal.base,
    journal.plan.zone.name,
    Effect.flatMap(driver.read(journal.plan.zone.id), (live) =>
      execute(driver, journal.base, status.operation, true, live, progress)
    )
  )

/**
 * Why the journal's migration cannot be rolled back (a step written that has no inverse), or
 * undefined. `status.written`, an unanswered step and a step whose failure may have applied it all
 * count: each may be in effect.
 */
const rollbackRefusal = (journal: Journal<MigrationStep, unknown>): string | undefined => {
  const status = journalStatus(journal)
  const maybe = new Set([
    ...status.written,
    ...(status.unanswered !== undefined ? [status.unanswered] : []),
    ...(status.failed?.maybeApplied === true ? [status.failed.key] : [])
  ])
  // A rollback stopped half way started from a migration that passed this check.
  if (status.operation === "rollback") return undefined
  const gone = journal.plan.migration.steps.filter((s) => maybe.has(s.key) && isIrreversible(s.inverse))
  return gone.length === 0
    ? undefined
    : `${(gone[0]!.inverse as { irreversible: string }).irreversible}${gone.length > 1 ? ` (and ${gone.length - 1} more step(s) like it)` : ""}`
}

/**
 * The steps a rollback of the journal sends: the inverses of its migration's steps, last first
 * (each skipped when in effect). The rollback and the TUI's `v` on its confirmation read this one list.
 */
export const rollbackSteps = <Step extends MigrationStep, State>(journal: Journal<Step, State>): Array<Step> =>
  [...journal.plan.migration.steps].reverse().flatMap((s) => (isIrreversible(s.inverse) ? [] : [s.inverse as Step]))

/** Restores the journal's "before": the inverses of the migration's steps, last first, each skipped when in effect. */
const rollbackJournal = <Step extends MigrationStep, State>(
  driver: MigrationDriver<Step, State>,
  journal: Journal<Step, State>,
  progress?: (p: StepProgress) => void
) =>
  Effect.gen(function* () {
    const refusal = rollbackRefusal(journal as Journal<MigrationStep, unknown>)
    if (refusal !== undefined)
      return yield* Effect.fail(
        new InvalidInput({ message: `cannot roll back: ${refusal}; journal ${journal.base}.json`, clientSide: true })
      )
    const steps = rollbackSteps(journal)
    return yield* locked(
      journal.base,
      journal.plan.zone.name,
      Effect.gen(function* () {
        writeJournalPlan(journal.base, { ...journal.plan, rollback: { steps, expected: journal.plan.before } }, false)
        const live = yield* driver.read(journal.plan.zone.id)
        return yield* execute(driver, journal.base, "rollback", false, live, progress)
      })
    )
  })

/**
 * Rolls back the zone's journal of the driver's kind towards its "before"; a zone without one has
 * nothing to roll back (`what` names the migration in that message).
 */
export const rollbackZone = <Step extends MigrationStep, State>(
  driver: MigrationDriver<Step, State>,
  zone: { readonly id: string; readonly name: string },
  account: { readonly id: string } | undefined,
  what: string,
  progress?: (p: StepProgress) => void
) =>
  Effect.flatMap(findJournal<Step, State>(driver.kind, zone, account), (j) =>
    j === undefined
      ? Effect.fail(
          new InvalidInput({
            message: `zone ${zone.name} has no ${what} journal on this target: nothing to roll back`,
            clientSide: true
          })
        )
      : rollbackJournal(driver, j.journal, progress)
  )

/**
 * Checks a plan with the platform (`check`: its dry runs) unless the caller has just checked it
 * (`checked`: the CLI checks before it asks), then applies it: every migration's apply.
 */
export const applyChecked = <Step extends MigrationStep, State, E, R>(
  driver: MigrationDriver<Step, State>,
  plan: MigrationPlan<Step, State>,
  check: Effect.Effect<void, E, R>,
  options: Readonly<Record<string, unknown>>,
  progress: ((p: StepProgress) => void) | undefined,
  checked: boolean
) => Effect.zipRight(checked ? Effect.void : check, applyPlan(driver, plan, options, progress))
