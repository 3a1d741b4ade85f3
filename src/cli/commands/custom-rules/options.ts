/**
 * The options of each `edgectl custom-rules` command, declared once: the tree (./index.ts) gives
 * each command its entry, and each handler (./run.ts) takes `Parsed<"name">`, what that entry
 * parses into. Adding an option is one edit here.
 */
import * as Args from "@effect/cli/Args"
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { CustomRuleActions } from "../../../domain/custom-rule.js"
import { choiceOption, integerOption, optionalText, target, zoneOption } from "../../options.js"

const zone = zoneOption()
const id = Args.text({ name: "rule-id" }).pipe(Args.withDescription("the custom rule's id"))
const fields = {
  expression: optionalText(
    "expression",
    "EXPRESSION",
    "the rule's expression, e.g. 'http.request.uri.path contains \"/admin\"'"
  ),
  description: optionalText("description", "TEXT", "a description"),
  products: optionalText(
    "products",
    "PRODUCTS",
    "with --action skip: the products to skip, comma-separated (zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf)"
  ),
  skipRest: Options.boolean("skip-rest").pipe(
    Options.withDescription("with --action skip: skip the remaining custom rules (a former allow)")
  )
}
const position = {
  before: optionalText("before", "ID", "put it before this rule (an empty value: first)"),
  after: optionalText("after", "ID", "put it after this rule (an empty value: last)"),
  index: integerOption("index", 1, 1_000_000).pipe(
    Options.withDescription("put it at this 1-based position"),
    Options.optional
  )
}

/** Each custom-rules command's options, by the name of its handler, in the order of its help. */
export const customRulesOptions = {
  list: { ...target, zone },
  add: {
    ...target,
    zone,
    ...fields,
    ...position,
    action: choiceOption("action", CustomRuleActions).pipe(
      Options.withDescription("what the rule does when its expression matches")
    ),
    disabled: Options.boolean("disabled").pipe(Options.withDescription("add it disabled"))
  },
  update: {
    ...target,
    zone,
    id,
    ...fields,
    action: choiceOption("action", CustomRuleActions).pipe(Options.withDescription("the new action"), Options.optional),
    enable: Options.boolean("enable").pipe(Options.withDescription("enable the rule")),
    disable: Options.boolean("disable").pipe(Options.withDescription("disable the rule"))
  },
  move: { ...target, zone, id, ...position },
  remove: {
    ...target,
    zone,
    id,
    yes: Options.boolean("yes").pipe(Options.withAlias("y"), Options.withDescription("do not ask for confirmation"))
  }
}

/** What the options of the custom-rules command whose handler is `K` parse into: that handler's input. */
export type Parsed<K extends keyof typeof customRulesOptions> = Command.Command.ParseConfig<
  (typeof customRulesOptions)[K]
>
