/**
 * The options of each `edgectl firewall` command, declared once: the tree (./index.ts) gives each
 * command its entry, and each handler takes `Parsed<"name">`, what that entry parses into. Adding
 * an option is one edit here.
 */
import * as Args from "@effect/cli/Args"
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { FirewallActions } from "../../../domain/firewall.js"
import { choiceOption, fileOption, optionalText, target, zoneOption } from "../../options.js"

const zone = zoneOption()
const yes = Options.boolean("yes").pipe(Options.withAlias("y"), Options.withDescription("do not ask for confirmation"))
const id = (what: string) => Args.text({ name: `${what}-id` }).pipe(Args.withDescription(`the ${what}'s id`))
const expression = optionalText(
  "expression",
  "EXPRESSION",
  "the filter expression, e.g. 'http.request.uri.path contains \"/admin\"'"
)
const description = optionalText("description", "TEXT", "a description (at most 500 characters)")
const action = choiceOption("action", FirewallActions).pipe(
  Options.withDescription("what the rule does when its filter matches")
)
const priority = optionalText(
  "priority",
  "N|none",
  "lower runs first; `none` (the default) runs after every rule with a priority"
)
const products = optionalText(
  "products",
  "PRODUCTS",
  "with --action bypass: what to skip, comma-separated (zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf)"
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

/** Each firewall command's options, by the name of its handler, in the order of its help. */
export const firewallOptions = {
  filtersList: {
    ...target,
    zone,
    expression: optionalText(
      "expression",
      "EXPRESSION",
      "only filters whose expression contains this (case-insensitive)"
    )
  },
  filtersCreate: {
    ...target,
    zone,
    expression: Options.text("expression").pipe(
      Options.withPseudoName("EXPRESSION"),
      Options.withDescription("the filter expression")
    ),
    description,
    ref: optionalText("ref", "REF", "your own reference (at most 50 characters)"),
    paused: Options.boolean("paused").pipe(Options.withDescription("create it paused"))
  },
  filtersGet: { ...target, zone, id: id("filter") },
  filtersUpdate: {
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
  filtersDelete: { ...target, zone, id: id("filter"), yes },
  rulesList: {
    ...target,
    zone,
    action: choiceOption("action", FirewallActions).pipe(
      Options.withDescription("only rules with this action"),
      Options.optional
    )
  },
  rulesCreate: {
    ...target,
    zone,
    expression,
    filterId: optionalText("filter-id", "ID", "reuse an existing filter instead of creating one"),
    action,
    priority,
    description,
    products,
    paused: Options.boolean("paused").pipe(Options.withDescription("create it paused")),
    combined: Options.boolean("combined").pipe(
      Options.withDescription("create the filter and the rule in one call (the emergency path) instead of two steps")
    )
  },
  rulesGet: { ...target, zone, id: id("rule") },
  rulesUpdate: {
    ...target,
    zone,
    id: id("rule"),
    action: choiceOption("action", FirewallActions).pipe(Options.withDescription("the new action"), Options.optional),
    priority,
    description,
    products,
    filterId: optionalText("filter-id", "ID", "point the rule at another existing filter"),
    pause: Options.boolean("pause").pipe(Options.withDescription("pause the rule")),
    resume: Options.boolean("resume").pipe(Options.withDescription("resume the rule"))
  },
  rulesDelete: {
    ...target,
    zone,
    id: id("rule"),
    yes,
    deleteFilterIfUnused: Options.boolean("delete-filter-if-unused").pipe(
      Options.withDescription("also delete its filter when no other rule uses it")
    )
  },
  legacyList: { ...target, zone },
  test: {
    ...target,
    zone,
    request: Options.text("request").pipe(
      Options.withPseudoName("FILE"),
      Options.withDescription("a JSON file with the request: field name to value (- for stdin)")
    )
  },
  validate: {
    ...target,
    expression: Args.text({ name: "expression" }).pipe(
      Args.withDescription("the filter expression, checked by the platform (no zone: every field counts)")
    )
  },
  lockdownsMigrate: migrateOptions(
    "delete the Zone Lockdown and UA rules instead of pausing them (cannot be rolled back)",
    "restore what the zone's last Zone Lockdown migration found (from the journal)",
    "JSONL traffic (- for stdin): list every request the zone now (lockdowns, UA rules, custom rules) and the zone after the migration decide differently (exit 1 if any, or if nothing was compared); changes nothing"
  ),
  rateLimitsMigrate: migrateOptions(
    "delete the rate limits instead of disabling them (cannot be rolled back)",
    "restore what the zone's last rate limit migration found (from the journal)",
    'JSONL traffic with times ("at"; - for stdin): count each request through the rate limits now and the rules after the migration, list every request decided differently (exit 1 if any, or if nothing was compared); changes nothing'
  ),
  migrate: migrateOptions(
    "delete the migrated firewall rules (and their filters no other rule uses) instead of pausing them",
    "restore what the zone's last migration found: its custom rules and each firewall rule's paused flag (from the journal)",
    "JSONL traffic (- for stdin): list every request the zone now and the zone after the migration decide differently (exit 1 if any, or if nothing was compared); changes nothing"
  )
}

/** What the options of the firewall command whose handler is `K` parse into: that handler's input. */
export type Parsed<K extends keyof typeof firewallOptions> = Command.Command.ParseConfig<(typeof firewallOptions)[K]>
