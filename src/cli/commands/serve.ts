/** `edgectl serve`: the embedded platform on a port, for official clients, scripts and other tools. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { LocalToken, stateDir } from "../../api/target.js"
import { hexId } from "../../store/world.js"
import { integerOption, json, persistTo } from "../options.js"
import { note, printLine } from "../output.js"
import { CliFailure, usage } from "../run.js"

export const serve = Command.make(
  "serve",
  {
    json,
    persistTo,
    host: Options.text("host").pipe(Options.withDefault("127.0.0.1"), Options.withDescription("address to listen on")),
    port: integerOption("port", 0, 65535).pipe(Options.withDefault(8787), Options.withDescription("port to listen on; 0 picks a free one"))
  },
  (o) =>
    Effect.gen(function* () {
      if (o.port < 0 || o.port > 65535) return yield* Effect.fail(usage(`--port must be between 0 and 65535, got ${o.port}`))
      const { serve: start } = yield* Effect.promise(() => import("../../server/serve.js"))
      const dir = stateDir({ remote: false, persistTo: Option.getOrUndefined(o.persistTo) })
      const served = yield* start({ host: o.host, port: o.port, stateDir: dir }).pipe(
        Effect.catchAllCause((cause) =>
          Effect.fail(new CliFailure({ text: `error: serve: cannot listen on ${o.host}:${o.port}: ${String(cause).split("\n")[0]}`, exitCode: 1 }))
        )
      )
      const accountId = hexId("account", "Acme Corp")
      if (o.json) {
        printLine(JSON.stringify({ baseUrl: served.baseUrl, token: LocalToken, accountId }))
      } else {
        printLine(`edgectl local platform listening on ${served.baseUrl}`)
        printLine(`state:      ${dir}`)
        printLine(`token:      ${LocalToken}  (local demo token, all accounts)`)
        printLine(`account id: ${accountId}  (Acme Corp)`)
        printLine("")
        printLine(`try: CLOUDFLARE_API_BASE_URL=${served.baseUrl} CLOUDFLARE_API_TOKEN=${LocalToken} edgectl zones list --remote`)
        note("press ctrl+c to stop")
      }
      yield* Effect.async<void>((resume) => {
        const stop = () => resume(Effect.void)
        process.once("SIGINT", stop)
        process.once("SIGTERM", stop)
      })
    }).pipe(Effect.scoped)
).pipe(Command.withDescription("serve the embedded local platform's v4 API on a port"))
