/**
 * What `edgectl kv clear|copy|diff` do (loaded when one of them runs). `copy` and `diff` work on two
 * namespaces that may be on two platforms (`--to-remote`, `--with-local`…): each side runs in its
 * own client (runKv), the first as the target options say, the second as its own options say.
 */
import * as Effect from "effect/Effect"
import type { ClientEnv } from "../../../api/client.js"
import type { V4Error } from "../../../domain/errors.js"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import * as path from "node:path"
import { EntryWriter, scratchDir } from "../../../kv/lifecycle-files.js"
import * as Kv from "../../../services/kv-bulk-service.js"
import { deleteKeys, diffPages, entryPage, keyNames, readEntries } from "../../../services/kv-lifecycle-service.js"
import { resolveAccount } from "../../../services/kv-service.js"
import { quote, targetFlags } from "../../hints.js"
import { opt } from "../../options.js"
import { note, printJson, printLine } from "../../output.js"
import { progressLine } from "../../progress.js"
import { confirm } from "../../prompt.js"
import { CliFailure, usage } from "../../run.js"
import { chooseNamespace, ConfigReader, isRemote, runKv } from "./common.js"
import type { OtherSide, Parsed, TargetOptions } from "./options.js"
import type { ResolvedNamespace } from "./project-config.js"

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`

const where = (t: { remote: boolean; persistTo: string | undefined }) =>
  t.remote ? "remote" : t.persistTo !== undefined ? `local (${t.persistTo})` : "local"

/** The second namespace: its id (the first's by default) and its platform (the first's by default). */
const otherSide = (
  flag: "to" | "with",
  o: TargetOptions & OtherSide,
  ns: ResolvedNamespace
): Effect.Effect<
  { id: string; label: string; options: TargetOptions; remote: boolean; account: string | undefined },
  CliFailure
> => {
  if (o.otherRemote && o.otherLocal)
    return Effect.fail(usage(`--${flag}-remote and --${flag}-local cannot be used together`))
  const remote = o.otherRemote ? true : o.otherLocal ? false : isRemote(o)
  const persistTo = Option.isSome(o.otherPersistTo)
    ? o.otherPersistTo
    : remote === isRemote(o)
      ? o.persistTo
      : Option.none()
  if (remote && Option.isSome(o.otherPersistTo))
    return Effect.fail(usage(`--${flag}-persist-to applies to a local namespace, not to --${flag}-remote`))
  const id = opt(o.otherId) ?? ns.id
  return Effect.succeed({
    id,
    label: `id ${id}${opt(o.otherAccount) !== undefined ? ` in account ${opt(o.otherAccount)}` : ""}`,
    remote,
    account: opt(o.otherAccount),
    options: { ...o, remote: Option.some(remote), local: Option.none(), persistTo }
  })
}

const sameSide = (
  a: TargetOptions,
  aId: string,
  b: TargetOptions,
  bId: string,
  aAccount: string | undefined = undefined,
  bAccount: string | undefined = undefined
) =>
  aId === bId &&
  aAccount === bAccount &&
  isRemote(a) === isRemote(b) &&
  (isRemote(a) || path.resolve(opt(a.persistTo) ?? ".") === path.resolve(opt(b.persistTo) ?? "."))

/** `kv clear`: every key of a namespace, after a confirmation naming it and the count. Resumable: a re-run deletes what is left. */
export const kvClear = (o: Parsed<"kvClear">) =>
  Effect.gen(function* () {
    const what = "kv clear"
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const ns = yield* chooseNamespace(what, o, reader, true)
    const progress = progressLine({ json: o.json })
    const done = yield* runKv(what, o, reader, ({ account }) =>
      Effect.gen(function* () {
        const a = yield* account
        const names = yield* keyNames(a, ns.id)
        if (names.length === 0) return 0
        const answer = yield* confirm(`Delete all ${count(names.length, "key", "keys")} of namespace ${ns.label}?`, {
          default: false,
          yes: o.yes
        })
        if (answer !== "yes") return undefined
        return yield* deleteKeys(a, ns.id, names, (n) => progress.update("deleting", n, names.length, "entries"))
      }).pipe(Effect.ensuring(Effect.sync(progress.clear)))
    )
    if (done === undefined) {
      note("Not cleared.")
      if (!o.yes)
        return yield* Effect.fail(
          new CliFailure({
            text: `error: ${what}: nothing was deleted without a confirmation\nhint: run \`edgectl kv clear --namespace-id ${quote(ns.id)}${targetFlags({ remote: isRemote(o), persistTo: opt(o.persistTo) })} --yes\` to delete every key`,
            exitCode: 1
          })
        )
      return
    }
    if (o.json) return printJson({ deleted: done })
    printLine(`Deleted ${count(done, "key", "keys")} of namespace ${ns.label}.`)
  })

/** `kv copy`: the source exported to a scratch file (bounded memory), then imported as `kv import` does. */
export const kvCopy = (o: Parsed<"kvCopy">) =>
  Effect.gen(function* () {
    const what = "kv copy"
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const ns = yield* chooseNamespace(what, o, reader, false)
    const to = yield* otherSide("to", o, ns)
    if (sameSide(o, ns.id, to.options, to.id, undefined, to.account))
      return yield* Effect.fail(
        usage(`${what}: the destination is the source namespace; give --to-namespace-id or --to-remote/--to-local`)
      )
    const from = { remote: isRemote(o), persistTo: opt(o.persistTo) }
    const dest = { remote: to.remote, persistTo: opt(to.options.persistTo) }
    const progress = progressLine({ json: o.json })
    const dir = scratchDir()
    const file = path.join(dir, "entries.json")
    return yield* Effect.gen(function* () {
      const copied = yield* runKv(what, o, reader, ({ account }) =>
        Effect.gen(function* () {
          const a = yield* account
          if (o.dryRun) return (yield* keyNames(a, ns.id)).length
          const fd = fs.openSync(file, "w")
          const writer = new EntryWriter((t) => fs.writeSync(fd, t), "json")
          writer.begin()
          yield* readEntries(a, ns.id, {
            onPage: (page) => {
              writer.writeLines(page.lines, page.count)
              progress.update("reading", writer.count, writer.count, "entries")
            }
          }).pipe(Effect.ensuring(Effect.sync(() => fs.closeSync(fd))))
          fs.appendFileSync(file, writer.count === 0 ? "]\n" : "\n]\n")
          return writer.count
        })
      )
      if (o.dryRun) {
        if (o.json) return printJson({ count: copied, dry_run: true })
        return printLine(
          `Would copy ${count(copied, "key", "keys")} from namespace ${ns.label} (${where(from)}) to namespace ${to.label} (${where(dest)}).`
        )
      }
      const r = yield* runKv(what, to.options, reader, ({ account }) =>
        Effect.flatMap(to.account !== undefined ? resolveAccount(to.account) : account, (a) =>
          Kv.bulkPutFile(a, to.id, file, {
            maxEntries: 10_000,
            onProgress: (p) => progress.update(p.phase === "checking" ? "checking" : "writing", p.done, p.total, p.unit)
          })
        )
      )
      if (o.json) return printJson({ count: r.count, ...r.result })
      printLine(
        `Copied ${count(r.count, "key", "keys")} from namespace ${ns.label} (${where(from)}) to namespace ${to.label} (${where(dest)}).`
      )
    }).pipe(
      Effect.ensuring(
        Effect.sync(() => {
          progress.clear()
          fs.rmSync(dir, { recursive: true, force: true })
        })
      )
    )
  })

/** `kv diff`: both namespaces read in key order, page by page, compared key by key; exit 1 when they differ. */
export const kvDiff = (o: Parsed<"kvDiff">) =>
  Effect.gen(function* () {
    const what = "kv diff"
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const ns = yield* chooseNamespace(what, o, reader, false)
    const other = yield* otherSide("with", o, ns)
    if (sameSide(o, ns.id, other.options, other.id, undefined, other.account))
      return yield* Effect.fail(
        usage(`${what}: give a second namespace: --with-namespace-id, --with-remote or --with-local`)
      )
    // Both sides are read at once, their pages merged in key order (diffPages): memory holds a
    // page of each, not two namespaces. Two platforms each have a client (runKv) open together; the
    // first side's first page is read in its own run, so a failure there gets that side's hint. One
    // platform (two namespaces of one store) has one client: no second store opened beside it.
    const onePlatform =
      isRemote(o) === other.remote &&
      (other.remote || path.resolve(opt(o.persistTo) ?? ".") === path.resolve(opt(other.options.persistTo) ?? "."))
    const d = yield* runKv(what, o, reader, ({ account }) =>
      Effect.gen(function* () {
        const a = yield* account
        const head = yield* entryPage(a, ns.id, {})
        const first = (cursor: string | undefined) =>
          cursor === undefined ? Effect.succeed(head) : entryPage(a, ns.id, { cursor })
        const otherAccount = (fallback: Effect.Effect<string, V4Error, ClientEnv>) =>
          other.account !== undefined ? resolveAccount(other.account) : fallback
        if (onePlatform) {
          const b = yield* otherAccount(Effect.succeed(a))
          return yield* diffPages(first, (cursor) => entryPage(b, other.id, { cursor }))
        }
        const firstClient = yield* Effect.context<ClientEnv>()
        return yield* runKv(what, other.options, reader, ({ account: second }) =>
          Effect.gen(function* () {
            const b = yield* otherAccount(second)
            return yield* diffPages(
              (cursor) => Effect.provide(first(cursor), firstClient),
              (cursor) => entryPage(b, other.id, { cursor })
            )
          })
        )
      })
    )
    const a = `${ns.label} (${where({ remote: isRemote(o), persistTo: opt(o.persistTo) })})`
    const b = `${other.label} (${where({ remote: other.remote, persistTo: opt(other.options.persistTo) })})`
    const { count: keys, ...diff } = d
    if (o.json) printJson({ first: a, second: b, ...diff })
    else {
      for (const k of d.only_in_first) printLine(`- ${JSON.stringify(k)} only in ${a}`)
      for (const k of d.only_in_second) printLine(`+ ${JSON.stringify(k)} only in ${b}`)
      for (const k of d.different) printLine(`~ ${JSON.stringify(k.key)}: ${k.fields.join(", ")} differ`)
      if (d.equal) printLine(`Namespaces ${a} and ${b} are equal (${count(keys, "key", "keys")}).`)
    }
    if (!d.equal)
      return yield* Effect.fail(
        new CliFailure({
          text: `error: ${what}: the namespaces differ: ${d.only_in_first.length} only in the first, ${d.only_in_second.length} only in the second, ${d.different.length} different`,
          exitCode: 1
        })
      )
  })
