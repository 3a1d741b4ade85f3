/**
 * Command handlers whose work lives in a module loaded only when the command runs: the tree and
 * its options are declared at every start (they are needed to parse the command line), the rest
 * (services, the rules language, file readers) only when one of the commands is used. Each caller
 * passes its own `() => import("./…-run.js")`, which the bundler needs literally.
 */
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import type { CliFailure } from "./run.js"

type Handler<O> = (o: O) => Effect.Effect<void, CliFailure>

/** The handler `pick` chooses from the module `load` loads. */
export const lazyHandler =
  <M, O>(load: () => Promise<M>, pick: (m: M) => Handler<O>): Handler<O> =>
  (o) =>
    Effect.flatMap(Effect.promise(load), (m) => pick(m)(o))

/**
 * `command(name, key, about)` for a table of option configs and a module with a handler per key
 * (`kv`, `firewall`). Generic over the key, TypeScript cannot see that `configs[key]` parses into
 * what the module's handler of that key takes: it does, by construction of the two tables.
 */
export const keyedCommands =
  <C extends Record<string, Command.Command.Config>>(
    configs: C,
    load: () => Promise<{ readonly [K in keyof C]: Handler<never> }>
  ) =>
  <K extends keyof C & string>(name: string, key: K, about: string) =>
    Command.make(
      name,
      configs[key],
      lazyHandler(load, (run) => run[key] as Handler<unknown>)
    ).pipe(Command.withDescription(about))
