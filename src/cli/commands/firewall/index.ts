/**
 * `edgectl firewall filters|rules|test|validate`: firewall filters and rules of a zone (area C). The tree
 * and its options are declared here, loaded at every start; what the commands do is in ./run.js,
 * loaded only when a firewall command runs (it pulls in the rules language and the service).
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import { FirewallActions } from "../../../domain/firewall.js"
import { choiceOption, target } from "../../options.js"
import { keyedCommands } from "../../lazy.js"
import type { CliFailure } from "../../run.js"

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

export const Configs = {
  filtersList: {
    ...target,
    zone,
    expression: text("expression", "only filters whose expression contains this (case-insensitive)")
  },
  filtersCreate: {
    ...target,
    zone,
    expression: Options.text("expression").pipe(Options.withDescription("the filter expression")),
    description,
    ref: text("ref", "your own reference (at most 50 characters)"),
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
    filterId: text("filter-id", "reuse an existing filter instead of creating one"),
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
    filterId: text("filter-id", "point the rule at another existing filter"),
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
  validate: {
    ...target,
    expression: Args.text({ name: "expression" }).pipe(
      Args.withDescription("the filter expression, checked by the platform (no zone: every field counts)")
    )
  },
  test: {
    ...target,
    zone,
    request: Options.text("request").pipe(
      Options.withDescription("a JSON file with the request: field name to value (- for stdin)")
    )
  }
} as const

export type FirewallCommand = keyof typeof Configs
export type Parsed<K extends FirewallCommand> = Command.Command.ParseConfig<(typeof Configs)[K]>

type Handlers = { readonly [K in FirewallCommand]: (o: Parsed<K>) => Effect.Effect<void, CliFailure> }

const command = keyedCommands(Configs, () => import("./run.js") as Promise<Handlers>)

const filters = Command.make("filters").pipe(
  Command.withDescription("filters (match expressions) of a zone; a filter can serve several rules"),
  Command.withSubcommands([
    command("list", "filtersList", "list the zone's filters"),
    command("create", "filtersCreate", "create a filter (the expression is checked first)"),
    command("get", "filtersGet", "show one filter"),
    command("update", "filtersUpdate", "change a filter's expression, description or paused state"),
    command("delete", "filtersDelete", "delete a filter (rules using it stay, pointing at a deleted filter)")
  ])
)

const rules = Command.make("rules").pipe(
  Command.withDescription("firewall rules of a zone: an action bound to a filter"),
  Command.withSubcommands([
    command("list", "rulesList", "list the zone's rules in evaluation order"),
    command(
      "create",
      "rulesCreate",
      "create a rule: a filter, then the rule (--filter-id reuses a filter, --combined uses one call)"
    ),
    command("get", "rulesGet", "show one rule with its filter"),
    command("update", "rulesUpdate", "change a rule's action, priority, description, filter or paused state"),
    command("delete", "rulesDelete", "delete a rule (its filter stays unless --delete-filter-if-unused)")
  ])
)

export const firewall = Command.make("firewall").pipe(
  Command.withDescription(
    "firewall filters and rules (deprecated on the platform in favour of rulesets; still served)"
  ),
  Command.withSubcommands([
    filters,
    rules,
    command("test", "test", "evaluate the zone's active rules against a request and print the deciding rule"),
    command(
      "validate",
      "validate",
      "check an expression with the platform's validate-expr endpoint (offline: edgectl rules check)"
    )
  ])
)
