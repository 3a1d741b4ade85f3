/**
 * The options of each `edgectl waf` command, declared once: the tree (./index.ts) gives each command
 * its entry, and each handler (./run.ts, ./migrate.ts) takes `Parsed<"name">`, what that entry
 * parses into. Adding an option is one edit here.
 */
import * as Args from "@effect/cli/Args"
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { choiceOption, fileOption, integerOption, target, zoneOption } from "../../options.js"

const zone = zoneOption()
const yes = Options.boolean("yes").pipe(Options.withAlias("y"), Options.withDescription("do not ask for confirmation"))

/** Each WAF command's options, by the name of its handler, in the order of its help. */
export const wafOptions = {
  status: { ...target, zone },
  check: {
    ...target,
    zone,
    phaseOne: Options.boolean("phase-one").pipe(
      Options.withDescription("check against phase 1's conditions (without phase_two=1)")
    )
  },
  config: { ...target, zone },
  preview: { ...target, zone },
  migrate: {
    ...target,
    zone,
    yes,
    mode: choiceOption("mode", ["validation", "pending"]).pipe(
      Options.withDescription(
        "validation: both versions side by side (enterprise); pending: finish (irreversible). Default: the dashboard's Deploy"
      ),
      Options.optional
    ),
    config: fileOption("config").pipe(
      Options.withDescription("send this configuration (JSON: {name, rules}) instead of the generated one"),
      Options.optional
    ),
    dryRun: Options.boolean("dry-run").pipe(
      Options.withDescription("print the exact request and the state the zone would end in; change nothing")
    ),
    rollback: Options.boolean("rollback").pipe(
      Options.withDescription("refused: the WAF migration cannot be undone (says why)")
    )
  },
  overridesList: { ...target, zone },
  overridesDelete: {
    ...target,
    zone,
    yes,
    all: Options.boolean("all").pipe(Options.withDescription("delete every override of the zone")),
    ids: Args.text({ name: "ID" }).pipe(Args.repeated)
  },
  replay: {
    ...target,
    zone,
    traffic: fileOption("traffic").pipe(
      Options.withDescription("JSONL file: one request per line in the rules language's encoding")
    ),
    against: choiceOption("against", ["preview", "deployed"]).pipe(
      Options.withDescription("the new configuration: as previewed (default) or as deployed on the entry point"),
      Options.withDefault("preview" as const)
    ),
    config: fileOption("config").pipe(
      Options.withDescription("compare with this configuration (JSON: {name, rules}) instead"),
      Options.optional
    ),
    limit: integerOption("limit", 0, 1_000_000).pipe(
      Options.withDescription("show at most this many disagreements (default 50; 0: only the counts)"),
      Options.withDefault(50)
    )
  },
  exportPrevious: {
    ...target,
    zone,
    output: Options.text("output").pipe(
      Options.withPseudoName("FILE"),
      Options.withAlias("o"),
      Options.withDescription("write to this file instead of stdout"),
      Options.optional
    )
  }
}

/** What the options of the WAF command whose handler is `K` parse into: that handler's input. */
export type Parsed<K extends keyof typeof wafOptions> = Command.Command.ParseConfig<(typeof wafOptions)[K]>
