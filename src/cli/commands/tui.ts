/** `edgectl tui` (and `edgectl` alone on a terminal): the full-screen app, loaded only when asked for. */
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { remoteCredentials } from "../../api/target.js"
import { InvalidInput } from "../../domain/errors.js"
import { clientLayer } from "../environment.js"
import { local, persistTo, remote } from "../options.js"
import { CliFailure, isRemote, targetConflict, usage } from "../run.js"

export const openTui = (o: { remote: boolean; persistTo: Option.Option<string> }) =>
  Effect.gen(function* () {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      return yield* Effect.fail(usage("the TUI needs a terminal; use the commands (see edgectl --help) in scripts"))
    }
    // Checked before the screen opens (the client would refuse at the first request, inside it).
    const credentials = o.remote ? remoteCredentials(process.env) : undefined
    if (credentials instanceof InvalidInput)
      return yield* Effect.fail(new CliFailure({ text: `error: tui: ${credentials.message}`, exitCode: 1 }))
    const { runTui } = yield* Effect.promise(() => import("../../../tui/app.js"))
    const persist = Option.getOrUndefined(o.persistTo)
    const target = { remote: o.remote, ...(persist !== undefined ? { persistTo: persist } : {}) }
    yield* Effect.promise(() => runTui(target, clientLayer(target)))
  })

export const tui = Command.make("tui", { remote, local, persistTo }, (o) =>
  Effect.flatMap(
    Effect.suspend(() => {
      const conflict = targetConflict(o)
      return conflict !== undefined ? Effect.fail(conflict) : Effect.void
    }),
    () => openTui({ remote: isRemote(o), persistTo: o.persistTo })
  )
).pipe(Command.withDescription("open the terminal UI"))
