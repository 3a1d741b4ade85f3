/** `edgectl serve`: the embedded platform on a port, for official clients, scripts and other tools. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { LocalToken, stateDir } from "../../api/target.js"
import { hexId } from "../../domain/ids.js"
import { legacyApis, LegacyApisValues } from "../../server/legacy-mode.js"
import { integerOption, json, persistTo } from "../options.js"
import { note, printLine } from "../output.js"
import { CliFailure } from "../run.js"

/** The system's reason a socket could not listen (ServeError wraps it as its `cause`). */
const systemError = (cause: Cause.Cause<unknown>): NodeJS.ErrnoException | undefined => {
  let e: unknown = Option.getOrUndefined(Cause.failureOption(cause)) ?? Option.getOrUndefined(Cause.dieOption(cause))
  for (let depth = 0; e !== undefined && e !== null && depth < 5; depth++, e = (e as { cause?: unknown }).cause) {
    if (typeof (e as { code?: unknown }).code === "string") return e as NodeJS.ErrnoException
  }
  return undefined
}

const listenFailure = (host: string, port: number, cause: Cause.Cause<unknown>) => {
  const address = `${host.includes(":") ? `[${host}]` : host}:${port}`
  const e = systemError(cause)
  const [why, hint] =
    e?.code === "EADDRINUSE"
      ? [
          `the address is already in use (another process listens on port ${port})`,
          "pick another port with --port N, or --port 0 for a free one"
        ]
      : e?.code === "EACCES"
        ? [
            `not permitted to listen on port ${port}`,
            "ports below 1024 need privileges: pick another with --port N, or --port 0 for a free one"
          ]
        : e?.code === "EADDRNOTAVAIL" || e?.code === "ENOTFOUND" || e?.code === "EAI_AGAIN"
          ? [
              `${host} is not an address of this machine`,
              "listen on 127.0.0.1 (the default), or 0.0.0.0 for every interface"
            ]
          : [
              e !== undefined
                ? e.message
                : Cause.squash(cause) instanceof Error
                  ? (Cause.squash(cause) as Error).message
                  : String(Cause.squash(cause)),
              undefined
            ]
  return new CliFailure({
    text: `error: serve: cannot listen on ${address}: ${why}${hint !== undefined ? `\nhint: ${hint}` : ""}`,
    exitCode: 1
  })
}

export const serve = Command.make(
  "serve",
  {
    json,
    persistTo,
    host: Options.text("host").pipe(Options.withDefault("127.0.0.1"), Options.withDescription("address to listen on")),
    port: integerOption("port", 0, 65535).pipe(
      Options.withDefault(8787),
      Options.withDescription("port to listen on; 0 picks a free one")
    ),
    legacyApis: Options.choice("legacy-apis", LegacyApisValues).pipe(
      Options.optional,
      Options.withDescription(
        "served (the default): the ended APIs as they were (rate_limits, firewall rules writes); ended: as the platform answers now (410; 10020)"
      )
    )
  },
  (o) =>
    Effect.gen(function* () {
      const { serve: start } = yield* Effect.promise(() => import("../../server/serve.js"))
      const dir = stateDir({ remote: false, persistTo: Option.getOrUndefined(o.persistTo) })
      const mode = Option.getOrUndefined(o.legacyApis)
      const served = yield* start({
        host: o.host,
        port: o.port,
        stateDir: dir,
        ...(mode !== undefined ? { legacy: legacyApis(mode) } : {})
      }).pipe(Effect.catchAllCause((cause) => Effect.fail(listenFailure(o.host, o.port, cause))))
      const accountId = hexId("account", "Acme Corp")
      if (o.json) {
        printLine(JSON.stringify({ baseUrl: served.baseUrl, token: LocalToken, accountId }))
      } else {
        printLine(`edgectl local platform listening on ${served.baseUrl}`)
        printLine(`state:      ${dir}`)
        printLine(`token:      ${LocalToken}  (local demo token, all accounts)`)
        printLine(`account id: ${accountId}  (Acme Corp)`)
        printLine("")
        printLine(
          `try: CLOUDFLARE_API_BASE_URL=${served.baseUrl} CLOUDFLARE_API_TOKEN=${LocalToken} edgectl zones list --remote`
        )
        note("press ctrl+c to stop")
      }
      yield* Effect.async<void>((resume) => {
        const stop = () => resume(Effect.void)
        process.once("SIGINT", stop)
        process.once("SIGTERM", stop)
      })
    }).pipe(Effect.scoped)
).pipe(Command.withDescription("serve the embedded local platform's v4 API on a port"))
