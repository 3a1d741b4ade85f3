/**
 * Each Zone Lockdown or User Agent Blocking rule as custom rules (lockdown-ua-migration.md §5.2,
 * §5.3, §6 steps 2 and 4, all derived): a lockdown's allowed IPs (a skip of the rest: UA rules and
 * lower-priority lockdowns are not reached) and its block; a UA rule (or a group of the same mode
 * and state) with its mode as the action; each with what exempted requests from its product as
 * `and not (...)`. Where they go in the list is ./lockdown-ua-placement.ts's; the plan is
 * ./lockdown-ua-plan.ts.
 */
import type { CustomRule } from "../domain/custom-rule.js"
import type { Lockdown, UaRule } from "../domain/legacy-security.js"
import { anyUrlExpression, quote } from "../rules/url-pattern.js"

const ipTerm = (l: Lockdown) => `ip.src in {${l.configurations.map((c) => c.value).join(" ")}}`

const exempt = (expression: string, away: ReadonlyArray<string>) =>
  away.length === 0 ? expression : `${expression}${away.map((e) => ` and not (${e})`).join("")}`

/** A lockdown's two rules, `allow` then `block`, as they go at the end of the list (`ref` `lockdown:<id>:allow|block`). */
export const lockdownRules = (l: Lockdown, away: ReadonlyArray<string>): ReadonlyArray<CustomRule> => {
  const urls = anyUrlExpression(l.urls, { path: "caseless" })
  const scope = urls === "true" ? "" : `(${urls}) and `
  const enabled = !l.paused
  const name = l.description !== "" ? l.description : `Zone Lockdown ${l.id}`
  return [
    {
      ref: `lockdown:${l.id}:allow`,
      description: `${name} (allowed IPs)`,
      expression: exempt(`${scope}${ipTerm(l)}`, away),
      action: "skip",
      action_parameters: { ruleset: "current" },
      logging: { enabled: false },
      enabled
    },
    {
      ref: `lockdown:${l.id}:block`,
      description: name,
      expression: exempt(`${scope}not ${ipTerm(l)}`, away),
      action: "block",
      enabled
    }
  ]
}

/** One custom rule for UA rules of the same mode and state (one alone, or merged to fit the quota). */
export const uaRule = (group: ReadonlyArray<UaRule>, away: ReadonlyArray<string>): CustomRule => {
  const first = group[0]!
  const values = group.map((u) => quote(u.configuration.value))
  return {
    ref: `ua:${group.map((u) => u.id).join(",")}`,
    description:
      group.length === 1
        ? first.description !== ""
          ? first.description
          : `User Agent Blocking ${first.id}`
        : `${group.length} User Agent Blocking rules (${first.mode})`,
    expression: exempt(
      group.length === 1 ? `http.user_agent eq ${values[0]}` : `http.user_agent in {${values.join(" ")}}`,
      away
    ),
    action: first.mode,
    enabled: !first.paused
  }
}
