/**
 * Command handlers whose work lives in a module loaded only when the command runs: the tree and
 * its options are declared at every start (they are needed to parse the command line), the rest
 * (services, the rules language, file readers) only when one of the commands is used. Each area
 * passes its own `() => import("./run.js")` (or one per group of commands, `./rules-run.js`), which the
 * bundler needs literally.
 */
import * as Effect from "effect/Effect"
import type { CliFailure } from "./run.js"

type Handler<O> = (o: O) => Effect.Effect<void, CliFailure>

/**
 * `handler((m) => m.list)`: the `list` handler of the module `load` loads, as a command's handler.
 * `Command.make(name, options, handler(...))` checks that the options parse into what it takes.
 */
export const lazyHandlers =
  <M>(load: () => Promise<M>) =>
  <O>(pick: (m: M) => Handler<O>): Handler<O> =>
  (o) =>
    Effect.flatMap(Effect.promise(load), (m) => pick(m)(o))
