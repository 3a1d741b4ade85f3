/**
 * The options and arguments of every `edgectl kv` command, as wrangler spells them (with its four
 * boolean forms: `--preview`, `--preview true`, `--preview false`, `--preview=false`). Only
 * declarations: this module is loaded at every start, the commands' work is loaded when one runs.
 */
import * as Args from "@effect/cli/Args"
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { json, persistTo, triState } from "../../options.js"

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

const env = Options.text("env").pipe(
  Options.withAlias("e"),
  Options.withDescription("environment of the project config ([env.NAME])"),
  Options.optional
)
const preview = triState("preview", "use the binding's preview_id (--preview false: its id)")

export const selector = {
  binding: Options.text("binding").pipe(
    Options.withDescription("binding name of the namespace in the project config"),
    Options.optional
  ),
  namespaceId: Options.text("namespace-id").pipe(Options.withDescription("id of the namespace"), Options.optional),
  env,
  preview
}

const key = Args.text({ name: "key" }).pipe(Args.withDescription("the key"))
const file = (what: string) =>
  Args.text({ name: "filename" }).pipe(Args.withDescription(`${what}; - reads standard input`))

/** Every command's configuration, by name; the handlers (loaded on use) take the parsed values. */
export const Configs = {
  namespaceCreate: {
    ...target,
    namespace: Args.text({ name: "namespace" }).pipe(
      Args.withDescription("name of the namespace (the title adds the project prefix)")
    ),
    env,
    preview
  },
  namespaceList: { ...target },
  namespaceDelete: {
    ...target,
    ...selector,
    yes: Options.boolean("yes", { aliases: ["y", "skip-confirmation"] }).pipe(
      Options.withDescription("delete without asking (needed off a terminal)")
    ),
    name: Args.text({ name: "namespace" }).pipe(
      Args.withDescription("title of the namespace (instead of --binding/--namespace-id)"),
      Args.optional
    )
  },
  namespaceRename: {
    ...target,
    ...selector,
    name: Args.text({ name: "namespace" }).pipe(
      Args.withDescription("current title of the namespace (instead of --binding/--namespace-id)"),
      Args.optional
    ),
    newName: Options.text("new-name").pipe(Options.withDescription("the new title (1 to 512 characters)"))
  },
  keyPut: {
    ...target,
    ...selector,
    key,
    value: Args.text({ name: "value" }).pipe(Args.withDescription("the value (or --path)"), Args.optional),
    path: Options.text("path").pipe(
      Options.withDescription("read the value from this file (keeps it out of shell history)"),
      Options.optional
    ),
    ttl: Options.text("ttl").pipe(
      Options.withDescription("seconds until the key expires (at least 60; wins over --expiration)"),
      Options.optional
    ),
    expiration: Options.text("expiration").pipe(
      Options.withDescription("when the key expires, in seconds since the UNIX epoch"),
      Options.optional
    ),
    metadata: Options.text("metadata").pipe(
      Options.withDescription("a JSON object of at most 1024 bytes"),
      Options.optional
    )
  },
  keyGet: {
    ...target,
    ...selector,
    key,
    text: Options.boolean("text").pipe(Options.withDescription("decode the value as UTF-8 text (adds a newline)"))
  },
  keyList: {
    ...target,
    ...selector,
    prefix: Options.text("prefix").pipe(Options.withDescription("only keys that start with this"), Options.optional)
  },
  keyDelete: { ...target, ...selector, key },
  bulkPut: {
    ...target,
    ...selector,
    file: file("JSON file: an array of {key, value, expiration?, expiration_ttl?, metadata?, base64?}")
  },
  bulkGet: {
    ...target,
    ...selector,
    metadata: Options.boolean("metadata").pipe(
      Options.withDescription("also print each key's metadata (and expiration)")
    ),
    file: file('JSON file: an array of keys (strings or {"name": key})')
  },
  bulkDelete: {
    ...target,
    ...selector,
    yes: Options.boolean("yes", { aliases: ["y", "force", "f"] }).pipe(
      Options.withDescription("delete without asking")
    ),
    file: file('JSON file: an array of keys (strings or {"name": key})')
  }
}

export type KvCommand = keyof typeof Configs
export type Parsed<K extends KvCommand> = Command.Command.ParseConfig<(typeof Configs)[K]>
export type TargetOptions = Command.Command.ParseConfig<typeof target>
export type SelectorOptions = Command.Command.ParseConfig<typeof selector>
