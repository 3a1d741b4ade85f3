/** Runs a command's Effect against the chosen target and turns failures into one stderr line. */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ClientEnv } from "../api/client.js"
import type { RateLimit } from "../domain/rate-budget.js"
import type { V4Error } from "../domain/errors.js"
import { clientLayer } from "./environment.js"
import { targetFlags } from "./hints.js"
import { formatError } from "./output.js"
import { countdownLine } from "./progress.js"

/**
 * A failure already formatted for the user; `exitCode` 1 (their input or the platform), 2 (usage),
 * or 128 + the signal's number for a write stopped by SIGHUP, SIGINT or SIGTERM (./signals.ts).
 */
export class CliFailure extends Data.TaggedError("CliFailure")<{
  readonly text: string
  readonly exitCode: 1 | 2 | 129 | 130 | 143
}> {}

export const usage = (text: string) => new CliFailure({ text: `error: ${text}`, exitCode: 2 })

export interface TargetFlags {
  readonly remote: boolean
  /** `--local` as given: `--local false` chooses the real platform, as `--remote` does. */
  readonly local: Option.Option<boolean>
  readonly persistTo: Option.Option<string>
  /** `--timeout SECONDS` (options.ts); a command without it takes EDGECTL_TIMEOUT or the default. */
  readonly timeout?: Option.Option<number>
  /** `--rate-limit N/SECONDS` (options.ts); a command without it takes EDGECTL_RATE_LIMIT or the platform's. */
  readonly rateLimit?: Option.Option<RateLimit>
  /** `--json`: no countdown while waiting for the API budget. */
  readonly json?: boolean
}

export const run = <A>(
  what: string,
  flags: TargetFlags,
  effect: Effect.Effect<A, V4Error | CliFailure, ClientEnv>,
  /** `on`: ` --remote`, ` --persist-to DIR` or nothing, for every command the hint suggests (as printed, it acts on the same platform). */
  hint?: (e: V4Error, on: string) => string | undefined
): Effect.Effect<A, CliFailure> => {
  const conflict = targetConflict(flags)
  if (conflict !== undefined) return Effect.fail(conflict)
  const remote = isRemote(flags)
  const target = { remote, persistTo: Option.getOrUndefined(flags.persistTo) }
  return Effect.scoped(
    effect.pipe(
      Effect.provide(
        clientLayer({
          remote,
          persistTo: Option.getOrUndefined(flags.persistTo),
          timeout: flags.timeout !== undefined ? Option.getOrUndefined(flags.timeout) : undefined,
          rateLimit: flags.rateLimit !== undefined ? Option.getOrUndefined(flags.rateLimit) : undefined,
          waiting: flags.remote ? countdownLine({ json: flags.json === true }) : undefined
        })
      )
    )
  ).pipe(
    Effect.catchAll((e) =>
      e._tag === "CliFailure"
        ? Effect.fail(e)
        : Effect.fail(new CliFailure({ text: formatError(what, e, hint?.(e, targetOn(flags)), target), exitCode: 1 }))
    )
  )
}

/** ` --remote`, ` --persist-to DIR` or nothing: what a command a message suggests needs to act on the same platform. */
export const targetOn = (flags: Pick<TargetFlags, "remote" | "local" | "persistTo">): string =>
  targetFlags({ remote: isRemote(flags), persistTo: Option.getOrUndefined(flags.persistTo) })

/**
 * Whether `--remote` and `--local`, each as given (undefined: absent; KV's `--remote` may also be
 * `--remote false`), choose the real platform: `--remote`, or `--local false` (as in wrangler). The
 * one reading of the two flags, for every command.
 */
export const remoteChosen = (remote: boolean | undefined, local: boolean | undefined): boolean =>
  remote ?? local === false

/** `--remote --local` (or KV's `--remote false --local false`): the usage error, else undefined. */
export const remoteLocalConflict = (remote: boolean | undefined, local: boolean | undefined): CliFailure | undefined =>
  remote !== undefined && remote === local ? usage("--remote and --local cannot be used together") : undefined

/** Whether the flags choose the real platform: `--remote`, or `--local false` (one meaning on every command). */
export const isRemote = (flags: Pick<TargetFlags, "remote" | "local">): boolean =>
  remoteChosen(flags.remote || undefined, Option.getOrUndefined(flags.local))

/** `--remote --local`, `--remote --persist-to DIR`: a usage error, else undefined. */
export const targetConflict = (flags: Pick<TargetFlags, "remote" | "local" | "persistTo">): CliFailure | undefined => {
  const both = remoteLocalConflict(flags.remote || undefined, Option.getOrUndefined(flags.local))
  if (both !== undefined) return both
  if (isRemote(flags) && Option.isSome(flags.persistTo))
    return usage(
      `--persist-to applies to the local platform, not to ${flags.remote ? "--remote" : "--local false (the real platform)"}`
    )
  return undefined
}

/** Rejects a positional that looks like an option (@effect/cli would take `--bogus` as the value). */
export const positional = (name: string, value: string) =>
  value.startsWith("-") && value.length > 1
    ? Effect.fail(usage(`unknown option ${value} (expected ${name}); use -- before a value that starts with -`))
    : Effect.succeed(value)
