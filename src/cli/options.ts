/** Options every command shares: output and target. */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"

export const json = Options.boolean("json").pipe(Options.withDescription("print only JSON on stdout"))
export const remote = Options.boolean("remote").pipe(
  Options.withDescription("use the real platform (CLOUDFLARE_API_TOKEN or CLOUDFLARE_API_KEY + CLOUDFLARE_EMAIL)")
)
export const local = Options.boolean("local").pipe(
  Options.withDescription("use the embedded local platform (the default; accepted for compatibility)")
)

/**
 * A state directory: one that exists, or a path where one can be made (the store creates it). Checked
 * here rather than by @effect/cli's path options, which answer a path under a file with an internal
 * error and load the Node file system (with node:crypto) on every start.
 */
const stateDirectory = (dir: string): Effect.Effect<string, ValidationError.ValidationError> =>
  Effect.suspend(() => {
    const refuse = (why: string) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--persist-to: ${why}`)))
    if (dir === "") return refuse("expected a directory, got an empty path")
    try {
      if (!fs.statSync(dir).isDirectory()) return refuse(`${dir} is a file, not a directory`)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === "ENOTDIR") return refuse(`${dir}: a part of the path is a file, not a directory`)
      if (code !== "ENOENT") return refuse(`${dir}: ${(e as Error).message}`)
    }
    return Effect.succeed(dir)
  })

/** `--NAME FILE`: a file that exists, checked with an error naming the option (@effect/cli's says only "Path ... must exist"). */
export const existingFile = (name: string) =>
  Options.text(name).pipe(
    Options.withPseudoName("FILE"),
    Options.mapEffect((file) =>
      Effect.suspend(() => {
        const refuse = (why: string) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--${name}: ${why}`)))
        try {
          if (fs.statSync(file).isDirectory()) return refuse(`${file} is a directory, not a file`)
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code
          return refuse(code === "ENOENT" || code === "ENOTDIR" ? `${file}: no such file` : `${file}: ${(e as Error).message}`)
        }
        return Effect.succeed(file)
      })
    )
  )

export const persistTo = Options.text("persist-to").pipe(
  Options.withPseudoName("DIR"),
  Options.withDescription("directory of the local platform's state (default .edgectl/state)"),
  Options.mapEffect(stateDirectory),
  Options.optional
)

export const target = { json, remote, local, persistTo }
