/**
 * `edgectl objects`: local stateful objects (spec area F): a dev server for a module of object
 * classes, and the storage of each object (key-value, SQL, bookmarks, restore) under
 * --persist-to. The tree is declared here and each command's options in ./options.ts, both
 * loaded at every start; the work is in ./run.js, loaded only when an objects command runs.
 */
import * as Command from "@effect/cli/Command"
import { lazyHandlers } from "../../lazy.js"
import { objectsOptions } from "./options.js"

const handler = lazyHandlers(() => import("./run.js"))

const dev = Command.make(
  "dev",
  objectsOptions.dev,
  handler((m) => m.dev)
).pipe(
  Command.withDescription(
    "serve http://127.0.0.1:PORT/ to the module's worker (its default export), else /<Class>/<name>/... to the object's fetch()"
  )
)

const list = Command.make(
  "list",
  objectsOptions.list,
  handler((m) => m.list)
).pipe(Command.withDescription("objects stored under --persist-to"))

const kv = Command.make(
  "kv",
  objectsOptions.kv,
  handler((m) => m.kv)
).pipe(Command.withDescription("an object's key-value storage"))

const sql = Command.make(
  "sql",
  objectsOptions.sql,
  handler((m) => m.sql)
).pipe(Command.withDescription("run SQL in an object's database; prints the last statement's rows"))

const bookmark = Command.make(
  "bookmark",
  objectsOptions.bookmark,
  handler((m) => m.bookmark)
).pipe(Command.withDescription("print the object's current bookmark (or the one for --at TIME)"))

const restore = Command.make(
  "restore",
  objectsOptions.restore,
  handler((m) => m.restore)
).pipe(Command.withDescription("restore an object's storage to a bookmark or a time; prints the undo bookmark"))

const alarm = Command.make(
  "alarm",
  objectsOptions.alarm,
  handler((m) => m.alarm)
).pipe(Command.withDescription("print the object's alarm (or set it with --set TIME, delete it with --delete)"))

export const objects = Command.make("objects").pipe(
  Command.withDescription(
    "stateful objects: a local host for object classes, their storage and point-in-time recovery"
  ),
  Command.withSubcommands([dev, list, kv, sql, bookmark, restore, alarm])
)
