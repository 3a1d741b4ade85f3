/**
 * Ctrl-C, SIGTERM and SIGHUP during a multi-request write (a migration, a remote bulk put or
 * delete): the work is interrupted (the request in flight is abandoned, its finalizers run and
 * record what was done), then the command fails with what `stopped` says was written and how to
 * go on, exit 128 + the signal's number (130, 143, 129). A second signal while that happens ends
 * the process at once with the same code: whatever must survive a stop is written before each
 * request, never only in a finalizer.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import { CliFailure } from "./run.js"

const SIGNALS = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const
export type StopSignal = keyof typeof SIGNALS

/** The signal that ended the race (never leaves `stoppable`). */
class Stopped {
  constructor(readonly signal: StopSignal) {}
}

/** What a stopped write says: one `error:` line (without the prefix) and at most one hint. */
export interface StopReport {
  readonly error: string
  readonly hint?: string | undefined
}

/**
 * Runs `work` until it ends or a signal arrives. `stopped` is asked after the work's finalizers
 * have run, so it reads the progress they left (a journal, a counter).
 */
export const stoppable = <A, E, R>(
  work: Effect.Effect<A, E, R>,
  stopped: (signal: StopSignal) => StopReport
): Effect.Effect<A, E | CliFailure, R> =>
  Effect.flatMap(Deferred.make<StopSignal>(), (arrived) => {
    let first = true
    const listeners = (Object.keys(SIGNALS) as Array<StopSignal>).map((signal) => {
      const listener = () => {
        if (!first) process.exit(SIGNALS[signal])
        first = false
        Deferred.unsafeDone(arrived, Effect.succeed(signal))
      }
      return [signal, listener] as const
    })
    // The signal alone ends the race; the report is made after it, once the interrupted work's
    // finalizers have run (raceFirst waits for the loser), so it reads what they left.
    const stop = Effect.flatMap(Deferred.await(arrived), (signal) => Effect.fail(new Stopped(signal)))
    const report = (signal: StopSignal) => {
      const r = stopped(signal)
      return new CliFailure({
        text: `error: ${r.error}${r.hint !== undefined ? `\nhint: ${r.hint}` : ""}`,
        exitCode: SIGNALS[signal]
      })
    }
    return Effect.acquireUseRelease(
      Effect.sync(() => {
        for (const [signal, listener] of listeners) process.on(signal, listener)
      }),
      // The work first: when both are ready, the work's own end wins over a late signal.
      () =>
        Effect.catchIf(
          Effect.raceFirst(work, stop),
          (e): e is Stopped => e instanceof Stopped,
          (e) => Effect.fail(report(e.signal))
        ),
      () =>
        Effect.sync(() => {
          for (const [signal, listener] of listeners) process.off(signal, listener)
        })
    )
  })
