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
 * `--NAME PSEUDO` whose value is a path, checked by edgectl rather than by @effect/cli's path
 * options: theirs answer a path under a file with an internal error, name no option ("Path ...
 * must exist"), and load the Node file system (with node:crypto) on every start. `refusal` gets
 * the path's stat, or the error that stat gave, and says why the path will not do.
 */
const pathOption = (name: string, pseudo: string, refusal: (path: string, found: fs.Stats | NodeJS.ErrnoException) => string | undefined) =>
  Options.text(name).pipe(
    Options.withPseudoName(pseudo),
    Options.mapEffect((p) =>
      Effect.suspend(() => {
        let found: fs.Stats | NodeJS.ErrnoException
        try {
          found = fs.statSync(p)
        } catch (e) {
          found = e as NodeJS.ErrnoException
        }
        const why = refusal(p, found)
        return why === undefined ? Effect.succeed(p) : Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--${name}: ${why}`)))
      })
    )
  )

/** `--NAME FILE`: a file that exists. */
export const existingFile = (name: string) =>
  pathOption(name, "FILE", (file, found) => {
    if (found instanceof fs.Stats) return found.isDirectory() ? `${file} is a directory, not a file` : undefined
    return found.code === "ENOENT" || found.code === "ENOTDIR" ? `${file}: no such file` : `${file}: ${found.message}`
  })

/** A state directory: one that exists, or a path where one can be made (the store creates it). */
export const persistTo = pathOption("persist-to", "DIR", (dir, found) => {
  if (dir === "") return "expected a directory, got an empty path"
  if (found instanceof fs.Stats) return found.isDirectory() ? undefined : `${dir} is a file, not a directory`
  if (found.code === "ENOENT") return undefined
  return found.code === "ENOTDIR" ? `${dir}: a part of the path is a file, not a directory` : `${dir}: ${found.message}`
}).pipe(Options.withDescription("directory of the local platform's state (default .edgectl/state)"), Options.optional)

export const target = { json, remote, local, persistTo }
