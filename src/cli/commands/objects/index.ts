/**
 * `edgectl objects`: local stateful objects (spec area F): a dev server for a module of object
 * classes, and the storage of each object (key-value, SQL, bookmarks, restore) under
 * --persist-to. The tree is declared here, at every start; the work is in ./run.js,
 * loaded only when an objects command runs.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import { lazyHandlers } from "../../lazy.js"
import { fileOption, integerOption, json, persistTo } from "../../options.js"

const handler = lazyHandlers(() => import("./run.js"))

const className = Args.text({ name: "Class" }).pipe(
  Args.withDescription("name of the object class (as the module exports it)")
)
const name = Args.text({ name: "name" }).pipe(Args.withDescription("the object's name (idFromName) or its 64-hex id"))
const common = { json, persistTo }

const dev = Command.make(
  "dev",
  {
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
  handler((m) => m.dev)
).pipe(
  Command.withDescription(
    "serve http://127.0.0.1:PORT/ to the module's worker (its default export), else /<Class>/<name>/... to the object's fetch()"
  )
)

const list = Command.make(
  "list",
  common,
  handler((m) => m.list)
).pipe(Command.withDescription("objects stored under --persist-to"))

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
const kv = Command.make(
  "kv",
  {
    ...common,
    className,
    name,
    action: kvAction,
    rest: Args.text({ name: "KEY [VALUE]" }).pipe(Args.repeated),
    prefix: Options.text("prefix").pipe(
      Options.withDescription("list: only keys that start with this"),
      Options.optional
    ),
    limit: integerOption("limit", 1, 1_000_000_000).pipe(
      Options.withDescription("list: at most this many keys"),
      Options.optional
    ),
    valueJson: Options.boolean("value-json").pipe(Options.withDescription("put: the value is JSON (default: a string)"))
  },
  handler((m) => m.kv)
).pipe(Command.withDescription("an object's key-value storage"))

const sql = Command.make(
  "sql",
  {
    ...common,
    className,
    name,
    query: Args.text({ name: "SQL" }).pipe(Args.withDescription("SQL to run (several statements allowed)")),
    create: Options.boolean("create").pipe(
      Options.withDescription("create the object if it is not stored yet (else a mistyped name is refused)")
    )
  },
  handler((m) => m.sql)
).pipe(Command.withDescription("run SQL in an object's database; prints the last statement's rows"))

const at = Options.text("at").pipe(
  Options.withDescription("a time: ISO 8601, or milliseconds since the epoch"),
  Options.optional
)
const bookmark = Command.make(
  "bookmark",
  {
    ...common,
    className,
    name,
    at,
    history: Options.boolean("history").pipe(
      Options.withDescription("list the object's recent commits with their bookmarks")
    )
  },
  handler((m) => m.bookmark)
).pipe(Command.withDescription("print the object's current bookmark (or the one for --at TIME)"))

const restore = Command.make(
  "restore",
  {
    ...common,
    className,
    name,
    at,
    bookmark: Options.text("bookmark").pipe(Options.withDescription("bookmark to restore to"), Options.optional)
  },
  handler((m) => m.restore)
).pipe(Command.withDescription("restore an object's storage to a bookmark or a time; prints the undo bookmark"))

const alarm = Command.make(
  "alarm",
  {
    ...common,
    className,
    name,
    set: Options.text("set").pipe(
      Options.withDescription("set the alarm: ISO 8601, ms since the epoch, or +DURATION (+90s, +15m, +2h, +1d)"),
      Options.optional
    ),
    delete: Options.boolean("delete").pipe(Options.withDescription("delete the alarm"))
  },
  handler((m) => m.alarm)
).pipe(Command.withDescription("print the object's alarm (or set it with --set TIME, delete it with --delete)"))

export const objects = Command.make("objects").pipe(
  Command.withDescription(
    "stateful objects: a local host for object classes, their storage and point-in-time recovery"
  ),
  Command.withSubcommands([dev, list, kv, sql, bookmark, restore, alarm])
)
