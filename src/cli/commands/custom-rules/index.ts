/**
 * `edgectl custom-rules list|add|update|move|delete`: the WAF custom rules of a zone (the entry point
 * of phase http_request_firewall_custom, where `edgectl firewall migrate` puts the firewall rules).
 * The tree is declared here and each command's options in ./options.ts; what the commands do is
 * in ./run.js, loaded when one of them runs.
 */
import * as Command from "@effect/cli/Command"
import { lazyHandlers } from "../../lazy.js"
import { customRulesOptions } from "./options.js"

const handler = lazyHandlers(() => import("./run.js"))

export const customRules = Command.make("custom-rules").pipe(
  Command.withDescription(
    "WAF custom rules of a zone (phase http_request_firewall_custom), which replace firewall rules"
  ),
  Command.withSubcommands([
    Command.make(
      "list",
      customRulesOptions.list,
      handler((m) => m.list)
    ).pipe(Command.withDescription("list the zone's custom rules in evaluation order")),
    Command.make(
      "add",
      customRulesOptions.add,
      handler((m) => m.add)
    ).pipe(Command.withDescription("add a rule (last, unless --before, --after or --index)")),
    Command.make(
      "update",
      customRulesOptions.update,
      handler((m) => m.update)
    ).pipe(Command.withDescription("change a rule's expression, action, description or enabled state")),
    Command.make(
      "move",
      customRulesOptions.move,
      handler((m) => m.move)
    ).pipe(Command.withDescription("move a rule: --before R, --after R or --index N")),
    Command.make(
      "delete",
      customRulesOptions.remove,
      handler((m) => m.remove)
    ).pipe(Command.withDescription("delete a rule"))
  ])
)
