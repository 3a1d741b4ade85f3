/**
 * What `edgectl firewall rules list|create|get|update|delete` do (loaded when one of them runs). A
 * two-step create or a quota refusal says which filter exists now and how to reuse or remove it.
 */
import * as Either from "effect/Either"
import * as Effect from "effect/Effect"
import { isDeletedFilter } from "../../../domain/firewall.js"
import { checkRule } from "../../../firewall/rule-input.js"
import * as Fw from "../../../services/firewall-service.js"
import { opt } from "../../options.js"
import { clip, note, printFields, printJson, printLine } from "../../output.js"
import { confirmOrRefuse } from "../../prompt.js"
import { positional, targetOn, usage } from "../../run.js"
import { badRule, nonEmpty, parsePriority, parseProducts, ruleFields, rulesTable, runFw, withZone } from "./common.js"
import { shellQuote } from "./hints.js"
import type { Parsed } from "./options.js"

const usedBy = (n: number) => `${n} other rule${n === 1 ? " uses" : "s use"} it`

export const rulesList = (o: Parsed<"rulesList">) =>
  Effect.gen(function* () {
    const action = opt(o.action)
    const rules = yield* runFw(
      "firewall rules list",
      o,
      { zone: o.zone },
      withZone(o.zone, (z) => Fw.allRules(z))
    )
    const shown = action === undefined ? rules : rules.filter((r) => r.action === action)
    if (o.json) return printJson(shown)
    if (shown.length === 0)
      return printLine(
        `No firewall rules on zone ${o.zone}. Create one with: edgectl firewall rules create --zone ${shellQuote(o.zone)} --expression '...' --action block${targetOn(o)}`
      )
    rulesTable(shown)
  })

export const rulesCreate = (o: Parsed<"rulesCreate">) =>
  Effect.gen(function* () {
    const expression = opt(o.expression)
    const filterId = opt(o.filterId)
    yield* nonEmpty("--expression", expression)
    yield* nonEmpty("--filter-id", filterId)
    if ((expression === undefined) === (filterId === undefined)) {
      return yield* Effect.fail(
        usage(
          expression === undefined
            ? "give the rule's filter: --expression E (a new filter) or --filter-id F (an existing one)"
            : "give --expression or --filter-id, not both"
        )
      )
    }
    if (o.combined && filterId !== undefined)
      return yield* Effect.fail(usage("--combined creates a new filter; it cannot be used with --filter-id"))
    // The whole rule is checked before the filter is created: a refused rule leaves nothing behind.
    const checked = checkRule({
      action: o.action,
      priority: opt(o.priority),
      description: opt(o.description),
      products: opt(o.products),
      paused: o.paused || undefined
    })
    const input = yield* Either.mapLeft(checked, (problems) => badRule("firewall rules create", problems))
    const c = { zone: o.zone, expression, action: o.action, rule: input }
    const result = yield* runFw(
      "firewall rules create",
      o,
      c,
      withZone(o.zone, (z) =>
        filterId !== undefined
          ? Effect.map(Fw.createRuleOnFilter(z, filterId, input), (rule) => ({ rule, created: false }))
          : o.combined
            ? Effect.map(
                Fw.createRuleCombined(z, { expression: expression!, description: opt(o.description) }, input),
                (rule) => ({ rule, created: true })
              )
            : Effect.map(
                Fw.createRuleTwoStep(z, { expression: expression!, description: opt(o.description) }, input),
                (r) => ({ rule: r.rule, created: true })
              )
      )
    )
    if (o.json) return printJson(result.rule)
    const r = result.rule
    printLine(
      result.created
        ? `Created filter ${r.filter.id} and rule ${r.id} (${r.action}) on zone ${o.zone}${o.combined ? " in one call" : ""}.`
        : `Created rule ${r.id} (${r.action}) on filter ${r.filter.id} of zone ${o.zone}.`
    )
    printFields(ruleFields(r))
  })

export const rulesGet = (o: Parsed<"rulesGet">) =>
  Effect.gen(function* () {
    yield* positional("<rule-id>", o.id)
    const r = yield* runFw(
      "firewall rules get",
      o,
      { zone: o.zone },
      withZone(o.zone, (z) => Fw.getRule(z, o.id))
    )
    if (o.json) return printJson(r)
    printFields(ruleFields(r))
  })

export const rulesUpdate = (o: Parsed<"rulesUpdate">) =>
  Effect.gen(function* () {
    yield* positional("<rule-id>", o.id)
    if (o.pause && o.resume) return yield* Effect.fail(usage("give --pause or --resume, not both"))
    const priority = yield* parsePriority(opt(o.priority))
    const changes: Fw.RuleChanges = {
      action: opt(o.action),
      priority,
      description: opt(o.description),
      products: parseProducts(opt(o.products)),
      filterId: opt(o.filterId),
      paused: o.pause ? true : o.resume ? false : undefined
    }
    if (Object.values(changes).every((v) => v === undefined)) {
      return yield* Effect.fail(
        usage("say what to change: --action, --priority, --description, --products, --filter-id, --pause or --resume")
      )
    }
    const r = yield* runFw(
      "firewall rules update",
      o,
      { zone: o.zone, action: changes.action },
      withZone(o.zone, (z) => Fw.updateRule(z, o.id, changes))
    )
    if (o.json) return printJson(r)
    printLine(`Updated rule ${r.id}.`)
    printFields(ruleFields(r))
  })

export const rulesDelete = (o: Parsed<"rulesDelete">) =>
  Effect.gen(function* () {
    const what = "firewall rules delete"
    yield* positional("<rule-id>", o.id)
    const rule = yield* runFw(
      what,
      o,
      { zone: o.zone },
      withZone(o.zone, (z) =>
        Effect.gen(function* () {
          const r = yield* Fw.getRule(z, o.id)
          // Whether another rule uses the filter decides what is said about it (and what is suggested).
          const others = (yield* Fw.allRules(z)).filter((x) => x.id !== r.id && x.filter.id === r.filter.id).length
          const filterFate = o.deleteFilterIfUnused
            ? others > 0
              ? `stays (${usedBy(others)})`
              : "goes too (no other rule uses it)"
            : others > 0
              ? `stays (${usedBy(others)})`
              : "stays"
          const yes = yield* confirmOrRefuse(
            `Delete rule ${r.id} (${r.action}${r.description ? `: ${clip(r.description, 40)}` : ""})? Its filter ${r.filter.id} ${filterFate}.`,
            { yes: o.yes },
            { what, doing: `deleting rule ${r.id}`, hint: "pass --yes to delete it" }
          )
          if (!yes) return undefined
          yield* Fw.deleteRule(z, r.id, { deleteFilterIfUnused: o.deleteFilterIfUnused })
          // Whether the filter went: it exists or it does not.
          const filterDeleted =
            o.deleteFilterIfUnused && (yield* Effect.either(Fw.getFilter(z, r.filter.id)))._tag === "Left"
          return { rule: r, filterDeleted, others }
        })
      )
    )
    if (rule === undefined) return note("Not deleted.")
    const { rule: r, filterDeleted, others } = rule
    if (o.json) return printJson({ id: r.id, filter: { id: r.filter.id, deleted: filterDeleted } })
    if (filterDeleted) return printLine(`Deleted rule ${r.id} and its filter ${r.filter.id} (no other rule used it).`)
    if (isDeletedFilter(r.filter))
      return printLine(`Deleted rule ${r.id} (its filter ${r.filter.id} was already deleted).`)
    printLine(
      others > 0
        ? `Deleted rule ${r.id}. Its filter ${r.filter.id} stays: ${usedBy(others)}.`
        : `Deleted rule ${r.id}. Its filter ${r.filter.id} stays, used by no rule: reuse it with --filter-id ${r.filter.id}, or delete it with: edgectl firewall filters delete ${r.filter.id} --zone ${shellQuote(o.zone)} --yes${targetOn(o)}`
    )
  })
