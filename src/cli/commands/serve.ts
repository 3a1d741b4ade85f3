/** `edgectl serve`: the embedded platform on a port, for official clients, scripts and other tools. */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { LocalToken, stateDir, upstreamProblem } from "../../api/target.js"
import { hexId } from "../../domain/ids.js"
import { BasePath } from "../../api/contract-core.js"
import { DefaultRateLimit, formatRateLimit, type RateLimit } from "../../domain/rate-budget.js"
import { legacyApis, LegacyApisValues } from "../../server/legacy-mode.js"
import { integerOption, json, persistTo, rateLimit } from "../options.js"
import { note, printLine } from "../output.js"
import { CliFailure, usage } from "../run.js"

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

const untilStopped = Effect.async<void>((resume) => {
  const stop = () => resume(Effect.void)
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
})

/** `--upstream URL`: the forwarding proxy (src/server/upstream.ts) until SIGINT or SIGTERM. */
const proxy = (host: string, port: number, upstream: string, limit: RateLimit, json: boolean) =>
  Effect.gen(function* () {
    const { serveUpstream } = yield* Effect.promise(() => import("../../server/upstream.js"))
    const { server, port: bound } = yield* Effect.tryPromise({
      try: () => serveUpstream({ host, port, upstream, limit }),
      catch: (e) => e
    }).pipe(Effect.catchAllCause((cause) => Effect.fail(listenFailure(host, port, cause))))
    const baseUrl = `http://${host.includes(":") ? `[${host}]` : host}:${bound}${BasePath}`
    if (json) printLine(JSON.stringify({ baseUrl, upstream, rateLimit: limit }))
    else {
      printLine(`edgectl proxy listening on ${baseUrl}`)
      printLine(`forwarding to ${upstream} within ${formatRateLimit(limit)} per credential (queued past it)`)
      printLine("")
      printLine(`try: CLOUDFLARE_API_BASE_URL=${baseUrl} edgectl zones list --remote`)
      note("press ctrl+c to stop")
    }
    yield* untilStopped
    server.closeAllConnections()
    server.close()
  })

export const serve = Command.make(
  "serve",
  {
    json,
    persistTo,
    host: Options.text("host").pipe(
      Options.withPseudoName("HOST"),
      Options.withDefault("127.0.0.1"),
      Options.withDescription("address to listen on")
    ),
    port: integerOption("port", 0, 65535).pipe(
      Options.withDefault(8787),
      Options.withDescription("port to listen on; 0 picks a free one")
    ),
    legacyApis: Options.choice("legacy-apis", LegacyApisValues).pipe(
      Options.optional,
      Options.withDescription(
        "served (the default): the ended APIs as they were (rate_limits, firewall rules writes); ended: as the platform answers now (410; 10020)"
      )
    ),
    rateLimit: rateLimit.pipe(
      Options.withDescription(
        "N/SECONDS: answer 429 with Retry-After past N requests per SECONDS per credential, as the platform does; with --upstream, the budget requests are forwarded within (default 1200/300)"
      )
    ),
    upstream: Options.text("upstream").pipe(
      Options.withPseudoName("URL"),
      Options.mapEffect((text) => {
        const why = upstreamProblem(text)
        return why === undefined
          ? Effect.succeed(text)
          : Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--upstream: ${why}`)))
      }),
      Options.withDescription(
        "forward every request to this platform's v4 base URL within the API budget instead of serving the local one"
      ),
      Options.optional
    )
  },
  (o) =>
    Effect.gen(function* () {
      if (Option.isSome(o.upstream)) {
        if (Option.isSome(o.persistTo))
          return yield* Effect.fail(usage("--persist-to applies to the local platform, not to --upstream"))
        return yield* proxy(
          o.host,
          o.port,
          o.upstream.value,
          Option.getOrElse(o.rateLimit, () => DefaultRateLimit),
          o.json
        )
      }
      const { serve: start } = yield* Effect.promise(() => import("../../server/serve.js"))
      const dir = stateDir({ persistTo: Option.getOrUndefined(o.persistTo) })
      const limit = Option.getOrUndefined(o.rateLimit)
      const mode = Option.getOrUndefined(o.legacyApis)
      const served = yield* start({
        host: o.host,
        port: o.port,
        stateDir: dir,
        rateLimit: limit,
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
        if (limit !== undefined) printLine(`rate limit: ${formatRateLimit(limit)} per credential, then 429`)
        printLine("")
        printLine(
          `try: CLOUDFLARE_API_BASE_URL=${served.baseUrl} CLOUDFLARE_API_TOKEN=${LocalToken} edgectl zones list --remote`
        )
        note("press ctrl+c to stop")
      }
      yield* untilStopped
    }).pipe(Effect.scoped)
).pipe(Command.withDescription("serve the embedded local platform's v4 API on a port"))
