/** Options every command shares: output and target. */
import * as Options from "@effect/cli/Options"

export const json = Options.boolean("json").pipe(Options.withDescription("print only JSON on stdout"))
export const remote = Options.boolean("remote").pipe(
  Options.withDescription("use the real platform (CLOUDFLARE_API_TOKEN or CLOUDFLARE_API_KEY + CLOUDFLARE_EMAIL)")
)
export const local = Options.boolean("local").pipe(
  Options.withDescription("use the embedded local platform (the default; accepted for compatibility)")
)
export const persistTo = Options.directory("persist-to", { exists: "either" }).pipe(
  Options.withDescription("directory of the local platform's state (default .edgectl/state)"),
  Options.optional
)

export const target = { json, remote, local, persistTo }
