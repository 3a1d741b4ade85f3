/**
 * `edgectl kv`: the key-value store, with wrangler's commands and options (`kv namespace`,
 * `kv key`, `kv bulk`). The tree and its options are declared here, loaded at every start; what a
 * command does is in ./run.js, loaded only when a KV command runs (it pulls in the KV service,
 * the bulk file reader and the project config reader, which other commands do not need).
 */
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import { keyedCommands } from "../../lazy.js"
import type { CliFailure } from "../../run.js"
import { Configs, type KvCommand, type Parsed } from "./options.js"

type Handlers = { readonly [K in KvCommand]: (o: Parsed<K>) => Effect.Effect<void, CliFailure> }

const command = keyedCommands(Configs, () => import("./run.js") as Promise<Handlers>)

const namespace = Command.make("namespace").pipe(
  Command.withDescription("KV namespaces of the account"),
  Command.withSubcommands([
    command("create", "namespaceCreate", "create a namespace; prints the lines to add to the project config"),
    command(
      "list",
      "namespaceList",
      "print the account's namespaces as a JSON array of {id, title, supports_url_encoding}"
    ),
    command("rename", "namespaceRename", "give a namespace a new title (its id, keys and bindings stay)"),
    command("delete", "namespaceDelete", "delete a namespace and all its keys (asks [y/n]; --yes off a terminal)")
  ])
)

const key = Command.make("key").pipe(
  Command.withDescription("single keys of a namespace"),
  Command.withSubcommands([
    command("put", "keyPut", "write one key"),
    command("get", "keyGet", "print a key's value (raw bytes; --text for UTF-8 text)"),
    command("list", "keyList", "print every key (with --prefix, those that start with it) as a JSON array"),
    command("delete", "keyDelete", "delete one key (a missing key is not an error)")
  ])
)

const bulk = Command.make("bulk").pipe(
  Command.withDescription("many keys at once, from JSON files"),
  Command.withSubcommands([
    command("put", "bulkPut", "write every entry of a JSON file; an invalid file writes nothing"),
    command("get", "bulkGet", "print the values (as text) of the keys listed in a JSON file, as one JSON object"),
    command("delete", "bulkDelete", "delete every key listed in a JSON file (asks, default yes)")
  ])
)

export const kv = Command.make("kv").pipe(
  Command.withDescription("key-value store: namespaces, keys and bulk files (wrangler's kv commands)"),
  Command.withSubcommands([namespace, key, bulk])
)
