/**
 * The CLI's composition root: the client layer of each target, with the in-process platform for
 * local mode (the one place outside the server that reaches it), and what @effect/cli needs to run
 * a command: a file system, paths and a terminal. The Node file system and terminal load on first
 * use: edgectl checks its own file options (options.ts) and prompts with its own code, so only
 * @effect/cli's built-ins (`--wizard`, `--completions`) reach them, and evaluating them (with
 * node:crypto, node:readline and their error classes) cost ~6 ms of every start.
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Terminal from "@effect/platform/Terminal"
import * as NodePath from "@effect/platform-node/NodePath"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import { clientLayerWith, stateDir, type LocalPlatform, type TargetOptions } from "../api/target.js"
import { localMigrationTarget, MigrationTarget, remoteMigrationTarget } from "../services/migration-journal.js"

/**
 * In-process, no socket: the platform's HttpApi app runs in this process without web
 * Request/Response objects (see src/server/door/local-transport.ts); loaded only when local mode is used.
 */
const localPlatform: LocalPlatform = (stateDir) =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.promise(() => import("../server/door/local-transport.js")),
      (t) => t.layer(t.storeFile(stateDir))
    )
  )

/** The client layer for a target: `HttpClient` + `ClientConfig`. */
export const clientLayer = (o: TargetOptions) => clientLayerWith(o, localPlatform)

/**
 * Where migrations keep their journals on a target (src/services/migration-journal.ts): the state
 * directory locally, a per-user state directory with `--remote`; with the target's flags, which the
 * commands printed to finish or undo a migration repeat.
 */
export const migrationTargetLayer = (o: TargetOptions) =>
  Layer.succeed(
    MigrationTarget,
    o.remote ? remoteMigrationTarget(o.env ?? process.env) : localMigrationTarget(stateDir(o), o.persistTo)
  )

/**
 * The file system as a service whose every member loads NodeFileSystem first. Its members are
 * functions returning an Effect, except `stream` and `watch` (a Stream) and `sink` (a Sink).
 */
const lazyFileSystem = Effect.map(
  Effect.cached(
    Effect.promise(() => import("@effect/platform-node/NodeFileSystem")).pipe(
      Effect.flatMap((m) => FileSystem.FileSystem.pipe(Effect.provide(m.layer)))
    )
  ),
  (real) =>
    new Proxy({} as FileSystem.FileSystem, {
      get: (_, key) => {
        if (typeof key === "symbol") return undefined
        const call = (args: ReadonlyArray<unknown>) =>
          Effect.map(real, (fs) =>
            (fs[key as keyof FileSystem.FileSystem] as (...a: ReadonlyArray<unknown>) => never)(...args)
          )
        if (key === "stream" || key === "watch") return (...args: ReadonlyArray<unknown>) => Stream.unwrap(call(args))
        if (key === "sink") return (...args: ReadonlyArray<unknown>) => Sink.unwrap(call(args))
        return (...args: ReadonlyArray<unknown>) => Effect.flatten(call(args))
      }
    })
)

/** The terminal, made by NodeTerminal in the layer's scope on first use. */
const lazyTerminal = Effect.gen(function* () {
  const scope = yield* Effect.scope
  const real = yield* Effect.cached(
    Effect.promise(() => import("@effect/platform-node/NodeTerminal")).pipe(
      Effect.flatMap((m) => m.make()),
      Scope.extend(scope)
    )
  )
  const terminal: Terminal.Terminal = {
    columns: Effect.flatMap(real, (t) => t.columns),
    rows: Effect.flatMap(real, (t) => t.rows),
    isTTY: Effect.flatMap(real, (t) => t.isTTY),
    readInput: Effect.flatMap(real, (t) => t.readInput),
    readLine: Effect.flatMap(real, (t) => t.readLine),
    display: (text) => Effect.flatMap(real, (t) => t.display(text))
  }
  return terminal
})

export const cliEnvironment = Layer.scopedContext(
  Effect.gen(function* () {
    return Context.make(FileSystem.FileSystem, yield* lazyFileSystem).pipe(
      Context.add(Terminal.Terminal, yield* lazyTerminal),
      Context.add(CliConfig.CliConfig, CliConfig.make({ showBuiltIns: false }))
    )
  })
).pipe(Layer.provideMerge(NodePath.layer))
