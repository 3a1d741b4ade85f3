/**
 * `edgectl scan [PATH...] [--zone Z]`: every use of a deprecated platform feature in a code base
 * (the scanner of src/deprecations, its list shipped as data), and with `--zone` a zone's live use
 * of legacy products. Exit 1 when something is past its end of life (a CI gate), 0 otherwise.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { lazyHandlers } from "../lazy.js"
import { choiceOption, target } from "../options.js"

const handler = lazyHandlers(() => import("./scan-run.js"))

export const scan = Command.make(
  "scan",
  {
    ...target,
    format: choiceOption("format", ["text", "json", "sarif"]).pipe(
      Options.withDescription(
        "text (file:line:col and a caret; the default), json, or sarif (SARIF 2.1.0, as `check` writes it)"
      ),
      Options.optional
    ),
    zone: Options.text("zone").pipe(
      Options.withDescription(
        "also list the zone's live use of legacy products (firewall rules, previous WAF), by id or name"
      ),
      Options.optional
    ),
    paths: Args.text({ name: "PATH" }).pipe(
      Args.withDescription(
        "files or directories to scan (shell, TypeScript/JavaScript, Python, Go, Terraform, JSON, *.rules, wrangler/YAML/TOML); the current directory when none and no --zone"
      ),
      Args.repeated
    )
  },
  handler((m) => m.scanRun)
).pipe(
  Command.withDescription(
    "find uses of deprecated platform APIs, Terraform resources, rule fields and SDK calls, with their dates; exit 1 when one is past its end of life"
  )
)
