/** What `edgectl kv bulk put|get|delete <FILE>` do (loaded when one of them runs). */
import * as Effect from "effect/Effect"
import { fileLabel, type CheckedFile } from "../../../kv/bulk-file.js"
import * as Kv from "../../../services/kv-bulk-service.js"
import { opt } from "../../options.js"
import { note, printJson, printLine } from "../../output.js"
import { progressLine, type Progress } from "../../progress.js"
import { confirm } from "../../prompt.js"
import type { ClientEnv } from "../../../api/client.js"
import { InvalidInput, type V4Error } from "../../../domain/errors.js"
import { problemsOf } from "../../../kv/problems.js"
import type { ResolvedNamespace } from "./project-config.js"
import { type CliFailure, positional } from "../../run.js"
import { stoppable, type StopSignal } from "../../signals.js"
import { quote, targetFlags } from "../../hints.js"
import { chooseNamespace, ConfigReader, isRemote, type KvRun, runKv } from "./common.js"
import type { Parsed } from "./options.js"

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`

/** wrangler warns about properties a bulk entry does not have; so do we, and they are ignored. */
const warnUnknown = (checked: CheckedFile) => {
  for (const u of checked.unknown) {
    const at = u.indexes.join(", ") + (u.count > u.indexes.length ? `, … (${u.count} entries)` : "")
    note(
      `warning: ${checked.file}: ${u.count === 1 ? "entry" : "entries"} ${at} ${u.count === 1 ? "has" : "have"} a property that is not part of a bulk entry (ignored): ${JSON.stringify(u.property)}`
    )
  }
}

/** Problems the error line shows; the rest are counted there and listed by --json. */
const Shown = 3

interface Counts {
  readonly count?: number
  readonly invalid_entries?: number
}

/** With --json, a refused file's problems, every one, on stdout (the error line still goes to stderr). */
export const printProblems = (e: unknown) => {
  if (!(e instanceof InvalidInput)) return
  const problems = problemsOf(e)
  if (problems.length === 0) return
  const meta = e.meta as Counts
  printJson({
    invalid_entries: meta.invalid_entries ?? new Set(problems.map((p) => p.index)).size,
    problem_count: meta.count ?? problems.length,
    problems
  })
}

/** In text, the error line shows the first problems and the exact number left: it also says how to see them all. */
export const howToSeeAll = <E>(e: E): E => {
  if (!(e instanceof InvalidInput)) return e
  const problems = problemsOf(e)
  const total = (e.meta as Counts | undefined)?.count ?? problems.length
  // Only when --json can list them all (a platform's answer may carry only the first ones).
  if (total <= Shown || problems.length < total) return e
  return new InvalidInput({ code: e.code, message: `${e.message} (--json lists every problem)`, meta: e.meta }) as E
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st, … */
const ordinal = (n: number) => {
  const tens = n % 100
  const suffix =
    tens >= 11 && tens <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th"
  return `${n.toLocaleString("en-US")}${suffix}`
}

/**
 * What a bulk stopped by a signal says: how far it got (what the tally says was answered, and the
 * request that was sent and not answered), and the command that finishes it on the same target:
 * the same file again, which is safe (a put writes the same values, a delete deletes keys that are
 * gone).
 */
const stoppedReport =
  (
    what: string,
    verb: "written" | "deleted",
    o: Parsed<"bulkPut" | "bulkDelete">,
    ns: ResolvedNamespace,
    tally: Kv.BulkTally
  ) =>
  (signal: StopSignal) => {
    // The namespace by its id; the config and environment still give the account a remote run works in.
    const given = (flag: string, v: string | undefined) => (v !== undefined ? ` ${flag} ${quote(v)}` : "")
    const command =
      `edgectl ${what} ${quote(o.file)} --namespace-id ${quote(ns.id)}` +
      given("--config", opt(o.config)) +
      given("--env", opt(o.env)) +
      ("yes" in o && o.yes ? " --yes" : "") +
      targetFlags({ remote: isRemote(o), persistTo: opt(o.persistTo) })
    const hint = `run \`${command}\` to finish: running it again is safe`
    if (tally.count === undefined)
      return { error: `${what}: stopped by ${signal} while checking ${fileLabel(o.file)}: nothing was ${verb}`, hint }
    const of = tally.requests !== undefined ? ` of ${tally.requests.toLocaleString("en-US")}` : ""
    const sent =
      tally.inFlight !== undefined
        ? `; the ${ordinal(tally.answered + 1)} request was sent and may have been applied`
        : ""
    return {
      error: `${what}: stopped by ${signal} after ${tally.answered.toLocaleString("en-US")}${of} requests (${tally.done.toLocaleString("en-US")} of ${plural(tally.count, "key", "keys")} ${verb}${sent})`,
      hint
    }
  }

/** What each bulk command does with its file: in the namespace `ns`, with a progress line. */
interface BulkRun {
  readonly file: string
  readonly ns: ResolvedNamespace
  readonly progress: Progress
  readonly account: KvRun["account"]
}

/**
 * The part the bulk commands share: the file argument, the namespace (`writes`: one the command
 * changes), and `body` in the chosen target with a progress line that is cleared at the end.
 */
const bulkCommand = <A>(
  what: string,
  o: Parsed<"bulkPut" | "bulkGet" | "bulkDelete">,
  writes: boolean,
  body: (b: BulkRun) => Effect.Effect<A, V4Error | CliFailure, ClientEnv>
) =>
  Effect.gen(function* () {
    const file = yield* positional("<FILE>", o.file)
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const ns = yield* chooseNamespace(what, o, reader, writes)
    const progress = progressLine({ json: o.json })
    const problems = (work: Effect.Effect<A, V4Error | CliFailure, ClientEnv>) =>
      o.json ? Effect.tapError(work, (e) => Effect.sync(() => printProblems(e))) : Effect.mapError(work, howToSeeAll)
    const outcome = yield* runKv(what, o, reader, ({ account }) =>
      problems(body({ file, ns, progress, account }))
    ).pipe(Effect.ensuring(Effect.sync(progress.clear)))
    return { outcome, ns }
  })

export const bulkPut = (o: Parsed<"bulkPut">) =>
  Effect.gen(function* () {
    const { outcome, ns } = yield* bulkCommand("kv bulk put", o, true, ({ file, ns, progress, account }) => {
      const tally = Kv.newTally()
      return stoppable(
        Effect.flatMap(account, (a) =>
          Kv.bulkPutFile(a, ns.id, file, {
            onProgress: (p) =>
              progress.update(
                p.phase === "checking" ? `checking ${fileLabel(file)}` : "writing",
                p.done,
                p.total,
                p.unit
              ),
            onChecked: warnUnknown,
            tally
          })
        ),
        stoppedReport("kv bulk put", "written", o, ns, tally)
      )
    })
    if (o.json) return printJson(outcome.result)
    printLine(
      `Wrote ${plural(outcome.count, "entry", "entries")} to namespace ${ns.label}${outcome.requests > 1 ? ` in ${outcome.requests} requests` : ""}.`
    )
  })

export const bulkDelete = (o: Parsed<"bulkDelete">) =>
  Effect.gen(function* () {
    const { outcome, ns } = yield* bulkCommand("kv bulk delete", o, true, ({ file, ns, progress, account }) =>
      Effect.scoped(
        Effect.gen(function* () {
          const a = yield* account
          // The file is checked before the question, so the question can say how many keys.
          const checked = yield* Kv.checkBulkFile(file, "keys", {
            onProgress: (p) => progress.update(`checking ${fileLabel(file)}`, p.done, p.total, p.unit)
          })
          progress.clear()
          const answer = yield* confirm(
            `Delete the ${plural(checked.count, "key", "keys")} listed in ${checked.file} from namespace ${ns.label}?`,
            {
              default: true,
              yes: o.yes
            }
          )
          if (answer !== "yes") return undefined
          const tally = Kv.newTally()
          return yield* stoppable(
            Kv.bulkDeleteChecked(a, ns.id, checked, {
              onProgress: (p) => progress.update("deleting", p.done, p.total, p.unit),
              tally
            }),
            stoppedReport("kv bulk delete", "deleted", o, ns, tally)
          )
        })
      )
    )
    if (outcome === undefined) {
      note("Not deleted.")
      return
    }
    if (o.json) return printJson(outcome.result)
    printLine(`Deleted ${plural(outcome.count, "key", "keys")} from namespace ${ns.label}.`)
  })

/**
 * wrangler's `kv bulk get` (an open beta there): one JSON object of key to `{value}` (the value as
 * text, null when the key is missing), with `--metadata` also `metadata` and `expiration`.
 */
export const bulkGet = (o: Parsed<"bulkGet">) =>
  Effect.gen(function* () {
    const { outcome } = yield* bulkCommand("kv bulk get", o, false, ({ file, ns, progress, account }) =>
      Effect.flatMap(account, (a) =>
        Kv.bulkGetFile(a, ns.id, file, {
          withMetadata: o.metadata,
          onProgress: (p) =>
            progress.update(p.phase === "checking" ? `checking ${fileLabel(file)}` : "reading", p.done, p.total, p.unit)
        })
      )
    )
    printJson(outcome)
  })
