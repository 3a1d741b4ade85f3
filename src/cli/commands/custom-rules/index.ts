/**
 * `edgectl custom-rules list|add|update|move|delete`: the WAF custom rules of a zone (the entry point
 * of phase http_request_firewall_custom, where `edgectl firewall migrate` puts the firewall rules).
 * The tree is declared here; what the commands do is in ./run.js, loaded when one of them runs.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { CustomRuleActions } from "../../../domain/custom-rule.js"
import { lazyHandlers } from "../../lazy.js"
import { choiceOption, integerOption, target } from "../../options.js"

const handler = lazyHandlers(() => import("./run.js"))

const zone = Options.text("zone").pipe(Options.withDescription("the zone, by id or name"))
const id = Args.text({ name: "rule-id" }).pipe(Args.withDescription("the custom rule's id"))
const text = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)
const fields = {
  expression: text("expression", "the rule's expression, e.g. 'http.request.uri.path contains \"/admin\"'"),
  description: text("description", "a description"),
  products: text(
    "products",
    "with --action skip: the products to skip, comma-separated (zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf)"
  ),
  skipRest: Options.boolean("skip-rest").pipe(
    Options.withDescription("with --action skip: skip the remaining custom rules (a former allow)")
  )
}
const position = {
  before: text("before", "put it before this rule (an empty value: first)"),
  after: text("after", "put it after this rule (an empty value: last)"),
  index: integerOption("index", 1, 1_000_000).pipe(
    Options.withDescription("put it at this 1-based position"),
    Options.optional
  )
}

export const customRules = Command.make("custom-rules").pipe(
  Command.withDescription(
    "WAF custom rules of a zone (phase http_request_firewall_custom), which replace firewall rules"
  ),
  Command.withSubcommands([
    Command.make(
      "list",
      { ...target, zone },
      handler((m) => m.list)
    ).pipe(Command.withDescription("list the zone's custom rules in evaluation order")),
    Command.make(
      "add",
      {
        ...target,
        zone,
        ...fields,
        ...position,
        action: choiceOption("action", CustomRuleActions).pipe(
          Options.withDescription("what the rule does when its expression matches")
        ),
        disabled: Options.boolean("disabled").pipe(Options.withDescription("add it disabled"))
      },
      handler((m) => m.add)
    ).pipe(Command.withDescription("add a rule (last, unless --before, --after or --index)")),
    Command.make(
      "update",
      {
        ...target,
        zone,
        id,
        ...fields,
        action: choiceOption("action", CustomRuleActions).pipe(
          Options.withDescription("the new action"),
          Options.optional
        ),
        enable: Options.boolean("enable").pipe(Options.withDescription("enable the rule")),
        disable: Options.boolean("disable").pipe(Options.withDescription("disable the rule"))
      },
      handler((m) => m.update)
    ).pipe(Command.withDescription("change a rule's expression, action, description or enabled state")),
    Command.make(
      "move",
      { ...target, zone, id, ...position },
      handler((m) => m.move)
    ).pipe(Command.withDescription("move a rule: --before R, --after R or --index N")),
    Command.make(
      "delete",
      {
        ...target,
        zone,
        id,
        yes: Options.boolean("yes").pipe(Options.withAlias("y"), Options.withDescription("do not ask for confirmation"))
      },
      handler((m) => m.remove)
    ).pipe(Command.withDescription("delete a rule"))
  ])
)
