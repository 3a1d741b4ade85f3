/**
 * What every migration command of the CLI shares around the one engine (src/services/migration-engine.ts):
 * progress on a terminal, the journaled run that a signal or a stop turns into one `error:` line and
 * the commands that finish and undo it, the outcome sentence and the dry run's requests. Each
 * migration's command (`firewall migrate`, `firewall lockdowns migrate`) owns only its plan's words.
 */
import * as Effect from "effect/Effect"
import type { MigrationStopped, V4Error } from "../domain/errors.js"
import type { MigrationStep } from "../domain/migration.js"
import { journalOf, stoppedFrom, type RunOutcome, type StepProgress } from "../services/migration-engine.js"
import { MigrationTarget, readJournal } from "../services/migration-journal.js"
import { requestLines } from "../domain/request-text.js"
import { clip, printLine } from "./output.js"
import { CliFailure } from "./run.js"
import { stoppable, type StopSignal } from "./signals.js"
import { isTerminal, writeErr } from "./stdio.js"

/** Progress on a terminal (stderr, one line rewritten); nothing in --json mode or off a terminal. */
export const progressOf = (json: boolean): ((p: StepProgress) => void) | undefined =>
  json || !isTerminal("stderr")
    ? undefined
    : (p) => {
        writeErr(`\r\u001b[K[${p.index + 1}/${p.total}] ${clip(p.step.description, 70)}`)
        if (p.index + 1 === p.total) writeErr("\r\u001b[K")
      }

/** The migration a command runs: its name in messages, the journal's kind and its two commands. */
export interface MigrationCommand {
  readonly what: string
  readonly kind: string
  readonly commands: (zoneName: string) => { readonly migrate: string; readonly rollback: string }
}

/**
 * Runs a journaled operation until it ends or a signal arrives; a stop is an exit 1 (or 128 + the
 * signal) with what the journal says was written and the two commands.
 */
export const journaled = <R>(
  m: MigrationCommand,
  zone: { readonly id: string; readonly name: string; readonly account: { readonly id: string } },
  work: Effect.Effect<RunOutcome, MigrationStopped | V4Error, R>
) =>
  Effect.gen(function* () {
    const base = yield* journalOf(m.kind, zone, zone.account)
    const target = yield* MigrationTarget
    const commands = m.commands(zone.name)
    const onSignal = (signal: StopSignal) => {
      const journal = readJournal(base)
      if (journal === undefined) return { error: `${m.what}: stopped by ${signal}; nothing was written` }
      const e = stoppedFrom(journal, commands, target.flags, `interrupted by ${signal}`)
      return { error: `${m.what}: ${e.message}`, hint: `finish it: ${e.finish}; undo it: ${e.undo}` }
    }
    return yield* stoppable(
      Effect.catchTag(work, "MigrationStopped", (e) =>
        Effect.fail(
          new CliFailure({
            text: `error: ${m.what}: ${e.message}\nhint: finish it: ${e.finish}; undo it: ${e.undo}`,
            exitCode: 1
          })
        )
      ),
      onSignal
    )
  })

/**
 * How many of a run's sent steps are of these kinds (`pause`, `delete`, …): a later run of the same
 * journal prefixes its keys with its number (`2/pause:ID`), so the kind is the last part's.
 */
export const sentOfKinds = (o: RunOutcome, kinds: ReadonlyArray<string>) =>
  o.sent.filter((k) => kinds.includes(k.slice(k.lastIndexOf("/") + 1).split(":")[0]!)).length

export const outcomeText = (o: RunOutcome) =>
  `${o.sent.length} request(s) sent${o.skipped.length > 0 ? `, ${o.skipped.length} step(s) already in effect` : ""}; the zone was read back and matches the plan (journal ${o.journal})`

/** The dry run's requests: each with its body, as the apply sends them. */
export const printRequests = (steps: ReadonlyArray<MigrationStep>) => {
  printLine(`Dry run: nothing was changed. The migration would send ${steps.length} request(s):`)
  for (const s of steps) {
    printLine("")
    for (const line of requestLines(s)) printLine(line)
  }
}
