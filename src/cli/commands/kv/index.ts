/**
 * `edgectl kv`: the key-value store, with wrangler's commands and options (`kv namespace`,
 * `kv key`, `kv bulk`), as wrangler spells them (with its four boolean forms: `--preview`,
 * `--preview true`, `--preview false`, `--preview=false`). The tree and its options are declared
 * here, loaded at every start; what a command does is in ./run.js, loaded only when a KV command
 * runs (it pulls in the KV service, the bulk file reader and the project config reader, which
 * other commands do not need).
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { lazyHandlers } from "../../lazy.js"
import { json, persistTo, timeout, triState } from "../../options.js"

const bulkHandler = lazyHandlers(() => import("./bulk-run.js"))
const keyHandler = lazyHandlers(() => import("./key-run.js"))
const namespaceHandler = lazyHandlers(() => import("./namespace-run.js"))

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
  Options.withAlias("e"),
  Options.withDescription("environment of the project config ([env.NAME])"),
  Options.optional
)
const preview = triState("preview", "use the binding's preview_id (--preview false: its id)")

const selector = {
  binding: Options.text("binding").pipe(
    Options.withDescription("binding name of the namespace in the project config"),
    Options.optional
  ),
  namespaceId: Options.text("namespace-id").pipe(Options.withDescription("id of the namespace"), Options.optional),
  env,
  preview
}

const key = Args.text({ name: "key" }).pipe(Args.withDescription("the key"))
const file = (what: string) => Args.text({ name: "FILE" }).pipe(Args.withDescription(`${what}; - reads standard input`))
const keysFile = 'JSON file: an array of keys (strings or {"name": key})'

const namespace = Command.make("namespace").pipe(
  Command.withDescription("KV namespaces of the account"),
  Command.withSubcommands([
    Command.make(
      "create",
      {
        ...target,
        namespace: Args.text({ name: "namespace" }).pipe(
          Args.withDescription("name of the namespace (the title adds the project prefix)")
        ),
        env,
        preview
      },
      namespaceHandler((m) => m.namespaceCreate)
    ).pipe(Command.withDescription("create a namespace; prints the lines to add to the project config")),
    Command.make(
      "list",
      { ...target },
      namespaceHandler((m) => m.namespaceList)
    ).pipe(
      Command.withDescription("print the account's namespaces as a JSON array of {id, title, supports_url_encoding}")
    ),
    Command.make(
      "rename",
      {
        ...target,
        ...selector,
        name: Args.text({ name: "namespace" }).pipe(
          Args.withDescription("current title of the namespace (instead of --binding/--namespace-id)"),
          Args.optional
        ),
        newName: Options.text("new-name").pipe(Options.withDescription("the new title (1 to 512 characters)"))
      },
      namespaceHandler((m) => m.namespaceRename)
    ).pipe(Command.withDescription("give a namespace a new title (its id, keys and bindings stay)")),
    Command.make(
      "delete",
      {
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
      namespaceHandler((m) => m.namespaceDelete)
    ).pipe(Command.withDescription("delete a namespace and all its keys (asks [y/n]; --yes off a terminal)"))
  ])
)

const keys = Command.make("key").pipe(
  Command.withDescription("single keys of a namespace"),
  Command.withSubcommands([
    Command.make(
      "put",
      {
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
      keyHandler((m) => m.keyPut)
    ).pipe(Command.withDescription("write one key")),
    Command.make(
      "get",
      {
        ...target,
        ...selector,
        key,
        text: Options.boolean("text").pipe(Options.withDescription("decode the value as UTF-8 text (adds a newline)"))
      },
      keyHandler((m) => m.keyGet)
    ).pipe(Command.withDescription("print a key's value (raw bytes; --text for UTF-8 text)")),
    Command.make(
      "list",
      {
        ...target,
        ...selector,
        prefix: Options.text("prefix").pipe(Options.withDescription("only keys that start with this"), Options.optional)
      },
      keyHandler((m) => m.keyList)
    ).pipe(Command.withDescription("print every key (with --prefix, those that start with it) as a JSON array")),
    Command.make(
      "delete",
      { ...target, ...selector, key },
      keyHandler((m) => m.keyDelete)
    ).pipe(Command.withDescription("delete one key (a missing key is not an error)"))
  ])
)

const bulk = Command.make("bulk").pipe(
  Command.withDescription("many keys at once, from JSON files"),
  Command.withSubcommands([
    Command.make(
      "put",
      {
        ...target,
        ...selector,
        file: file("JSON file: an array of {key, value, expiration?, expiration_ttl?, metadata?, base64?}")
      },
      bulkHandler((m) => m.bulkPut)
    ).pipe(Command.withDescription("write every entry of a JSON file; an invalid file writes nothing")),
    Command.make(
      "get",
      {
        ...target,
        ...selector,
        metadata: Options.boolean("metadata").pipe(
          Options.withDescription("also print each key's metadata (and expiration)")
        ),
        file: file(keysFile)
      },
      bulkHandler((m) => m.bulkGet)
    ).pipe(Command.withDescription("print the values (as text) of the keys listed in a JSON file, as one JSON object")),
    Command.make(
      "delete",
      {
        ...target,
        ...selector,
        yes: Options.boolean("yes", { aliases: ["y", "force", "f"] }).pipe(
          Options.withDescription("delete without asking")
        ),
        file: file(keysFile)
      },
      bulkHandler((m) => m.bulkDelete)
    ).pipe(Command.withDescription("delete every key listed in a JSON file (asks, default yes)"))
  ])
)

const lifecycleHandler = lazyHandlers(() => import("./lifecycle-run.js"))
const compareHandler = lazyHandlers(() => import("./compare-run.js"))
const format = Options.text("format").pipe(
  Options.withDescription(
    "json (the bulk put format, an array) or jsonl (one entry a line); default: by the file's name"
  ),
  Options.optional
)
const other = (prefix: "to" | "with", what: string) => ({
  otherId: Options.text(`${prefix}-namespace-id`).pipe(
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
    Options.withDescription(`account of the ${what} namespace (default: the first's)`),
    Options.optional
  ),
  otherPersistTo: Options.text(`${prefix}-persist-to`).pipe(
    Options.withDescription(`state directory of the ${what} namespace's local platform`),
    Options.optional
  )
})

/** A namespace's whole life: export, import, clear, copy and diff. */
const lifecycle = [
  Command.make(
    "export",
    {
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
    lifecycleHandler((m) => m.kvExport)
  ).pipe(
    Command.withDescription(
      "write every key with its value, metadata and expiration: input of `kv import` and `kv bulk put`"
    )
  ),
  Command.make(
    "import",
    { ...target, ...selector, file: file("JSON array of bulk entries, or JSON Lines of them"), format },
    lifecycleHandler((m) => m.kvImport)
  ).pipe(
    Command.withDescription(
      "write every entry of a file (checked whole first); a re-run of a --remote import sends only what is missing"
    )
  ),
  Command.make(
    "clear",
    {
      ...target,
      ...selector,
      yes: Options.boolean("yes", { aliases: ["y"] }).pipe(
        Options.withDescription("delete without asking (needed off a terminal)")
      )
    },
    compareHandler((m) => m.kvClear)
  ).pipe(Command.withDescription("delete every key of a namespace (asks, naming it and the count)")),
  Command.make(
    "copy",
    {
      ...target,
      ...selector,
      ...other("to", "destination"),
      dryRun: Options.boolean("dry-run").pipe(Options.withDescription("count what would be copied; write nothing"))
    },
    compareHandler((m) => m.kvCopy)
  ).pipe(Command.withDescription("copy every key of a namespace into another (local to remote and back)")),
  Command.make(
    "diff",
    { ...target, ...selector, ...other("with", "second") },
    compareHandler((m) => m.kvDiff)
  ).pipe(
    Command.withDescription(
      "compare two namespaces (or one, local and remote): keys on one side only, other values, metadata or expiration; exit 1 when they differ"
    )
  )
]

export const kv = Command.make("kv").pipe(
  Command.withDescription("key-value store: namespaces, keys, bulk files, export, import, clear, copy and diff"),
  Command.withSubcommands([namespace, keys, bulk, ...lifecycle])
)
