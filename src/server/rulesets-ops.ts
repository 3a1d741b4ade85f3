/**
 * What the custom phase's writes do to its entry point, before the store saves it: ids, refs,
 * versions and times assigned as the platform answers them, positions resolved, and the refusals
 * (an unknown rule, a repeated ref, a position out of range, more rules than the zone's plan has).
 * Every write makes a new ruleset version; a rule's own version moves only when the rule changes
 * (a reorder leaves it), as the reference says (§5).
 */
import * as Either from "effect/Either"
import { type Conflict, InvalidInput, NotFound, QuotaExceeded } from "../domain/errors.js"
import { hexId } from "../domain/ids.js"
import { CustomRuleLimits, CustomRulesPhase } from "../domain/custom-rule.js"
import type { ZoneRule, ZoneRuleset } from "../domain/ruleset.js"
import type { EntrypointInput, Position, RuleChange, RuleInput } from "./rulesets-body.js"

/** What a rule or entry point write refuses; the explicit create may also meet a Conflict. */
type WriteRefusal = InvalidInput | NotFound | QuotaExceeded
export type Refusal = WriteRefusal | Conflict
/** The entry point a write leaves, or its refusal. */
export type Outcome<E extends Refusal = WriteRefusal> = Either.Either<ZoneRuleset, E>

const refuse = (error: WriteRefusal): Outcome => Either.left(error)

export const ruleNotFound = (rulesetId: string, ruleId: string) =>
  new NotFound({ code: 10003, message: `could not find rule ${ruleId} in ruleset ${rulesetId}` })

/** The fields a user sets: a rule whose fields are the same keeps its version and time. */
const content = (r: RuleInput | ZoneRule) =>
  JSON.stringify([r.action, r.expression, r.description, r.enabled, r.action_parameters, r.logging, r.ref, r.ratelimit])

const toRule = (input: RuleInput, id: string, previous: ZoneRule | undefined, at: string): ZoneRule => {
  const rule: ZoneRule = {
    id,
    version: "1",
    action: input.action,
    expression: input.expression,
    ...(input.description !== undefined ? { description: input.description } : {}),
    enabled: input.enabled,
    ref: input.ref ?? previous?.ref ?? id,
    ...(input.action_parameters !== undefined ? { action_parameters: input.action_parameters } : {}),
    ...(input.logging !== undefined ? { logging: input.logging } : {}),
    ...(input.ratelimit !== undefined ? { ratelimit: input.ratelimit } : {}),
    last_updated: at
  }
  if (previous === undefined) return rule
  return content(rule) === content(previous) ? previous : { ...rule, version: String(Number(previous.version) + 1) }
}

/** A phase whose entry point the local platform writes: its name, what its rules are called, its quota per plan. */
export interface WritablePhase {
  readonly phase: string
  readonly rulesAre: string
  readonly limits: Readonly<Record<string, number>>
}
const CustomPhase: WritablePhase = { phase: CustomRulesPhase, rulesAre: "custom rules", limits: CustomRuleLimits }

const checked = (plan: string, next: ZoneRuleset, spec: WritablePhase = CustomPhase): Outcome => {
  const limit = spec.limits[plan] ?? spec.limits.free!
  if (next.rules.length > limit) {
    return refuse(
      new QuotaExceeded({
        message: `rules: a ${plan} zone may have at most ${limit.toLocaleString("en-US")} ${spec.rulesAre} in the ${spec.phase} phase, got ${next.rules.length.toLocaleString("en-US")}`
      })
    )
  }
  const seen = new Map<string, number>()
  for (const [i, r] of next.rules.entries()) {
    const before = seen.get(r.ref)
    if (before !== undefined) {
      return refuse(
        new InvalidInput({
          message: `rules[${i}].ref: refs are unique in a ruleset, ${JSON.stringify(r.ref)} is also the ref of rules[${before}]`
        })
      )
    }
    seen.set(r.ref, i)
  }
  return Either.right(next)
}

const nextVersion = (r: ZoneRuleset | null) => String(Number(r?.version ?? "0") + 1)
const newRuleId = (rulesetId: string, version: string, i: number) => hexId("ruleset-rule", rulesetId, version, i)

/** The entry point PUT: the whole list replaced; a rule keeps its id when it names it, or its ref. */
export const putEntrypoint = (
  zoneId: string,
  plan: string,
  previous: ZoneRuleset | null,
  input: EntrypointInput,
  at: string,
  spec: WritablePhase = CustomPhase
): Outcome => {
  const id = previous?.id ?? hexId("ruleset", zoneId, spec.phase)
  const name = previous?.name ?? input.name ?? "default"
  if (input.name !== undefined && input.name !== name) {
    return refuse(
      new InvalidInput({
        message: `name: a ruleset's name cannot be changed (it is ${JSON.stringify(name)}), got ${JSON.stringify(input.name)}`
      })
    )
  }
  const version = nextVersion(previous)
  const old = previous?.rules ?? []
  const rules: Array<ZoneRule> = []
  // Each stored rule is claimed once: by its id first (any rule of the body), then by its ref.
  const named = new Map<string, number>()
  for (const [i, r] of input.rules.entries()) {
    if (r.id === undefined) continue
    if (!old.some((o) => o.id === r.id)) {
      return refuse(new InvalidInput({ message: `rules[${i}].id: ruleset ${id} has no rule ${r.id}` }))
    }
    const before = named.get(r.id)
    if (before !== undefined) {
      return refuse(new InvalidInput({ message: `rules[${i}].id: rules[${before}] is rule ${r.id} already` }))
    }
    named.set(r.id, i)
  }
  for (const [i, r] of input.rules.entries()) {
    const match =
      r.id !== undefined
        ? old.find((o) => o.id === r.id)
        : r.ref !== undefined
          ? old.find((o) => o.ref === r.ref && !named.has(o.id))
          : undefined
    if (match !== undefined && r.id === undefined) named.set(match.id, i)
    rules.push(toRule(r, match?.id ?? newRuleId(id, version, i), match, at))
  }
  return checked(
    plan,
    {
      id,
      name,
      description: input.description ?? previous?.description ?? "",
      kind: "zone",
      version,
      rules,
      last_updated: at,
      phase: spec.phase
    },
    spec
  )
}

/** Inserts `rule` where `position` says in `rules` (which no longer holds it); `undefined` appends. */
const place = (
  rulesetId: string,
  rules: ReadonlyArray<ZoneRule>,
  rule: ZoneRule,
  position: Position | undefined
): Either.Either<Array<ZoneRule>, WriteRefusal> => {
  const out = [...rules]
  let at = out.length
  if (position !== undefined && "index" in position) {
    if (position.index > out.length + 1) {
      return Either.left(
        new InvalidInput({
          message: `position.index: expected an integer from 1 to ${out.length + 1} (the ruleset has ${out.length} other rules), got ${position.index}`
        })
      )
    }
    at = position.index - 1
  } else if (position !== undefined) {
    const before = "before" in position
    const target = before ? position.before : position.after
    if (target === "") at = before ? 0 : out.length
    else {
      const i = out.findIndex((r) => r.id === target)
      if (i < 0) {
        return Either.left(
          new InvalidInput({
            message: `position.${before ? "before" : "after"}: ruleset ${rulesetId} has no other rule ${target}`
          })
        )
      }
      at = before ? i : i + 1
    }
  }
  out.splice(at, 0, rule)
  return Either.right(out)
}

const withRules = (r: ZoneRuleset, rules: Array<ZoneRule>, version: string, at: string): ZoneRuleset => ({
  ...r,
  version,
  rules,
  last_updated: at
})

/** POST …/rules: a new rule, appended unless `position` says otherwise. */
export const addRule = (plan: string, r: ZoneRuleset, change: RuleChange, at: string): Outcome => {
  const input = change.rule!
  if (input.id !== undefined) {
    return refuse(
      new InvalidInput({ message: `id: a new rule gets its id from the platform, got ${JSON.stringify(input.id)}` })
    )
  }
  const version = nextVersion(r)
  const rule = toRule(input, newRuleId(r.id, version, r.rules.length), undefined, at)
  return Either.flatMap(place(r.id, r.rules, rule, change.position), (rules) =>
    checked(plan, withRules(r, rules, version, at))
  )
}

/** PATCH …/rules/{id}: the rule redefined (every field to keep sent again), moved, or both. */
export const updateRule = (plan: string, r: ZoneRuleset, ruleId: string, change: RuleChange, at: string): Outcome => {
  const i = r.rules.findIndex((x) => x.id === ruleId)
  if (i < 0) return refuse(ruleNotFound(r.id, ruleId))
  const previous = r.rules[i]!
  if (change.rule?.id !== undefined && change.rule.id !== ruleId) {
    return refuse(
      new InvalidInput({
        message: `id: the rule's id is ${ruleId} (in the path), got ${JSON.stringify(change.rule.id)}`
      })
    )
  }
  const rule = change.rule === undefined ? previous : toRule(change.rule, ruleId, previous, at)
  const others = r.rules.filter((x) => x.id !== ruleId)
  const placed =
    change.position === undefined
      ? Either.right([...others.slice(0, i), rule, ...others.slice(i)])
      : place(r.id, others, rule, change.position)
  return Either.flatMap(placed, (rules) => checked(plan, withRules(r, rules, nextVersion(r), at)))
}

/** DELETE …/rules/{id}: the ruleset without the rule. */
export const deleteRule = (r: ZoneRuleset, ruleId: string, at: string): Outcome<NotFound> =>
  r.rules.some((x) => x.id === ruleId)
    ? Either.right(
        withRules(
          r,
          r.rules.filter((x) => x.id !== ruleId),
          nextVersion(r),
          at
        )
      )
    : Either.left(ruleNotFound(r.id, ruleId))
