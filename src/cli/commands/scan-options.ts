/**
 * The options of `edgectl scan`, declared once: the command (./scan.ts) takes them and its
 * handler's input (./scan-run.ts) is derived from them, apart so neither imports the other.
 */
import * as Args from "@effect/cli/Args"
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { choiceOption, target, zoneOption } from "../options.js"

export const scanOptions = {
  ...target,
  format: choiceOption("format", ["text", "json", "sarif"]).pipe(
    Options.withDescription(
      "text (file:line:col and a caret; the default), json, or sarif (SARIF 2.1.0, as `check` writes it)"
    ),
    Options.optional
  ),
  zone: zoneOption(
    "also list the zone's live use of legacy products (firewall rules, previous WAF), by id or name"
  ).pipe(Options.optional),
  paths: Args.text({ name: "PATH" }).pipe(
    Args.withDescription(
      "files or directories to scan (shell, TypeScript/JavaScript, Python, Go, Terraform, JSON, *.rules, wrangler/YAML/TOML); the current directory when none and no --zone"
    ),
    Args.repeated
  )
}

/** What `scanOptions` parse into: the handler's input. */
export type ScanOptions = Command.Command.ParseConfig<typeof scanOptions>
