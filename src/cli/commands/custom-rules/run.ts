/**
 * What `edgectl custom-rules list|add|update|move|delete` do (loaded when one of them runs), over
 * the rulesets service. Options are checked before anything is sent; an update reads the rule and
 * sends it whole, since the platform drops the fields a rule update leaves out.
 */
import * as Effect from "effect/Effect"
import type { ClientEnv } from "../../../api/client.js"
import { SkipProducts } from "../../../domain/custom-rule.js"
import type { V4Error } from "../../../domain/errors.js"
import type { ZoneRule, ZoneRuleset } from "../../../domain/ruleset.js"
import * as Rs from "../../../services/rulesets-service.js"
import { resolveZone } from "../../../services/zones-service.js"
import { opt } from "../../options.js"
import { clip, note, printFields, printJson, printLine, printTable } from "../../output.js"
import { confirmOrRefuse } from "../../prompt.js"
import { CliFailure, positional, run, targetOn, usage } from "../../run.js"
import { explain } from "../firewall/common.js"
import { shellQuote } from "../firewall/hints.js"
import type { Parsed } from "./options.js"

type Fields = Parsed<"add"> | Parsed<"update">

const listHint = (zone: string, on: string) =>
  `see the ids with \`edgectl custom-rules list --zone ${shellQuote(zone)}${on}\``

/** `on`: the failed command's ` --remote` or ` --persist-to DIR`, so that each suggestion runs as printed. */
const hint = (zone: string) => (e: V4Error, on: string) =>
  e._tag === "NotFound"
    ? /^no zone/.test(e.message)
      ? `see the zones with \`edgectl zones list${on}\``
      : listHint(zone, on)
    : e._tag === "QuotaExceeded"
      ? `delete or merge custom rules first (\`edgectl custom-rules list --zone ${shellQuote(zone)}${on}\`)`
      : undefined

/** Runs against the zone and its entry point (null when the zone has no custom rules yet). */
const onZone = <A>(
  what: string,
  o: Parsed<"list">,
  expression: string | undefined,
  f: (zoneId: string, entry: ZoneRuleset | null) => Effect.Effect<A, V4Error | CliFailure, ClientEnv>
) =>
  o.zone.trim() === ""
    ? Effect.fail(usage("--zone needs a value, got an empty string"))
    : run(
        what,
        o,
        Effect.mapError(
          Effect.flatMap(resolveZone(o.zone), (z) => Effect.flatMap(Rs.getCustomRules(z.id), (e) => f(z.id, e))),
          explain({ zone: o.zone, expression })
        ),
        hint(o.zone)
      )

/** The `<rule-id>` argument: not an option, and not empty (an empty id is named, as firewall names its own). */
const ruleId = (what: string, id: string) =>
  Effect.flatMap(positional("<rule-id>", id), (v) =>
    v.trim() === ""
      ? Effect.fail(
          new CliFailure({ text: `error: ${what}: rule id: must not be empty, got ${JSON.stringify(v)}`, exitCode: 1 })
        )
      : Effect.succeed(v)
  )

const noRule = (what: string, o: Parsed<"list">, id: string) =>
  new CliFailure({
    text: `error: ${what}: zone ${o.zone} has no custom rule ${id}\nhint: ${listHint(o.zone, targetOn(o))}`,
    exitCode: 1
  })

const position = (o: Parsed<"move"> | Parsed<"add">): Effect.Effect<Rs.RulePosition | undefined, CliFailure> => {
  const given = [
    ...(opt(o.before) !== undefined ? [{ before: opt(o.before)! }] : []),
    ...(opt(o.after) !== undefined ? [{ after: opt(o.after)! }] : []),
    ...(opt(o.index) !== undefined ? [{ index: opt(o.index)! }] : [])
  ]
  return given.length > 1
    ? Effect.fail(usage("give one position: --before R, --after R or --index N, not several"))
    : Effect.succeed(given[0])
}

/** The skip options for --products / --skip-rest, checked against the action. */
const skipOptions = (action: string, o: Fields): Effect.Effect<ZoneRule["action_parameters"] | null, CliFailure> => {
  const products = opt(o.products)
  if (action !== "skip") {
    if (products !== undefined || o.skipRest)
      return Effect.fail(
        usage(
          `${products !== undefined ? "--products" : "--skip-rest"} applies to --action skip only, got --action ${action}`
        )
      )
    return Effect.succeed(null)
  }
  if (products !== undefined && o.skipRest) return Effect.fail(usage("give --products or --skip-rest, not both"))
  if (o.skipRest) return Effect.succeed({ ruleset: "current" })
  if (products === undefined)
    return Effect.fail(
      usage("--action skip needs what to skip: --skip-rest (the remaining custom rules) or --products P,Q")
    )
  const list = products.split(",").map((p) => p.trim())
  const bad = list.find((p) => !(SkipProducts as ReadonlyArray<string>).includes(p))
  return bad !== undefined
    ? Effect.fail(
        usage(`--products: expected some of ${SkipProducts.join(", ")} (case-sensitive), got ${JSON.stringify(bad)}`)
      )
    : Effect.succeed({ products: list })
}

const nonEmpty = (flag: string, v: string | undefined) =>
  v !== undefined && v.trim() === "" ? Effect.fail(usage(`${flag} needs a value, got an empty string`)) : Effect.void

const actionText = (r: ZoneRule) => {
  const p = r.action_parameters
  if (r.action !== "skip") return r.action
  return p?.ruleset === "current"
    ? "skip (rest)"
    : `skip (${[...(p?.products ?? []), ...(p?.phases ?? [])].join(", ")})`
}

const fields = (r: ZoneRule, at: number): Array<readonly [string, string]> => [
  ["id", r.id],
  ["position", String(at + 1)],
  ["action", actionText(r)],
  ["enabled", r.enabled ? "yes" : "no"],
  ["description", r.description ?? "-"],
  ["ref", r.ref],
  ["version", r.version],
  ["expression", r.expression]
]

const shown = (rs: ZoneRuleset | null, id: string | undefined) => {
  const rules = rs?.rules ?? []
  const at = id === undefined ? -1 : rules.findIndex((r) => r.id === id)
  return { rule: rules[at], at }
}

export const list = (o: Parsed<"list">) =>
  onZone("custom-rules list", o, undefined, (_, e) =>
    Effect.sync(() => {
      const rules = e?.rules ?? []
      if (o.json) return printJson(rules)
      if (rules.length === 0)
        return printLine(
          `No custom rules on zone ${o.zone}. Add one with: edgectl custom-rules add --zone ${shellQuote(o.zone)} --expression '...' --action block${targetOn(o)} (or move the firewall rules: edgectl firewall migrate --zone ${shellQuote(o.zone)}${targetOn(o)})`
        )
      printTable(
        ["#", "ID", "ACTION", "ENABLED", "DESCRIPTION", "EXPRESSION"],
        rules.map((r, i) => [
          i + 1,
          r.id,
          actionText(r),
          r.enabled ? "yes" : "no",
          clip(r.description ?? "", 32),
          clip(r.expression, 60)
        ])
      )
    })
  )

export const add = (o: Parsed<"add">) =>
  Effect.gen(function* () {
    const expression = opt(o.expression)
    if (expression === undefined) return yield* Effect.fail(usage("add needs --expression"))
    yield* nonEmpty("--expression", expression)
    const where = yield* position(o)
    const params = yield* skipOptions(o.action, o)
    const description = opt(o.description)
    const rule: Rs.CustomRuleInput = {
      action: o.action,
      expression,
      ...(description !== undefined ? { description } : {}),
      enabled: !o.disabled,
      ...(params ? { action_parameters: params } : {})
    }
    const written = yield* onZone("custom-rules add", o, expression, (z, e) =>
      Effect.map(
        e === null ? Rs.putCustomRules(z, { rules: [rule] }) : Rs.addCustomRule(z, e.id, rule, where),
        (rs) => {
          const before = new Set((e?.rules ?? []).map((r) => r.id))
          return { rs, id: rs?.rules.find((r) => !before.has(r.id))?.id }
        }
      )
    )
    const { rule: r, at } = shown(written.rs, written.id)
    if (r === undefined) return
    if (o.json) return printJson(r)
    printLine(`Added custom rule ${r.id} (${actionText(r)}) at position ${at + 1} on zone ${o.zone}.`)
    printFields(fields(r, at))
  })

export const update = (o: Parsed<"update">) =>
  Effect.gen(function* () {
    const what = "custom-rules update"
    yield* ruleId(what, o.id)
    if (o.enable && o.disable) return yield* Effect.fail(usage("give --enable or --disable, not both"))
    const expression = opt(o.expression)
    yield* nonEmpty("--expression", expression)
    const changes = [expression, opt(o.action), opt(o.description), opt(o.products)]
    if (changes.every((c) => c === undefined) && !o.skipRest && !o.enable && !o.disable)
      return yield* Effect.fail(
        usage(
          "say what to change: --expression, --action, --description, --products, --skip-rest, --enable or --disable"
        )
      )
    const written = yield* onZone(what, o, expression, (z, e) =>
      Effect.gen(function* () {
        const old = e?.rules.find((r) => r.id === o.id)
        if (e === null || old === undefined) return yield* Effect.fail(noRule(what, o, o.id))
        const action = opt(o.action) ?? old.action
        const fresh = opt(o.products) !== undefined || o.skipRest || action !== old.action
        const params = fresh ? yield* skipOptions(action, o) : old.action_parameters
        const description = opt(o.description) ?? old.description
        const rule: Rs.CustomRuleInput = {
          action,
          expression: expression ?? old.expression,
          ...(description !== undefined ? { description } : {}),
          enabled: o.enable ? true : o.disable ? false : old.enabled,
          ref: old.ref,
          ...(params ? { action_parameters: params } : {}),
          ...(old.logging !== undefined && action === "skip" ? { logging: old.logging } : {})
        }
        return yield* Rs.updateCustomRule(z, e.id, o.id, rule)
      })
    )
    const { rule: r, at } = shown(written, o.id)
    if (r === undefined) return
    if (o.json) return printJson(r)
    printLine(`Updated custom rule ${r.id}.`)
    printFields(fields(r, at))
  })

export const move = (o: Parsed<"move">) =>
  Effect.gen(function* () {
    const what = "custom-rules move"
    yield* ruleId(what, o.id)
    const where = yield* position(o)
    if (where === undefined) return yield* Effect.fail(usage("say where: --before R, --after R or --index N"))
    const written = yield* onZone(what, o, undefined, (z, e) =>
      e === null || !e.rules.some((r) => r.id === o.id)
        ? Effect.fail(noRule(what, o, o.id))
        : Rs.moveCustomRule(z, e.id, o.id, where)
    )
    const { rule: r, at } = shown(written, o.id)
    if (r === undefined) return
    if (o.json) return printJson(r)
    printLine(`Moved custom rule ${r.id} to position ${at + 1} of ${written?.rules.length} on zone ${o.zone}.`)
  })

export const remove = (o: Parsed<"remove">) =>
  Effect.gen(function* () {
    const what = "custom-rules delete"
    yield* ruleId(what, o.id)
    const done = yield* onZone(what, o, undefined, (z, e) =>
      Effect.gen(function* () {
        const r = e?.rules.find((x) => x.id === o.id)
        if (e === null || r === undefined) return yield* Effect.fail(noRule(what, o, o.id))
        const yes = yield* confirmOrRefuse(
          `Delete custom rule ${r.id} (${actionText(r)}${r.description ? `: ${clip(r.description, 40)}` : ""}) of zone ${o.zone}?`,
          { yes: o.yes },
          { what, doing: `deleting custom rule ${r.id}`, hint: "pass --yes to delete it" }
        )
        if (!yes) return false
        yield* Rs.deleteCustomRule(z, e.id, r.id)
        return true
      })
    )
    if (!done) return note("Not deleted.")
    if (o.json) return printJson({ id: o.id })
    printLine(`Deleted custom rule ${o.id} of zone ${o.zone}.`)
  })
