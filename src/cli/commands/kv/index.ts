/**
 * `edgectl kv`: the key-value store, with wrangler's commands and options (`kv namespace`,
 * `kv key`, `kv bulk`), as wrangler spells them (with its four boolean forms: `--preview`,
 * `--preview true`, `--preview false`, `--preview=false`). The tree is declared here and each
 * command's options in ./options.ts, both loaded at every start; what a command does is in the
 * ./*-run.js modules, loaded only when a KV command runs (they pull in the KV service, the bulk
 * file reader and the project config reader, which other commands do not need).
 */
import * as Command from "@effect/cli/Command"
import { lazyHandlers } from "../../lazy.js"
import { kvOptions } from "./options.js"

const bulkHandler = lazyHandlers(() => import("./bulk-run.js"))
const keyHandler = lazyHandlers(() => import("./key-run.js"))
const namespaceHandler = lazyHandlers(() => import("./namespace-run.js"))

const namespace = Command.make("namespace").pipe(
  Command.withDescription("KV namespaces of the account"),
  Command.withSubcommands([
    Command.make(
      "create",
      kvOptions.namespaceCreate,
      namespaceHandler((m) => m.namespaceCreate)
    ).pipe(Command.withDescription("create a namespace; prints the lines to add to the project config")),
    Command.make(
      "list",
      kvOptions.namespaceList,
      namespaceHandler((m) => m.namespaceList)
    ).pipe(
      Command.withDescription("print the account's namespaces as a JSON array of {id, title, supports_url_encoding}")
    ),
    Command.make(
      "rename",
      kvOptions.namespaceRename,
      namespaceHandler((m) => m.namespaceRename)
    ).pipe(Command.withDescription("give a namespace a new title (its id, keys and bindings stay)")),
    Command.make(
      "delete",
      kvOptions.namespaceDelete,
      namespaceHandler((m) => m.namespaceDelete)
    ).pipe(Command.withDescription("delete a namespace and all its keys (asks [y/n]; --yes off a terminal)"))
  ])
)

const keys = Command.make("key").pipe(
  Command.withDescription("single keys of a namespace"),
  Command.withSubcommands([
    Command.make(
      "put",
      kvOptions.keyPut,
      keyHandler((m) => m.keyPut)
    ).pipe(Command.withDescription("write one key")),
    Command.make(
      "get",
      kvOptions.keyGet,
      keyHandler((m) => m.keyGet)
    ).pipe(Command.withDescription("print a key's value (raw bytes; --text for UTF-8 text)")),
    Command.make(
      "list",
      kvOptions.keyList,
      keyHandler((m) => m.keyList)
    ).pipe(Command.withDescription("print every key (with --prefix, those that start with it) as a JSON array")),
    Command.make(
      "delete",
      kvOptions.keyDelete,
      keyHandler((m) => m.keyDelete)
    ).pipe(Command.withDescription("delete one key (a missing key is not an error)"))
  ])
)

const bulk = Command.make("bulk").pipe(
  Command.withDescription("many keys at once, from JSON files"),
  Command.withSubcommands([
    Command.make(
      "put",
      kvOptions.bulkPut,
      bulkHandler((m) => m.bulkPut)
    ).pipe(Command.withDescription("write every entry of a JSON file; an invalid file writes nothing")),
    Command.make(
      "get",
      kvOptions.bulkGet,
      bulkHandler((m) => m.bulkGet)
    ).pipe(Command.withDescription("print the values (as text) of the keys listed in a JSON file, as one JSON object")),
    Command.make(
      "delete",
      kvOptions.bulkDelete,
      bulkHandler((m) => m.bulkDelete)
    ).pipe(Command.withDescription("delete every key listed in a JSON file (asks, default yes)"))
  ])
)

const lifecycleHandler = lazyHandlers(() => import("./lifecycle-run.js"))
const compareHandler = lazyHandlers(() => import("./compare-run.js"))
/** A namespace's whole life: export, import, clear, copy and diff. */
const lifecycle = [
  Command.make(
    "export",
    kvOptions.kvExport,
    lifecycleHandler((m) => m.kvExport)
  ).pipe(
    Command.withDescription(
      "write every key with its value, metadata and expiration: input of `kv import` and `kv bulk put`"
    )
  ),
  Command.make(
    "import",
    kvOptions.kvImport,
    lifecycleHandler((m) => m.kvImport)
  ).pipe(
    Command.withDescription(
      "write every entry of a file (checked whole first); a re-run of a --remote import sends only what is missing"
    )
  ),
  Command.make(
    "clear",
    kvOptions.kvClear,
    compareHandler((m) => m.kvClear)
  ).pipe(Command.withDescription("delete every key of a namespace (asks, naming it and the count)")),
  Command.make(
    "copy",
    kvOptions.kvCopy,
    compareHandler((m) => m.kvCopy)
  ).pipe(Command.withDescription("copy every key of a namespace into another (local to remote and back)")),
  Command.make(
    "diff",
    kvOptions.kvDiff,
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
