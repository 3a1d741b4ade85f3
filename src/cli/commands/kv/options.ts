/**
 * The options of each `edgectl kv` command, declared once: the tree (./index.ts) gives each command
 * its entry, and each handler takes `Parsed<"name">`, what that entry parses into. Adding an option
 * is one edit here. Apart from the tree so that the handlers (loaded on use) import only types.
 */
import * as Args from "@effect/cli/Args"
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { json, persistTo, timeout, triState } from "../../options.js"

/** The output and target options of every KV command, with wrangler's `--remote false` forms. */
const target = {
  json,
  persistTo,
  remote: triState("remote", "use the real platform (CLOUDFLARE_API_TOKEN or CLOUDFLARE_API_KEY + CLOUDFLARE_EMAIL)"),
  local: triState("local", "use the embedded local platform (the default; --local false means --remote)"),
  config: Options.text("config").pipe(
    Options.withPseudoName("FILE"),
    Options.withAlias("c"),
    Options.withDescription("project config file (default: wrangler.json, wrangler.jsonc or wrangler.toml here)"),
    Options.optional
  ),
  timeout
}

const env = Options.text("env").pipe(
  Options.withPseudoName("ENV"),
  Options.withAlias("e"),
  Options.withDescription("environment of the project config ([env.NAME])"),
  Options.optional
)
const preview = triState("preview", "use the binding's preview_id (--preview false: its id)")

/** The namespace: by its binding in the project config, or by id. */
const selector = {
  binding: Options.text("binding").pipe(
    Options.withPseudoName("BINDING"),
    Options.withDescription("binding name of the namespace in the project config"),
    Options.optional
  ),
  namespaceId: Options.text("namespace-id").pipe(
    Options.withPseudoName("ID"),
    Options.withDescription("id of the namespace"),
    Options.optional
  ),
  env,
  preview
}

const key = Args.text({ name: "key" }).pipe(Args.withDescription("the key"))
const file = (what: string) => Args.text({ name: "FILE" }).pipe(Args.withDescription(`${what}; - reads standard input`))
const keysFile = 'JSON file: an array of keys (strings or {"name": key})'

const format = Options.text("format").pipe(
  Options.withPseudoName("json|jsonl"),
  Options.withDescription(
    "json (the bulk put format, an array) or jsonl (one entry a line); default: by the file's name"
  ),
  Options.optional
)

/** The second namespace of `kv copy` (`--to-…`) and `kv diff` (`--with-…`): its id and its platform. */
const other = (prefix: "to" | "with", what: string) => ({
  otherId: Options.text(`${prefix}-namespace-id`).pipe(
    Options.withPseudoName("ID"),
    Options.withDescription(
      `id of the ${what} namespace (default: the same id, on the platform --${prefix}-remote/--${prefix}-local choose)`
    ),
    Options.optional
  ),
  otherRemote: Options.boolean(`${prefix}-remote`).pipe(
    Options.withDescription(`the ${what} namespace is on the real platform`)
  ),
  otherLocal: Options.boolean(`${prefix}-local`).pipe(
    Options.withDescription(`the ${what} namespace is on the embedded local platform`)
  ),
  otherAccount: Options.text(`${prefix}-account-id`).pipe(
    Options.withPseudoName("ACCOUNT"),
    Options.withDescription(`account of the ${what} namespace (default: the first's)`),
    Options.optional
  ),
  otherPersistTo: Options.text(`${prefix}-persist-to`).pipe(
    Options.withPseudoName("DIR"),
    Options.withDescription(`state directory of the ${what} namespace's local platform`),
    Options.optional
  )
})

/** Each KV command's options, by the name of its handler; the order of each entry is the order of its help. */
export const kvOptions = {
  namespaceCreate: {
    ...target,
    namespace: Args.text({ name: "namespace" }).pipe(
      Args.withDescription("name of the namespace (the title adds the project prefix)")
    ),
    env,
    preview
  },
  namespaceList: { ...target },
  namespaceRename: {
    ...target,
    ...selector,
    name: Args.text({ name: "namespace" }).pipe(
      Args.withDescription("current title of the namespace (instead of --binding/--namespace-id)"),
      Args.optional
    ),
    newName: Options.text("new-name").pipe(
      Options.withPseudoName("TITLE"),
      Options.withDescription("the new title (1 to 512 characters)")
    )
  },
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
  keyPut: {
    ...target,
    ...selector,
    key,
    value: Args.text({ name: "value" }).pipe(Args.withDescription("the value (or --path)"), Args.optional),
    path: Options.text("path").pipe(
      Options.withPseudoName("FILE"),
      Options.withDescription("read the value from this file (keeps it out of shell history)"),
      Options.optional
    ),
    ttl: Options.text("ttl").pipe(
      Options.withPseudoName("SECONDS"),
      Options.withDescription("seconds until the key expires (at least 60; wins over --expiration)"),
      Options.optional
    ),
    expiration: Options.text("expiration").pipe(
      Options.withPseudoName("SECONDS"),
      Options.withDescription("when the key expires, in seconds since the UNIX epoch"),
      Options.optional
    ),
    metadata: Options.text("metadata").pipe(
      Options.withPseudoName("JSON"),
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
    prefix: Options.text("prefix").pipe(
      Options.withPseudoName("PREFIX"),
      Options.withDescription("only keys that start with this"),
      Options.optional
    )
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
    file: file(keysFile)
  },
  bulkDelete: {
    ...target,
    ...selector,
    yes: Options.boolean("yes", { aliases: ["y", "force", "f"] }).pipe(
      Options.withDescription("delete without asking")
    ),
    file: file(keysFile)
  },
  kvExport: {
    ...target,
    ...selector,
    output: Options.text("output").pipe(
      Options.withAlias("o"),
      Options.withPseudoName("FILE"),
      Options.withDescription("file to write (default -: standard output)"),
      Options.optional
    ),
    format,
    resume: Options.boolean("resume").pipe(
      Options.withDescription("go on with a stopped --remote export to the same --output file")
    )
  },
  kvImport: { ...target, ...selector, file: file("JSON array of bulk entries, or JSON Lines of them"), format },
  kvClear: {
    ...target,
    ...selector,
    yes: Options.boolean("yes", { aliases: ["y"] }).pipe(
      Options.withDescription("delete without asking (needed off a terminal)")
    )
  },
  kvCopy: {
    ...target,
    ...selector,
    ...other("to", "destination"),
    dryRun: Options.boolean("dry-run").pipe(Options.withDescription("count what would be copied; write nothing"))
  },
  kvDiff: { ...target, ...selector, ...other("with", "second") }
}

/** What the options of the KV command whose handler is `K` parse into: that handler's input. */
export type Parsed<K extends keyof typeof kvOptions> = Command.Command.ParseConfig<(typeof kvOptions)[K]>

/** The parsed output and target options every KV command takes. */
export type TargetOptions = Command.Command.ParseConfig<typeof target>
/** The parsed namespace selector (`--binding`, `--namespace-id`, `--env`, `--preview`). */
export type SelectorOptions = Command.Command.ParseConfig<typeof selector>
/** The parsed second namespace of `kv copy` and `kv diff`. */
export type OtherSide = Command.Command.ParseConfig<ReturnType<typeof other>>
