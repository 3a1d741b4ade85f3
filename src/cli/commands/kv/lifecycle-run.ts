/**
 * What `edgectl kv export|import` do (loaded when one of them runs): a namespace to a file in the
 * bulk put format (or JSON Lines) and back. Remote runs keep a checkpoint (src/kv/lifecycle-files.ts)
 * so that a stopped export goes on with `--resume` and a re-run import sends only what is missing.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fs from "node:fs"
import * as path from "node:path"
import { InvalidInput, type V4Error } from "../../../domain/errors.js"
import {
  checkpointPath,
  EntryWriter,
  fileDigest,
  isJsonArray,
  jsonLinesToArray,
  readCheckpoint,
  removeCheckpoint,
  scratchDir,
  writeCheckpoint,
  type ExportFormat
} from "../../../kv/lifecycle-files.js"
import * as Kv from "../../../services/kv-bulk-service.js"
import { readEntries } from "../../../services/kv-lifecycle-service.js"
import { openOutput, readInputBytes, STDIO } from "../../files.js"
import { writeOut } from "../../stdio.js"
import { quote, targetFlags } from "../../hints.js"
import { opt } from "../../options.js"
import { formatError, note, printJson, printLine } from "../../output.js"
import { progressLine } from "../../progress.js"
import { CliFailure, positional, usage } from "../../run.js"
import { stoppable } from "../../signals.js"
import { howToSeeAll, printProblems } from "./bulk-run.js"
import { chooseNamespace, ConfigReader, isRemote, runKv } from "./common.js"
import type { Parsed } from "./options.js"
import type { ResolvedNamespace } from "./project-config.js"

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`

/** The entries of a remote import per request: the platform's limit (api-reference 10.2). */
const ImportBatch = 10_000

const formatOf = (what: string, given: string | undefined, file: string): Effect.Effect<ExportFormat, CliFailure> => {
  const f = given ?? (/\.(jsonl|ndjson)$/i.test(file) ? "jsonl" : "json")
  return f === "json" || f === "jsonl"
    ? Effect.succeed(f)
    : Effect.fail(usage(`${what}: --format must be json or jsonl, not ${JSON.stringify(f)}`))
}

/** The namespace, flags included, as a command that acts on it again is typed. */
const again = (o: Parsed<"kvExport"> | Parsed<"kvImport">, ns: ResolvedNamespace) =>
  ` --namespace-id ${quote(ns.id)}` +
  (opt(o.config) !== undefined ? ` --config ${quote(opt(o.config)!)}` : "") +
  targetFlags({ remote: isRemote(o), persistTo: opt(o.persistTo) })

interface ExportCheckpoint {
  readonly cursor: string
  readonly count: number
  readonly bytes: number
}

/**
 * `kv export [--output FILE] [--format json|jsonl] [--resume]`: every key with its value, metadata
 * and expiration, written a page at a time. A remote export to a file records after each page where
 * it is (the cursor, the entries and bytes written); `--resume` cuts the file back to that point
 * and goes on from the cursor.
 */
export const kvExport = (o: Parsed<"kvExport">) =>
  Effect.gen(function* () {
    const what = "kv export"
    const output = opt(o.output) ?? STDIO
    const format = yield* formatOf(what, opt(o.format), output)
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const ns = yield* chooseNamespace(what, o, reader, false)
    const remote = isRemote(o)
    if (o.resume && output === STDIO) return yield* Effect.fail(usage(`${what}: --resume needs --output FILE`))
    const progress = progressLine({ json: o.json || output === STDIO })
    return yield* runKv(what, o, reader, ({ account }) =>
      Effect.gen(function* () {
        const a = yield* account
        const mark = remote && output !== STDIO ? checkpointPath("export", a, ns.id, path.resolve(output)) : undefined
        const from = o.resume && mark !== undefined ? readCheckpoint<ExportCheckpoint>(mark) : undefined
        if (o.resume && from === undefined)
          return yield* Effect.fail(
            new CliFailure({
              text: `error: ${what}: no stopped export of namespace ${ns.label} to ${output} to resume${remote ? "" : " (only --remote exports keep a checkpoint)"}\nhint: run \`edgectl kv export --output ${quote(output)}${again(o, ns)}\` to export it whole`,
              exitCode: 1
            })
          )
        if (from !== undefined) fs.truncateSync(output, from.bytes)
        const fd = output === STDIO ? 1 : yield* openOutput(what, output, from !== undefined ? "a" : "w")
        const writer = new EntryWriter(fd === 1 ? writeOut : (t) => fs.writeSync(fd, t), format, from?.count ?? 0)
        let where = from
        const work = Effect.gen(function* () {
          writer.begin()
          yield* readEntries(a, ns.id, {
            cursor: from?.cursor,
            onPage: (page) => {
              const cursor = page.cursor
              writer.writeLines(page.lines, page.count)
              progress.update("exporting", writer.count, writer.count, "entries")
              if (mark !== undefined && cursor !== "") {
                where = { cursor, count: writer.count, bytes: fs.fstatSync(fd).size }
                writeCheckpoint(mark, where)
              }
            }
          })
          writer.end()
          if (mark !== undefined) removeCheckpoint(mark)
          return writer.count
        }).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              progress.clear()
              if (fd !== 1) fs.closeSync(fd)
            })
          )
        )
        const resumeHint = `run \`edgectl kv export --output ${quote(output)}${again(o, ns)} --resume\` to go on from there`
        // A failure after a checkpoint says where the export stopped and how to go on from there.
        const resumable = Effect.catchAll(work, (e): Effect.Effect<never, V4Error | CliFailure> =>
          mark === undefined || where === undefined
            ? Effect.fail(e)
            : Effect.fail(
                new CliFailure({
                  text: formatError(
                    what,
                    e,
                    `${count(where.count, "key", "keys")} were written before it stopped; ${resumeHint}`
                  ),
                  exitCode: 1
                })
              )
        )
        const total = yield* stoppable(resumable, (signal) => ({
          error: `${what}: stopped by ${signal} after ${count(where?.count ?? 0, "key", "keys")} of namespace ${ns.label}${mark !== undefined ? ` (a checkpoint is kept)` : ""}`,
          hint:
            mark !== undefined
              ? resumeHint
              : `run \`edgectl kv export${output !== STDIO ? ` --output ${quote(output)}` : ""}${again(o, ns)}\` again`
        }))
        if (output === STDIO) return
        if (o.json) return printJson({ count: total, file: output, format })
        printLine(`Exported ${count(total, "key", "keys")} of namespace ${ns.label} to ${output}.`)
      })
    )
  })

interface ImportJournal {
  readonly requests: number
}

/** The import's input as a JSON array file: stdin and pipes copied, JSON Lines turned into an array. */
const arrayFile = (what: string, file: string, format: string | undefined, dir: string) =>
  Effect.gen(function* () {
    const label = file === STDIO ? "<stdin>" : file
    let source = file
    if (file === STDIO || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
      const bytes = yield* Effect.tryPromise({
        try: () => readInputBytes(file),
        catch: (e) => new InvalidInput({ message: `cannot read ${label}: ${(e as Error).message}`, clientSide: true })
      })
      source = path.join(dir, "input")
      fs.writeFileSync(source, bytes)
    }
    const jsonl = format !== undefined ? format === "jsonl" : !isJsonArray(source)
    if (format !== undefined && format !== "json" && format !== "jsonl")
      return yield* Effect.fail(usage(`${what}: --format must be json or jsonl, not ${JSON.stringify(format)}`))
    if (!jsonl) return { path: source, label, lines: undefined }
    const out = path.join(dir, "entries.json")
    const { lines } = yield* Either.mapLeft(
      jsonLinesToArray(label, source, out),
      (e) => new InvalidInput({ message: `${e.message}; nothing was written`, clientSide: true })
    )
    return { path: out, label, lines }
  })

/**
 * `kv import FILE`: a JSON array (the bulk put format) or JSON Lines, checked whole before anything
 * is sent, then written in requests of at most 10,000 entries and 100 MB. A remote import records
 * each answered request in a journal (keyed by the namespace and the file's bytes): a re-run after
 * a failure or a stop sends only the requests that were not answered, and says so.
 */
export const kvImport = (o: Parsed<"kvImport">) =>
  Effect.gen(function* () {
    const what = "kv import"
    const file = yield* positional("<filename>", o.file)
    if (file !== STDIO && !fs.existsSync(file))
      return yield* Effect.fail(
        new CliFailure({ text: `error: ${what}: cannot read ${file}: no such file`, exitCode: 1 })
      )
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const ns = yield* chooseNamespace(what, o, reader, true)
    const remote = isRemote(o)
    const progress = progressLine({ json: o.json })
    const dir = scratchDir()
    const tally = Kv.newTally()
    let journal: string | undefined
    const outcome = yield* runKv(what, o, reader, ({ account }) =>
      Effect.gen(function* () {
        const a = yield* account
        const input = yield* arrayFile(what, file, opt(o.format), dir)
        journal = remote ? checkpointPath("import", a, ns.id, fileDigest(input.path)) : undefined
        const before = journal !== undefined ? (readCheckpoint<ImportJournal>(journal)?.requests ?? 0) : 0
        const r = yield* Kv.bulkPutFile(a, ns.id, input.path, {
          maxEntries: ImportBatch,
          skipRequests: before,
          onRequest: (answered) => {
            if (journal !== undefined) writeCheckpoint(journal, { requests: answered })
          },
          onProgress: (p) =>
            progress.update(p.phase === "checking" ? `checking ${input.label}` : "importing", p.done, p.total, p.unit),
          tally
        }).pipe(
          Effect.mapError((e) =>
            e instanceof InvalidInput && input.lines !== undefined
              ? new InvalidInput({
                  code: e.code,
                  message:
                    e.message.replace(`${dir}/entries.json`, input.label) +
                    " (entry N is the Nth line that is not blank)",
                  meta: e.meta
                })
              : e instanceof InvalidInput
                ? new InvalidInput({
                    code: e.code,
                    message: e.message.replace(`${dir}/input`, input.label),
                    meta: e.meta
                  })
                : e
          )
        )
        if (journal !== undefined) removeCheckpoint(journal)
        return r
      }).pipe(
        (work) =>
          o.json
            ? Effect.tapError(work, (e) => Effect.sync(() => printProblems(e)))
            : Effect.mapError(work, howToSeeAll),
        Effect.ensuring(
          Effect.sync(() => {
            progress.clear()
            fs.rmSync(dir, { recursive: true, force: true })
          })
        )
      )
    ).pipe((work) =>
      stoppable(work, (signal) => ({
        error: `${what}: stopped by ${signal} after ${count(tally.answered, "request", "requests")} (${count(tally.done, "entry", "entries")} written${journal !== undefined ? "; the journal keeps them" : ""})`,
        hint: `run \`edgectl kv import ${quote(file)}${again(o, ns)}\` again to write ${journal !== undefined ? "only what is missing" : "it (running it again is safe)"}`
      }))
    )
    const failed = outcome.result.unsuccessful_keys
    if (o.json) printJson({ ...outcome.result, requests: outcome.requests, skipped_requests: outcome.skipped })
    else {
      if (outcome.skipped > 0)
        note(
          `Resumed: ${count(outcome.skipped, "request", "requests")} of an earlier run ${outcome.skipped === 1 ? "was" : "were"} written already and not sent again.`
        )
      printLine(
        `Imported ${count(outcome.count - failed.length, "entry", "entries")} into namespace ${ns.label}${outcome.requests > 1 ? ` in ${outcome.requests} requests` : ""}.`
      )
    }
    if (failed.length > 0)
      return yield* Effect.fail(
        new CliFailure({
          text: `error: ${what}: the platform did not write ${count(failed.length, "key", "keys")}: ${failed
            .slice(0, 5)
            .map((k) => JSON.stringify(k))
            .join(", ")}${failed.length > 5 ? ", …" : ""}`,
          exitCode: 1
        })
      )
  })
