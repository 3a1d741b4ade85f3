/**
 * The WAF migration on the one migration engine (./migration-engine.ts): its driver (the zone's
 * migration state and managed entry point read, the entry point PUT sent, the in-effect check and
 * the comparison of src/waf/migration-plan.ts), the journaled apply of a step prepared by
 * ./waf-migration-service.ts (`prepare`), the resume of a stopped one, and why none can be rolled back.
 * The CLI (`edgectl waf migrate`) and the TUI's Deploy apply only through these.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { call } from "../api/client.js"
import { WafEndpoints } from "../api/contract-waf.js"
import type { MigrationStopped, V4Error } from "../domain/errors.js"
import { isIrreversible } from "../domain/migration.js"
import {
  irreversibleReason,
  planWafMigration,
  wafStateDifferences,
  wafStepInEffect,
  WafMigrationKind,
  type WafMigrationState,
  type WafMigrationStep
} from "../waf/migration-plan.js"
import {
  applyPlan,
  findJournal,
  journalOf,
  refusedForSure,
  resumeJournal,
  type MigrationDriver,
  type StepProgress
} from "./migration-engine.js"
import type { Journal, JournalStatus } from "./migration-journal.js"
import type { MigrationStep, WafZone } from "./waf-migration-types.js"
import { shellWord as quote } from "../domain/shell-word.js"

/** The zone's migration state and its managed entry point's rules (null: it has none yet). */
export const readWafState = (zoneId: string) =>
  Effect.map(
    Effect.all([
      call(WafEndpoints.status, { path: { zone_id: zoneId } }),
      Effect.catchTag(
        Effect.map(call(WafEndpoints.getEntrypoint, { path: { zone_id: zoneId } }), (r) => r.rules),
        "NotFound",
        () => Effect.succeed(null)
      )
    ]),
    ([st, rules]): WafMigrationState => ({ migration_state: st.migration_state, rules })
  )

export const wafMigrationDriver: MigrationDriver<WafMigrationStep, WafMigrationState> = {
  kind: WafMigrationKind,
  read: readWafState,
  // The step's path carries its query; the contract's endpoint takes the query as parameters.
  send: (zoneId, step) =>
    call(WafEndpoints.putEntrypoint, {
      path: { zone_id: zoneId },
      urlParams: Object.fromEntries(new URL(step.path, "http://x").searchParams),
      payload: step.body
    }),
  inEffect: wafStepInEffect,
  differences: wafStateDifferences,
  commands: (zone) => ({
    migrate: `edgectl waf migrate --zone ${quote(zone)}`,
    rollback: `edgectl waf migrate --zone ${quote(zone)} --rollback`
  })
}

/** The journal's files as they are, and how to put them back (a run the platform refused leaves no trace). */
const snapshot = (base: string) => {
  const files = [`${base}.json`, `${base}.log`].map((f) => ({
    f,
    text: fs.existsSync(f) ? fs.readFileSync(f, "utf8") : undefined
  }))
  return () => {
    for (const { f, text } of files)
      if (text === undefined) fs.rmSync(f, { force: true })
      else fs.writeFileSync(f, text, { mode: 0o600 })
  }
}

/**
 * Sends a prepared step on the migration engine (journaled, read back against the plan's end
 * state), then reads the entry point. A stop is a `MigrationStopped`, and a re-run finishes it
 * (`resumeWafMigration`); a request the platform refused (so nothing was saved) fails with the
 * platform's error, and its journal is left as it was, so that a corrected run starts afresh.
 */
export const apply = (z: WafZone, step: MigrationStep, progress?: (p: StepProgress) => void) =>
  Effect.gen(function* () {
    const before = yield* readWafState(z.id)
    const mode = step.request.query.waf_migration
    const plan = planWafMigration({
      zone: { id: z.id, name: z.name },
      before,
      mode,
      body: step.request.body,
      next: step.to
    })
    let refusal: V4Error | undefined
    const driver: typeof wafMigrationDriver = {
      ...wafMigrationDriver,
      send: (zoneId, s) => Effect.tapError(wafMigrationDriver.send(zoneId, s), (e) => Effect.sync(() => (refusal = e)))
    }
    const restore = snapshot(yield* journalOf(WafMigrationKind, z, undefined))
    const outcome = yield* Effect.catchTag(
      applyPlan(driver, plan, { mode }, progress),
      "MigrationStopped",
      (stop) =>
        (refusal !== undefined && refusedForSure(refusal)
          ? Effect.zipRight(Effect.sync(restore), Effect.fail(refusal))
          : Effect.fail(stop)) as Effect.Effect<never, V4Error | MigrationStopped>
    )
    const ruleset = yield* call(WafEndpoints.getEntrypoint, { path: { zone_id: z.id } })
    return { ...step, to: plan.expected.migration_state, dryRun: false, ruleset, outcome }
  })

export type WafJournal = Journal<WafMigrationStep, WafMigrationState>

/** The zone's WAF migration journal on the current target and where it stands, or undefined. */
const wafMigrationJournal = (z: WafZone) =>
  findJournal<WafMigrationStep, WafMigrationState>(WafMigrationKind, z, undefined)

/** A WAF migration of the zone's journal that did not finish, or undefined. */
export const unfinishedWafMigration = (z: WafZone) =>
  Effect.map(wafMigrationJournal(z), (j) => (j !== undefined && !j.status.finished ? j : undefined))

/** Finishes the journal's migration: re-reads the zone, skips the step if in effect, sends it otherwise. */
export const resumeWafMigration = (journal: WafJournal, st: JournalStatus, progress?: (p: StepProgress) => void) =>
  resumeJournal(wafMigrationDriver, journal, { ...st, operation: "migrate" }, progress)

/**
 * Why the zone's WAF migration cannot be rolled back: always, since no step of it has an inverse.
 * With a journal, the reason of its last step (a step written, skipped as in effect, or whose
 * answer was lost may all be in effect); without one, both modes' reasons.
 */
export const wafRollbackRefusal = (z: WafZone) =>
  Effect.map(wafMigrationJournal(z), (j) => {
    const last = j?.journal.plan.migration.steps.at(-1)?.inverse
    const reason =
      last !== undefined && isIrreversible(last)
        ? last.irreversible
        : `${irreversibleReason("pending")}, and ${irreversibleReason("validation")}`
    return `cannot roll back the WAF migration of zone ${z.name}: ${reason}`
  })
