/**
 * `edgectl waf status|check|config|preview|migrate|overrides|replay|export`: the WAF migration of a
 * zone (area D). The tree is declared here and each command's options in ./options.ts; what the
 * commands do is in ./run.js and ./migrate.js, loaded only when a WAF command runs.
 */
import * as Command from "@effect/cli/Command"
import { lazyHandlers } from "../../lazy.js"
import { wafOptions } from "./options.js"

const handler = lazyHandlers(() => import("./run.js"))
const migrateHandler = lazyHandlers(() => import("./migrate.js"))

const status = Command.make(
  "status",
  wafOptions.status,
  handler((m) => m.status)
).pipe(Command.withDescription("the migration state of a zone and which WAF versions run"))
const check = Command.make(
  "check",
  wafOptions.check,
  handler((m) => m.check)
).pipe(Command.withDescription("is the zone compatible with the migration? with the reasons when it is not"))
const config = Command.make(
  "config",
  wafOptions.config,
  handler((m) => m.config)
).pipe(Command.withDescription("the new configuration equivalent to the zone's previous WAF (the config operation)"))
const preview = Command.make(
  "preview",
  wafOptions.preview,
  handler((m) => m.preview)
).pipe(Command.withDescription("each previous setting, its new equivalent, and what will not be migrated and why"))
const migrate = Command.make(
  "migrate",
  wafOptions.migrate,
  migrateHandler((m) => m.migrate)
).pipe(Command.withDescription("deploy the new WAF: validation mode or finish the migration (irreversible)"))

const overridesList = Command.make(
  "list",
  wafOptions.overridesList,
  handler((m) => m.overridesList)
).pipe(Command.withDescription("the zone's URI-based WAF overrides (they block the migration)"))
const overridesDelete = Command.make(
  "delete",
  wafOptions.overridesDelete,
  handler((m) => m.overridesDelete)
).pipe(Command.withDescription("delete URI-based WAF overrides by id (or --all)"))
const overrides = Command.make("overrides").pipe(
  Command.withDescription("URI-based WAF overrides"),
  Command.withSubcommands([overridesList, overridesDelete])
)

const replay = Command.make(
  "replay",
  wafOptions.replay,
  handler((m) => m.replay)
).pipe(
  Command.withDescription(
    "evaluate each request against the previous WAF and the new configuration; report where they disagree"
  )
)

const exportCmd = Command.make(
  "export",
  wafOptions.exportPrevious,
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
