/** What `edgectl kv key put|get|list|delete` do (loaded when one of them runs). */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fs from "node:fs"
import { readInputBytes, readStdin, STDIO } from "../../files.js"
import * as path from "node:path"
import { problemsError } from "../../../kv/problems.js"
import { ValueMaxBytes } from "../../../domain/kv-limits.js"
import { checkPut } from "../../../kv/entry-checks.js"
import { locate, nowSeconds, parseMetadataText, parseSeconds, checkKey } from "../../../kv/validate.js"
import * as Kv from "../../../services/kv-service.js"
import { opt } from "../../options.js"
import { printJson, printLine } from "../../output.js"
import { CliFailure, positional, usage } from "../../run.js"
import { chooseNamespace, ConfigReader, failWith, runKv } from "./common.js"
import type { Parsed } from "./options.js"
import { writeOut } from "../../stdio.js"
import { readProblem } from "../../../domain/file-errors.js"

/** A key given on the command line, checked before anything is sent. */
const checkedKey = (what: string, raw: string) =>
  Effect.flatMap(positional("<key>", raw), (key) => {
    const bad = checkKey(key)
    return bad === undefined
      ? Effect.succeed(key)
      : Effect.fail(failWith(what, problemsError([locate(bad, undefined, key)])))
  })

const seconds = (field: "expiration" | "expiration_ttl", flag: string, text: string | undefined) => {
  // The platform reads an empty query value as none; on the command line (`--ttl=`) it is a mistake.
  const refused = () => usage(`${flag} must be a whole number of seconds, got ${JSON.stringify(text)}`)
  return text === "" ? Effect.fail(refused()) : Effect.mapError(parseSeconds(field, text), refused)
}

/** The bytes of a --path file, or its size when it is over the value limit (refused unread). */
const readValueFile = (
  what: string,
  file: string
): Effect.Effect<{ readonly bytes: Uint8Array } | { readonly tooLarge: number }, CliFailure> =>
  Effect.tryPromise({
    try: async () => {
      // `-` (stdin), a FIFO or a /dev/fd path has no size before it is read: read, then measured.
      if (file === STDIO) {
        const bytes = await readStdin()
        return bytes.length > ValueMaxBytes ? { tooLarge: bytes.length } : { bytes }
      }
      const st = fs.statSync(file)
      if (st.isDirectory()) throw Object.assign(new Error("it is a directory"), { code: "EISDIR" })
      if (st.size > ValueMaxBytes) return { tooLarge: st.size }
      const bytes = await readInputBytes(file)
      return bytes.length > ValueMaxBytes ? { tooLarge: bytes.length } : { bytes }
    },
    catch: (e) => {
      return new CliFailure({ text: `error: ${what}: cannot read ${file}: ${readProblem(e)}`, exitCode: 1 })
    }
  })

export const keyPut = (o: Parsed<"keyPut">) =>
  Effect.gen(function* () {
    const what = "kv key put"
    const key = yield* checkedKey(what, o.key)
    const text = opt(o.value)
    const file = opt(o.path)
    if (text !== undefined && file !== undefined) return yield* Effect.fail(usage("give the value or --path, not both"))
    if (text === undefined && file === undefined)
      return yield* Effect.fail(usage("exactly one of <value> and --path is required"))
    const ttl = yield* seconds("expiration_ttl", "--ttl", opt(o.ttl))
    const expiration = yield* seconds("expiration", "--expiration", opt(o.expiration))
    let metadataText: string | undefined
    const rawMeta = opt(o.metadata)
    if (rawMeta !== undefined) {
      const json = yield* Either.mapLeft(parseMetadataText(rawMeta), (m) =>
        failWith(what, problemsError([locate(m, undefined, key)]))
      )
      metadataText = json ?? undefined
    }
    const read = file !== undefined ? yield* readValueFile(what, file) : { bytes: Buffer.from(text!, "utf8") }
    const size = "bytes" in read ? read.bytes.length : read.tooLarge
    // Metadata was checked above; the rest with the platform's rules, before anything is sent.
    const { expiration: at } = yield* Either.mapLeft(
      checkPut({ key, valueBytes: size, expiration, expirationTtl: ttl }, nowSeconds()),
      (problems) => failWith(what, problemsError(problems))
    )
    const value = "bytes" in read ? read.bytes : new Uint8Array(0)
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const ns = yield* chooseNamespace(what, o, reader, true)
    yield* runKv(what, o, reader, ({ account }) =>
      Effect.flatMap(account, (a) =>
        Kv.putValue(a, ns.id, key, {
          value,
          metadata: metadataText,
          // --ttl wins, as on the platform; only the winner is sent.
          ...(ttl !== undefined ? { expirationTtl: ttl } : expiration !== undefined ? { expiration } : {}),
          ...(file !== undefined ? { filename: path.basename(file) } : {})
        })
      )
    )
    const metadata = metadataText !== undefined ? (JSON.parse(metadataText) as unknown) : undefined
    // With --ttl the platform fixes the time when it stores the key: say the TTL, not a guess.
    const expires = ttl !== undefined ? { expiration_ttl: ttl } : at !== null ? { expiration: at } : {}
    if (o.json)
      return printJson({
        key,
        namespace_id: ns.id,
        bytes: value.length,
        ...expires,
        ...(metadata !== undefined ? { metadata } : {})
      })
    const details = [
      `${value.length} ${value.length === 1 ? "byte" : "bytes"}`,
      ...(file !== undefined ? [`from ${file}`] : []),
      ...(ttl !== undefined
        ? [`expires in ${ttl} s`]
        : at !== null
          ? [`expires ${new Date(at * 1000).toISOString()}`]
          : []),
      ...(metadataText !== undefined ? [`metadata ${metadataText}`] : [])
    ]
    printLine(`Wrote key ${JSON.stringify(key)} (${details.join(", ")}) to namespace ${ns.label}.`)
  })

export const keyGet = (o: Parsed<"keyGet">) =>
  Effect.gen(function* () {
    const what = "kv key get"
    const key = yield* checkedKey(what, o.key)
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const ns = yield* chooseNamespace(what, o, reader, false)
    const found = yield* runKv(what, o, reader, ({ account }) =>
      Effect.gen(function* () {
        const a = yield* account
        const value = yield* Kv.getValue(a, ns.id, key)
        const metadata = o.json ? yield* Kv.getMetadata(a, ns.id, key) : undefined
        return { value, metadata }
      }).pipe(Effect.catchIf(Kv.isKeyNotFound, () => Effect.succeed(undefined)))
    )
    if (o.json) {
      if (found === undefined) return printJson(null)
      const bytes = Buffer.from(found.value.bytes)
      const text = bytes.toString("utf8")
      const utf8 = Buffer.from(text, "utf8").equals(bytes)
      return printJson({
        key,
        value: utf8 ? text : bytes.toString("base64"),
        encoding: utf8 ? "utf8" : "base64",
        ...(found.value.expiration !== undefined ? { expiration: found.value.expiration } : {}),
        ...(found.metadata !== null && found.metadata !== undefined ? { metadata: found.metadata } : {})
      })
    }
    // As wrangler: a missing key is "Value not found" on stdout, and success.
    if (found === undefined) return printLine("Value not found")
    if (o.text) return printLine(Buffer.from(found.value.bytes).toString("utf8"))
    writeOut(found.value.bytes)
  })

export const keyList = (o: Parsed<"keyList">) =>
  Effect.gen(function* () {
    const what = "kv key list"
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const ns = yield* chooseNamespace(what, o, reader, false)
    const keys = yield* runKv(what, o, reader, ({ account }) =>
      Effect.flatMap(account, (a) => Kv.allKeys(a, ns.id, opt(o.prefix) ?? ""))
    )
    printJson(keys)
  })

export const keyDelete = (o: Parsed<"keyDelete">) =>
  Effect.gen(function* () {
    const what = "kv key delete"
    const key = yield* checkedKey(what, o.key)
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const ns = yield* chooseNamespace(what, o, reader, true)
    yield* runKv(what, o, reader, ({ account }) => Effect.flatMap(account, (a) => Kv.deleteValue(a, ns.id, key)))
    if (o.json) return printJson({ key, namespace_id: ns.id, deleted: true })
    printLine(`Deleted key ${JSON.stringify(key)} from namespace ${ns.label}.`)
  })
