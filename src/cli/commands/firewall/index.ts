/**
 * `edgectl firewall filters|rules|test|validate`: firewall filters and rules of a zone (area C). The tree
 * and its options are declared here, loaded at every start; what the commands do is in ./run.js,
 * loaded only when a firewall command runs (it pulls in the rules language and the service).
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { FirewallActions } from "../../../domain/firewall.js"
import type * as Effect from "effect/Effect"
import { lazyHandlers } from "../../lazy.js"
import type { CliFailure } from "../../run.js"
import type { Parsed } from "./inputs.js"
import { choiceOption, fileOption, target } from "../../options.js"

const filtersHandler = lazyHandlers(() => import("./filters-run.js"))
const rulesHandler = lazyHandlers(() => import("./rules-run.js"))
const migrateHandler = lazyHandlers(() => import("./migrate-run.js"))
const requestHandler = lazyHandlers(() => import("./request-run.js"))
const legacyHandler = lazyHandlers(() => import("./legacy-run.js"))
const lockdownsMigrateHandler = lazyHandlers(() => import("./lockdowns-migrate.js"))
const rateLimitsMigrateHandler = lazyHandlers(() => import("./rate-limits-migrate.js"))

const zone = Options.text("zone").pipe(Options.withDescription("the zone, by id or name"))
const yes = Options.boolean("yes").pipe(Options.withAlias("y"), Options.withDescription("do not ask for confirmation"))
const id = (what: string) => Args.text({ name: `${what}-id` }).pipe(Args.withDescription(`the ${what}'s id`))
const text = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)
const expression = text("expression", "the filter expression, e.g. 'http.request.uri.path contains \"/admin\"'")
const description = text("description", "a description (at most 500 characters)")
const action = choiceOption("action", FirewallActions).pipe(
  Options.withDescription("what the rule does when its filter matches")
)
const priority = text("priority", "lower runs first; `none` (the default) runs after every rule with a priority")
const products = text(
  "products",
  "with --action bypass: what to skip, comma-separated (zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf)"
)

const filters = Command.make("filters").pipe(
  Command.withDescription("filters (match expressions) of a zone; a filter can serve several rules"),
  Command.withSubcommands([
    Command.make(
      "list",
      {
        ...target,
        zone,
        expression: text("expression", "only filters whose expression contains this (case-insensitive)")
      },
      filtersHandler((m) => m.filtersList)
    ).pipe(Command.withDescription("list the zone's filters")),
    Command.make(
      "create",
      {
        ...target,
        zone,
        expression: Options.text("expression").pipe(Options.withDescription("the filter expression")),
        description,
        ref: text("ref", "your own reference (at most 50 characters)"),
        paused: Options.boolean("paused").pipe(Options.withDescription("create it paused"))
      },
      filtersHandler((m) => m.filtersCreate)
    ).pipe(Command.withDescription("create a filter (the expression is checked first)")),
    Command.make(
      "get",
      { ...target, zone, id: id("filter") },
      filtersHandler((m) => m.filtersGet)
    ).pipe(Command.withDescription("show one filter")),
    Command.make(
      "update",
      {
        ...target,
        zone,
        id: id("filter"),
        expression,
        description,
        paused: choiceOption("paused", ["true", "false"]).pipe(
          Options.withDescription("pause (true) or resume (false) the filter"),
          Options.optional
        )
      },
      filtersHandler((m) => m.filtersUpdate)
    ).pipe(Command.withDescription("change a filter's expression, description or paused state")),
    Command.make(
      "delete",
      { ...target, zone, id: id("filter"), yes },
      filtersHandler((m) => m.filtersDelete)
    ).pipe(Command.withDescription("delete a filter (rules using it stay, pointing at a deleted filter)"))
  ])
)

const rules = Command.make("rules").pipe(
  Command.withDescription("firewall rules of a zone: an action bound to a filter"),
  Command.withSubcommands([
    Command.make(
      "list",
      {
        ...target,
        zone,
        action: choiceOption("action", FirewallActions).pipe(
          Options.withDescription("only rules with this action"),
          Options.optional
        )
      },
      rulesHandler((m) => m.rulesList)
    ).pipe(Command.withDescription("list the zone's rules in evaluation order")),
    Command.make(
      "create",
      {
        ...target,
        zone,
        expression,
        filterId: text("filter-id", "reuse an existing filter instead of creating one"),
        action,
        priority,
        description,
        products,
        paused: Options.boolean("paused").pipe(Options.withDescription("create it paused")),
        combined: Options.boolean("combined").pipe(
          Options.withDescription(
            "create the filter and the rule in one call (the emergency path) instead of two steps"
          )
        )
      },
      rulesHandler((m) => m.rulesCreate)
    ).pipe(
      Command.withDescription(
        "create a rule: a filter, then the rule (--filter-id reuses a filter, --combined uses one call)"
      )
    ),
    Command.make(
      "get",
      { ...target, zone, id: id("rule") },
      rulesHandler((m) => m.rulesGet)
    ).pipe(Command.withDescription("show one rule with its filter")),
    Command.make(
      "update",
      {
        ...target,
        zone,
        id: id("rule"),
        action: choiceOption("action", FirewallActions).pipe(
          Options.withDescription("the new action"),
          Options.optional
        ),
        priority,
        description,
        products,
        filterId: text("filter-id", "point the rule at another existing filter"),
        pause: Options.boolean("pause").pipe(Options.withDescription("pause the rule")),
        resume: Options.boolean("resume").pipe(Options.withDescription("resume the rule"))
      },
      rulesHandler((m) => m.rulesUpdate)
    ).pipe(Command.withDescription("change a rule's action, priority, description, filter or paused state")),
    Command.make(
      "delete",
      {
        ...target,
        zone,
        id: id("rule"),
        yes,
        deleteFilterIfUnused: Options.boolean("delete-filter-if-unused").pipe(
          Options.withDescription("also delete its filter when no other rule uses it")
        )
      },
      rulesHandler((m) => m.rulesDelete)
    ).pipe(Command.withDescription("delete a rule (its filter stays unless --delete-filter-if-unused)"))
  ])
)

/** A legacy security product's group: its rules listed (the migrations off them plan from the same reads). */
const legacyList = (name: string, list: (o: Parsed<"legacyList">) => Effect.Effect<void, CliFailure>) =>
  Command.make("list", { ...target, zone }, list).pipe(Command.withDescription(`list the zone's ${name}`))

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

/**
 * The options every migration command of the tree takes (`firewall migrate`, `lockdowns migrate`,
 * `rate-limits migrate`), declared once: only what --delete-old deletes, what --rollback restores
 * and what --replay compares differ.
 */
const migrateOptions = (deletes: string, restores: string, replays: string) => ({
  ...target,
  zone,
  yes,
  dryRun: Options.boolean("dry-run").pipe(
    Options.withDescription("print the exact requests and the state the zone would end in; change nothing")
  ),
  deleteOld: Options.boolean("delete-old").pipe(Options.withDescription(deletes)),
  rollback: Options.boolean("rollback").pipe(Options.withDescription(restores)),
  replay: fileOption("replay").pipe(Options.withDescription(replays), Options.optional)
})

const lockdownsMigrate = Command.make(
  "migrate",
  migrateOptions(
    "delete the Zone Lockdown and UA rules instead of pausing them (cannot be rolled back)",
    "restore what the zone's last Zone Lockdown migration found (from the journal)",
    "JSONL traffic (- for stdin): list every request the zone now (lockdowns, UA rules, custom rules) and the zone after the migration decide differently (exit 1 if any, or if nothing was compared); changes nothing"
  ),
  lockdownsMigrateHandler((m) => m.lockdownsMigrate)
).pipe(
  Command.withDescription(
    "move the zone's Zone Lockdown and User Agent Blocking rules to WAF custom rules, in one ordered list (journaled: a re-run finishes a stopped migration, --rollback undoes it)"
  )
)

const rateLimitsMigrate = Command.make(
  "migrate",
  migrateOptions(
    "delete the rate limits instead of disabling them (cannot be rolled back)",
    "restore what the zone's last rate limit migration found (from the journal)",
    'JSONL traffic with times ("at"; - for stdin): count each request through the rate limits now and the rules after the migration, list every request decided differently (exit 1 if any, or if nothing was compared); changes nothing'
  ),
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
      migrateOptions(
        "delete the migrated firewall rules (and their filters no other rule uses) instead of pausing them",
        "restore what the zone's last migration found: its custom rules and each firewall rule's paused flag (from the journal)",
        "JSONL traffic (- for stdin): list every request the zone now and the zone after the migration decide differently (exit 1 if any, or if nothing was compared); changes nothing"
      ),
      migrateHandler((m) => m.migrate)
    ).pipe(
      Command.withDescription(
        "move the zone's firewall rules to WAF custom rules: the preview, then the custom phase is written and the old rules paused (journaled: a re-run finishes a stopped migration, --rollback undoes it)"
      )
    ),
    Command.make(
      "test",
      {
        ...target,
        zone,
        request: Options.text("request").pipe(
          Options.withPseudoName("FILE"),
          Options.withDescription("a JSON file with the request: field name to value (- for stdin)")
        )
      },
      requestHandler((m) => m.test)
    ).pipe(Command.withDescription("evaluate the zone's active rules against a request and print the deciding rule")),
    Command.make(
      "validate",
      {
        ...target,
        expression: Args.text({ name: "expression" }).pipe(
          Args.withDescription("the filter expression, checked by the platform (no zone: every field counts)")
        )
      },
      requestHandler((m) => m.validate)
    ).pipe(
      Command.withDescription(
        "check an expression with the platform's validate-expr endpoint (offline: edgectl rules check)"
      )
    )
  ])
)
