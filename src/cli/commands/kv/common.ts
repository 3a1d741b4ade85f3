/**
 * What every `edgectl kv` command shares: wrangler's options (with its four boolean forms:
 * `--preview`, `--preview true`, `--preview false`, `--preview=false`), the target, and the
 * namespace chosen with exactly one of `--binding` (through the project config) or `--namespace-id`.
 */
import { Options } from "@effect/cli"
import type { HttpClient } from "@effect/platform"
import { Effect, Option } from "effect"
import type { ClientConfig } from "../../../api/client.js"
import type { V4Error } from "../../../domain/errors.js"
import { resolveAccount } from "../../../services/kv.js"
import { json, persistTo } from "../../options.js"
import { formatError } from "../../output.js"
import {
  ConfigError,
  loadProjectConfig,
  resolveBinding,
  scopeFor,
  type ProjectConfig,
  type ResolvedNamespace
} from "../../project-config.js"
import { CliFailure, run, usage } from "../../run.js"

/**
 * A boolean option that knows whether it was given: None when absent. @effect/cli's
 * `Options.boolean` defaults to false; its inner single option (the same parser: a bare flag, or
 * true/false after it or after `=`) has no default.
 */
export const triState = (name: string, description: string): Options.Options<Option.Option<boolean>> => {
  const flag = Options.boolean(name) as unknown as { readonly _tag: string; readonly options: Options.Options<boolean> }
  if (flag._tag !== "WithDefault") throw new Error(`@effect/cli changed Options.boolean: expected WithDefault, got ${flag._tag}`)
  return Options.optional(Options.withDescription(flag.options, description))
}

export const target = {
  json,
  persistTo,
  remote: triState("remote", "use the real platform (CLOUDFLARE_API_TOKEN or CLOUDFLARE_API_KEY + CLOUDFLARE_EMAIL)"),
  local: triState("local", "use the embedded local platform (the default; --local false means --remote)"),
  config: Options.text("config").pipe(
    Options.withAlias("c"),
    Options.withDescription("project config file (default: wrangler.json, wrangler.jsonc or wrangler.toml here)"),
    Options.optional
  )
}

export const selector = {
  binding: Options.text("binding").pipe(Options.withDescription("binding name of the namespace in the project config"), Options.optional),
  namespaceId: Options.text("namespace-id").pipe(Options.withDescription("id of the namespace"), Options.optional),
  env: Options.text("env").pipe(Options.withAlias("e"), Options.withDescription("environment of the project config ([env.NAME])"), Options.optional),
  preview: triState("preview", "use the binding's preview_id (--preview false: its id)")
}

export interface TargetOptions {
  readonly json: boolean
  readonly persistTo: Option.Option<string>
  readonly remote: Option.Option<boolean>
  readonly local: Option.Option<boolean>
  readonly config: Option.Option<string>
}

export interface SelectorOptions {
  readonly binding: Option.Option<string>
  readonly namespaceId: Option.Option<string>
  readonly env: Option.Option<string>
  readonly preview: Option.Option<boolean>
}

export const opt = <A>(o: Option.Option<A>) => Option.getOrUndefined(o)

/** `--remote` / `--local` in any of their forms: `--local false` is `--remote`, as in wrangler. */
const targetFlags = (o: TargetOptions) => {
  const remote = opt(o.remote)
  const local = opt(o.local)
  const isRemote = remote === true || (remote === undefined && local === false)
  if ((remote === true && local === true) || (remote === false && local === false)) {
    return Effect.fail(usage("--remote and --local cannot be used together"))
  }
  return Effect.succeed({ remote: isRemote, local: false, persistTo: o.persistTo })
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
      catch: (e) => (e instanceof ConfigError ? configFailure(this.what, e) : new CliFailure({ text: `error: ${this.what}: ${String(e)}`, exitCode: 1 }))
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
      catch: (e) => (e instanceof ConfigError ? configFailure(what, e, "check kv_namespaces in the project config, or pass --namespace-id") : new CliFailure({ text: `error: ${what}: ${String(e)}`, exitCode: 1 }))
    })
  })

/** The account id users gave: CLOUDFLARE_ACCOUNT_ID, else `account_id` of the config (env section first). */
const givenAccount = (config: ConfigReader, env: string | undefined) =>
  Effect.gen(function* () {
    const fromEnv = process.env.CLOUDFLARE_ACCOUNT_ID
    if (fromEnv !== undefined && fromEnv !== "") return fromEnv
    const c = yield* config.get()
    if (c === undefined) return undefined
    const scope = yield* Effect.try({ try: () => scopeFor(c, env), catch: (e) => configFailure(config.what, e as ConfigError) })
    return scope.accountId ?? c.accountId
  })

const Hints: Partial<Record<string, string>> = {
  "10013": "run `edgectl kv namespace list` to see the namespaces of the account",
  "10014": "run `edgectl kv namespace list` to see its id, or choose another name"
}

export interface KvRun {
  /** The account the command works in. */
  readonly account: Effect.Effect<string, V4Error, HttpClient.HttpClient | ClientConfig>
}

/**
 * Runs a KV command's Effect against the chosen target, in the account resolved for it; failures
 * become one `error:` line (and a hint) on stderr.
 */
export const runKv = <A>(
  what: string,
  o: TargetOptions & { readonly env?: Option.Option<string> },
  config: ConfigReader,
  body: (k: KvRun) => Effect.Effect<A, V4Error | CliFailure, HttpClient.HttpClient | ClientConfig>
): Effect.Effect<A, CliFailure> =>
  Effect.gen(function* () {
    const flags = yield* targetFlags(o)
    // The config's account_id is a real account: local mode only takes an id of a local account,
    // so it does not read the config for it.
    const given = flags.remote ? yield* givenAccount(config, o.env !== undefined ? opt(o.env) : undefined) : process.env.CLOUDFLARE_ACCOUNT_ID
    const account = yield* Effect.cached(resolveAccount(given))
    return yield* run(what, flags, body({ account }), (e) => Hints[String(e.code)])
  })

/** A V4 error as the CLI prints it (for failures found before anything is sent). */
export const failWith = (what: string, e: V4Error) => new CliFailure({ text: formatError(what, e, Hints[String(e.code)]), exitCode: 1 })
