/**
 * `edgectl waf status|check|config|preview|migrate|overrides|replay|export`: the WAF migration of a
 * zone (area D). The tree and its options are declared here; what the commands do is in
 * ./run.js, loaded only when a WAF command runs.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { lazyHandlers } from "../../lazy.js"
import { choiceOption, fileOption, integerOption, target } from "../../options.js"

const handler = lazyHandlers(() => import("./run.js"))
const migrateHandler = lazyHandlers(() => import("./migrate.js"))

const zone = Options.text("zone").pipe(Options.withDescription("the zone, by id or name"))
const yes = Options.boolean("yes").pipe(Options.withAlias("y"), Options.withDescription("do not ask for confirmation"))

const status = Command.make(
  "status",
  { ...target, zone },
  handler((m) => m.status)
).pipe(Command.withDescription("the migration state of a zone and which WAF versions run"))
const check = Command.make(
  "check",
  {
    ...target,
    zone,
    phaseOne: Options.boolean("phase-one").pipe(
      Options.withDescription("check against phase 1's conditions (without phase_two=1)")
    )
  },
  handler((m) => m.check)
).pipe(Command.withDescription("is the zone compatible with the migration? with the reasons when it is not"))
const config = Command.make(
  "config",
  { ...target, zone },
  handler((m) => m.config)
).pipe(Command.withDescription("the new configuration equivalent to the zone's previous WAF (the config operation)"))
const preview = Command.make(
  "preview",
  { ...target, zone },
  handler((m) => m.preview)
).pipe(Command.withDescription("each previous setting, its new equivalent, and what will not be migrated and why"))
const migrate = Command.make(
  "migrate",
  {
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
  migrateHandler((m) => m.migrate)
).pipe(Command.withDescription("deploy the new WAF: validation mode or finish the migration (irreversible)"))

const overridesList = Command.make(
  "list",
  { ...target, zone },
  handler((m) => m.overridesList)
).pipe(Command.withDescription("the zone's URI-based WAF overrides (they block the migration)"))
const overridesDelete = Command.make(
  "delete",
  {
    ...target,
    zone,
    yes,
    all: Options.boolean("all").pipe(Options.withDescription("delete every override of the zone")),
    ids: Args.text({ name: "ID" }).pipe(Args.repeated)
  },
  handler((m) => m.overridesDelete)
).pipe(Command.withDescription("delete URI-based WAF overrides by id (or --all)"))
const overrides = Command.make("overrides").pipe(
  Command.withDescription("URI-based WAF overrides"),
  Command.withSubcommands([overridesList, overridesDelete])
)

const replay = Command.make(
  "replay",
  {
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
  handler((m) => m.replay)
).pipe(
  Command.withDescription(
    "evaluate each request against the previous WAF and the new configuration; report where they disagree"
  )
)

const exportCmd = Command.make(
  "export",
  {
    ...target,
    zone,
    output: Options.text("output").pipe(
      Options.withPseudoName("FILE"),
      Options.withAlias("o"),
      Options.withDescription("write to this file instead of stdout"),
      Options.optional
    )
  },
  handler((m) => m.exportPrevious)
).pipe(
  Command.withDescription(
    "write the zone's previous WAF settings as JSON (packages, groups, rules, overrides, bypass firewall rules, page rules)"
  )
)

export const waf = Command.make("waf").pipe(
  Command.withDescription(
    "WAF migration: previous managed rules -> WAF Managed Rules, with previews, dry runs and traffic replay"
  ),
  Command.withSubcommands([status, check, config, preview, migrate, overrides, replay, exportCmd])
)
