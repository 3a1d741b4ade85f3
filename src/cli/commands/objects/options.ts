/**
 * The options of each `edgectl objects` command, declared once: the tree (./index.ts) gives each
 * command its entry, and each handler (./run.ts, ./dev.ts) takes `Parsed<"name">`, what that entry
 * parses into. Adding an option is one edit here.
 */
import * as Args from "@effect/cli/Args"
import type * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import { fileOption, integerOption, json, persistTo } from "../../options.js"

const className = Args.text({ name: "Class" }).pipe(
  Args.withDescription("name of the object class (as the module exports it)")
)
const name = Args.text({ name: "name" }).pipe(Args.withDescription("the object's name (idFromName) or its 64-hex id"))
/** The options every objects command takes: the output and the state directory. */
const common = { json, persistTo }
/** One stored object: its class and its name (or id). */
const onObject = { ...common, className, name }

const KvActions = ["get", "put", "list", "delete"] as const
// Args.choice's error names neither the argument nor the value given.
const kvAction = Args.text({ name: "get | put | list | delete" }).pipe(
  Args.mapEffect((text) => {
    const found = KvActions.find((a) => a === text)
    return found !== undefined
      ? Effect.succeed(found)
      : Effect.fail(
          HelpDoc.p(
            `objects kv: expected one of ${KvActions.join(", ")} after <Class> <name>, got ${JSON.stringify(text)}`
          )
        )
  }),
  Args.withDescription("get KEY | put KEY VALUE | list | delete KEY")
)
const at = Options.text("at").pipe(
  Options.withPseudoName("TIME"),
  Options.withDescription("a time: ISO 8601, or milliseconds since the epoch"),
  Options.optional
)

/** Each objects command's options, by the name of its handler, in the order of its help. */
export const objectsOptions = {
  dev: {
    ...common,
    module: Args.text({ name: "MODULE" }).pipe(
      Args.withDescription(
        "module exporting the object classes (.ts, .mts, .js, .mjs); default: the project config's main"
      ),
      Args.optional
    ),
    config: fileOption("config").pipe(
      Options.withAlias("c"),
      Options.withDescription(
        "project config file (default: wrangler.json, wrangler.jsonc or wrangler.toml here): bindings, vars, compatibility date and flags"
      ),
      Options.optional
    ),
    port: integerOption("port", 0, 65535).pipe(
      Options.withDescription("port on 127.0.0.1 (0: any free port)"),
      Options.withDefault(8788)
    ),
    noWatch: Options.boolean("no-watch").pipe(
      Options.withDescription("do not reload the module when it (or a file it imports) changes")
    )
  },
  list: common,
  kv: {
    ...onObject,
    action: kvAction,
    rest: Args.text({ name: "KEY [VALUE]" }).pipe(Args.repeated),
    prefix: Options.text("prefix").pipe(
      Options.withPseudoName("PREFIX"),
      Options.withDescription("list: only keys that start with this"),
      Options.optional
    ),
    limit: integerOption("limit", 1, 1_000_000_000).pipe(
      Options.withDescription("list: at most this many keys"),
      Options.optional
    ),
    valueJson: Options.boolean("value-json").pipe(Options.withDescription("put: the value is JSON (default: a string)"))
  },
  sql: {
    ...onObject,
    query: Args.text({ name: "SQL" }).pipe(Args.withDescription("SQL to run (several statements allowed)")),
    create: Options.boolean("create").pipe(
      Options.withDescription("create the object if it is not stored yet (else a mistyped name is refused)")
    )
  },
  bookmark: {
    ...onObject,
    at,
    history: Options.boolean("history").pipe(
      Options.withDescription("list the object's recent commits with their bookmarks")
    )
  },
  restore: {
    ...onObject,
    at,
    bookmark: Options.text("bookmark").pipe(
      Options.withPseudoName("BOOKMARK"),
      Options.withDescription("bookmark to restore to"),
      Options.optional
    )
  },
  alarm: {
    ...onObject,
    set: Options.text("set").pipe(
      Options.withPseudoName("KEY=VALUE"),
      Options.withDescription("set the alarm: ISO 8601, ms since the epoch, or +DURATION (+90s, +15m, +2h, +1d)"),
      Options.optional
    ),
    delete: Options.boolean("delete").pipe(Options.withDescription("delete the alarm"))
  }
}

/** What the options of the objects command whose handler is `K` parse into: that handler's input. */
export type Parsed<K extends keyof typeof objectsOptions> = Command.Command.ParseConfig<(typeof objectsOptions)[K]>

/** The parsed options every objects command takes. */
export type Common = Command.Command.ParseConfig<typeof common>
/** The parsed options of every command on one object. */
export type OnObject = Command.Command.ParseConfig<typeof onObject>
