/**
 * `edgectl firewall filters|rules|test|validate`: firewall filters and rules of a zone (area C). The tree
 * is declared here and each command's options in ./options.ts, both loaded at every start; what the
 * commands do is in the ./*-run.js modules, loaded only when a firewall command runs (they pull in
 * the rules language and the service).
 */
import * as Command from "@effect/cli/Command"
import type * as Effect from "effect/Effect"
import { lazyHandlers } from "../../lazy.js"
import type { CliFailure } from "../../run.js"
import { firewallOptions, type Parsed } from "./options.js"

const filtersHandler = lazyHandlers(() => import("./filters-run.js"))
const rulesHandler = lazyHandlers(() => import("./rules-run.js"))
const migrateHandler = lazyHandlers(() => import("./migrate-run.js"))
const requestHandler = lazyHandlers(() => import("./request-run.js"))
const legacyHandler = lazyHandlers(() => import("./legacy-run.js"))
const lockdownsMigrateHandler = lazyHandlers(() => import("./lockdowns-migrate.js"))
const rateLimitsMigrateHandler = lazyHandlers(() => import("./rate-limits-migrate.js"))

const filters = Command.make("filters").pipe(
  Command.withDescription("filters (match expressions) of a zone; a filter can serve several rules"),
  Command.withSubcommands([
    Command.make(
      "list",
      firewallOptions.filtersList,
      filtersHandler((m) => m.filtersList)
    ).pipe(Command.withDescription("list the zone's filters")),
    Command.make(
      "create",
      firewallOptions.filtersCreate,
      filtersHandler((m) => m.filtersCreate)
    ).pipe(Command.withDescription("create a filter (the expression is checked first)")),
    Command.make(
      "get",
      firewallOptions.filtersGet,
      filtersHandler((m) => m.filtersGet)
    ).pipe(Command.withDescription("show one filter")),
    Command.make(
      "update",
      firewallOptions.filtersUpdate,
      filtersHandler((m) => m.filtersUpdate)
    ).pipe(Command.withDescription("change a filter's expression, description or paused state")),
    Command.make(
      "delete",
      firewallOptions.filtersDelete,
      filtersHandler((m) => m.filtersDelete)
    ).pipe(Command.withDescription("delete a filter (rules using it stay, pointing at a deleted filter)"))
  ])
)

const rules = Command.make("rules").pipe(
  Command.withDescription("firewall rules of a zone: an action bound to a filter"),
  Command.withSubcommands([
    Command.make(
      "list",
      firewallOptions.rulesList,
      rulesHandler((m) => m.rulesList)
    ).pipe(Command.withDescription("list the zone's rules in evaluation order")),
    Command.make(
      "create",
      firewallOptions.rulesCreate,
      rulesHandler((m) => m.rulesCreate)
    ).pipe(
      Command.withDescription(
        "create a rule: a filter, then the rule (--filter-id reuses a filter, --combined uses one call)"
      )
    ),
    Command.make(
      "get",
      firewallOptions.rulesGet,
      rulesHandler((m) => m.rulesGet)
    ).pipe(Command.withDescription("show one rule with its filter")),
    Command.make(
      "update",
      firewallOptions.rulesUpdate,
      rulesHandler((m) => m.rulesUpdate)
    ).pipe(Command.withDescription("change a rule's action, priority, description, filter or paused state")),
    Command.make(
      "delete",
      firewallOptions.rulesDelete,
      rulesHandler((m) => m.rulesDelete)
    ).pipe(Command.withDescription("delete a rule (its filter stays unless --delete-filter-if-unused)"))
  ])
)

/** A legacy security product's group: its rules listed (the migrations off them plan from the same reads). */
const legacyList = (name: string, list: (o: Parsed<"legacyList">) => Effect.Effect<void, CliFailure>) =>
  Command.make("list", firewallOptions.legacyList, list).pipe(Command.withDescription(`list the zone's ${name}`))

/** A legacy security product's group: its rules listed and, where there is one, the migration off them. */
const legacyGroup = (
  name: string,
  description: string,
  list: (o: Parsed<"legacyList">) => Effect.Effect<void, CliFailure>,
  migrate?: Command.Command<"migrate", never, CliFailure, Parsed<"lockdownsMigrate">>
) =>
  Command.make(name).pipe(
    Command.withDescription(description),
    Command.withSubcommands(migrate === undefined ? [legacyList(name, list)] : [legacyList(name, list), migrate])
  )

const lockdownsMigrate = Command.make(
  "migrate",
  firewallOptions.lockdownsMigrate,
  lockdownsMigrateHandler((m) => m.lockdownsMigrate)
).pipe(
  Command.withDescription(
    "move the zone's Zone Lockdown and User Agent Blocking rules to WAF custom rules, in one ordered list (journaled: a re-run finishes a stopped migration, --rollback undoes it)"
  )
)

const rateLimitsMigrate = Command.make(
  "migrate",
  firewallOptions.rateLimitsMigrate,
  rateLimitsMigrateHandler((m) => m.rateLimitsMigrate)
).pipe(
  Command.withDescription(
    "move the zone's rate limits (previous version) to rate limiting rules, the http_ratelimit entry point (journaled: a re-run finishes a stopped migration, --rollback undoes it)"
  )
)

export const firewall = Command.make("firewall").pipe(
  Command.withDescription(
    "firewall filters and rules (deprecated on the platform in favour of rulesets; still served)"
  ),
  Command.withSubcommands([
    filters,
    rules,
    legacyGroup(
      "lockdowns",
      "Zone Lockdown rules: only the listed IPs may reach the URLs (the platform recommends custom rules instead)",
      legacyHandler((m) => m.lockdownsList),
      lockdownsMigrate
    ),
    legacyGroup(
      "ua-rules",
      "User Agent Blocking rules (the platform recommends custom rules instead)",
      legacyHandler((m) => m.uaRulesList)
    ),
    legacyGroup(
      "rate-limits",
      "rate limits, previous version (ended by the platform on 2025-06-15; replaced by rate limiting rules)",
      legacyHandler((m) => m.rateLimitsList),
      rateLimitsMigrate
    ),
    Command.make(
      "migrate",
      firewallOptions.migrate,
      migrateHandler((m) => m.migrate)
    ).pipe(
      Command.withDescription(
        "move the zone's firewall rules to WAF custom rules: the preview, then the custom phase is written and the old rules paused (journaled: a re-run finishes a stopped migration, --rollback undoes it)"
      )
    ),
    Command.make(
      "test",
      firewallOptions.test,
      requestHandler((m) => m.test)
    ).pipe(Command.withDescription("evaluate the zone's active rules against a request and print the deciding rule")),
    Command.make(
      "validate",
      firewallOptions.validate,
      requestHandler((m) => m.validate)
    ).pipe(
      Command.withDescription(
        "check an expression with the platform's validate-expr endpoint (offline: edgectl rules check)"
      )
    )
  ])
)
