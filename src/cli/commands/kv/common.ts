/**
 * What every `edgectl kv` command does around its work: the target (`--remote`/`--local` in any of
 * their forms), the account, and the namespace chosen with exactly one of `--binding` (through the
 * project config) or `--namespace-id`.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ClientEnv } from "../../../api/client.js"
import { accountIdFromEnv } from "../../../api/target.js"
import type { V4Error } from "../../../domain/errors.js"
import { problemsOf } from "../../../kv/problems.js"
import { resolveAccount } from "../../../services/kv-service.js"
import { targetFlags as hintFlags, type HintTarget } from "../../hints.js"
import { opt } from "../../options.js"
import { formatError } from "../../output.js"
import {
  ConfigError,
  loadProjectConfig,
  resolveBinding,
  scopeFor,
  type ProjectConfig,
  type ResolvedNamespace
} from "./project-config.js"
import { CliFailure, remoteChosen, remoteLocalConflict, run, usage } from "../../run.js"
import type { SelectorOptions, TargetOptions } from "./options.js"

/** Whether `--remote` / `--local`, in any of their forms, choose the remote platform (run.ts `remoteChosen`). */
export const isRemote = (o: Pick<TargetOptions, "remote" | "local">) => remoteChosen(opt(o.remote), opt(o.local))

const targetFlags = (o: TargetOptions) => {
  const conflict = remoteLocalConflict(opt(o.remote), opt(o.local))
  if (conflict !== undefined) return Effect.fail(conflict)
  return Effect.succeed({ remote: isRemote(o), local: Option.none(), persistTo: o.persistTo, timeout: o.timeout })
}

const configFailure = (what: string, e: ConfigError, hint?: string) =>
  new CliFailure({ text: `error: ${what}: ${e.message}${hint ? `\nhint: ${hint}` : ""}`, exitCode: 1 })

/** The project config, read once per command and only when something needs it. */
export class ConfigReader {
  private loaded: Promise<ProjectConfig | undefined> | undefined
  constructor(
    readonly what: string,
    readonly cwd: string,
    readonly explicit: string | undefined
  ) {}

  get(): Effect.Effect<ProjectConfig | undefined, CliFailure> {
    return Effect.tryPromise({
      try: () => (this.loaded ??= loadProjectConfig(this.cwd, this.explicit)),
      catch: (e) =>
        e instanceof ConfigError
          ? configFailure(this.what, e)
          : new CliFailure({ text: `error: ${this.what}: ${String(e)}`, exitCode: 1 })
    })
  }
}

/** The namespace a command works on: exactly one of --binding and --namespace-id. */
export const chooseNamespace = (
  what: string,
  o: SelectorOptions,
  config: ConfigReader,
  write: boolean
): Effect.Effect<ResolvedNamespace, CliFailure> =>
  Effect.gen(function* () {
    const binding = opt(o.binding)
    const namespaceId = opt(o.namespaceId)
    if (binding !== undefined && namespaceId !== undefined) {
      return yield* Effect.fail(usage("--binding and --namespace-id cannot be used together; give only one"))
    }
    if (binding === undefined && namespaceId === undefined) {
      return yield* Effect.fail(usage("exactly one of --binding and --namespace-id is required"))
    }
    if (namespaceId !== undefined) {
      if (namespaceId === "") return yield* Effect.fail(usage("--namespace-id is empty"))
      return { id: namespaceId, label: `id ${namespaceId}`, binding: undefined }
    }
    const c = yield* config.get()
    return yield* Effect.try({
      try: () => resolveBinding(c, config.cwd, { binding: binding!, env: opt(o.env), preview: opt(o.preview), write }),
      catch: (e) =>
        e instanceof ConfigError
          ? configFailure(what, e, "check kv_namespaces in the project config, or pass --namespace-id")
          : new CliFailure({ text: `error: ${what}: ${String(e)}`, exitCode: 1 })
    })
  })

/** The account id users gave: CLOUDFLARE_ACCOUNT_ID, else `account_id` of the config (env section first). */
const givenAccount = (config: ConfigReader, env: string | undefined) =>
  Effect.gen(function* () {
    const fromEnv = accountIdFromEnv()
    if (fromEnv !== undefined) return fromEnv
    const c = yield* config.get()
    if (c === undefined) return undefined
    const scope = yield* Effect.try({
      try: () => scopeFor(c, env),
      catch: (e) => configFailure(config.what, e as ConfigError)
    })
    return scope.accountId ?? c.accountId
  })

const Hints: Partial<Record<string, string>> = {
  "10013": "run `edgectl kv namespace list` to see the namespaces of the account",
  "10014": "run `edgectl kv namespace list` to see its id, or choose another name"
}

/** What to do about a refused field of one write (`key put`); bulk files say it per entry. */
const FieldHints: Partial<Record<string, string>> = {
  key: 'a key is 1 to 512 bytes of printable characters without whitespace, not "." or ".."; encode other characters (e.g. %20 for a space)',
  value: "a value is at most 25 MiB (26,214,400 bytes): keep larger data elsewhere and store a reference",
  metadata: 'metadata is a JSON object of at most 1,024 bytes, e.g. --metadata \'{"owner":"me"}\'',
  expiration_ttl: "--ttl is seconds from now (60 or more); --expiration is a UNIX time in seconds, at least 60 s ahead",
  expiration: "--expiration is a UNIX time in seconds, at least 60 s ahead; --ttl is seconds from now (60 or more)",
  base64: "a base64 value uses A-Z a-z 0-9 and + / (or - _), with optional = padding"
}

const hintOf = (e: V4Error, target: HintTarget = { remote: false }): string | undefined => {
  const problems = problemsOf(e)
  const single = e._tag === "InvalidInput" && problems.length > 0 && problems.every((p) => p.index === undefined)
  // The listing it suggests must reach the same platform as the command that failed.
  return (
    (single ? FieldHints[problems[0]!.field] : undefined) ??
    Hints[String(e.code)]?.replace("edgectl kv namespace list`", `edgectl kv namespace list${hintFlags(target)}\``)
  )
}

export interface KvRun {
  /** The account the command works in. */
  readonly account: Effect.Effect<string, V4Error, ClientEnv>
}

/**
 * Runs a KV command's Effect against the chosen target, in the account resolved for it; failures
 * become one `error:` line (and a hint) on stderr.
 */
export const runKv = <A>(
  what: string,
  o: TargetOptions & Partial<Pick<SelectorOptions, "env">>,
  config: ConfigReader,
  body: (k: KvRun) => Effect.Effect<A, V4Error | CliFailure, ClientEnv>
): Effect.Effect<A, CliFailure> =>
  Effect.gen(function* () {
    const flags = yield* targetFlags(o)
    // The config's account_id is a real account: local mode only takes an id of a local account,
    // so it does not read the config for it.
    const given = flags.remote
      ? yield* givenAccount(config, o.env !== undefined ? opt(o.env) : undefined)
      : accountIdFromEnv()
    const account = yield* Effect.cached(resolveAccount(given))
    return yield* run(what, flags, body({ account }), (e) =>
      hintOf(e, { remote: flags.remote, persistTo: opt(flags.persistTo) })
    )
  })

/** A V4 error as the CLI prints it (for failures found before anything is sent). */
export const failWith = (what: string, e: V4Error) =>
  new CliFailure({ text: formatError(what, e, hintOf(e)), exitCode: 1 })
