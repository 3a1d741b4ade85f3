/**
 * What the firewall-rules endpoints do (area C): each checks (firewall-checks.ts), has the store
 * write (src/store/firewall-repo.ts) and shapes the answer (firewall-answers.ts); it fails with the
 * refusal, and writes only when nothing is refused, in one transaction — except the spec's quota
 * case, where the combined call keeps the filters it created and answers QuotaExceeded naming them.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { Deleted, Rule } from "../domain/firewall.js"
import { QuotaExceeded, type NotFound } from "../domain/errors.js"
import {
  readPriorityChange,
  readPriorityChanges,
  readRuleCreates,
  readRuleUpdate,
  readRuleUpdates,
  type PriorityChange,
  type RuleCreate,
  type RuleUpdate
} from "../firewall/body.js"
import * as Repo from "../store/firewall-repo.js"
import { notFound, toRule } from "./firewall-answers.js"
import {
  at,
  bodyOf,
  checkExpressions,
  missing,
  namedFilter,
  stored,
  transaction,
  type Refusal,
  type Scope
} from "./firewall-checks.js"

/**
 * POST /firewall/rules. Everything is checked before anything is written; then, when the zone's
 * quota leaves no room for the rules, the new filters are created alone (the spec's quota case).
 */
export const createRules = (s: Scope, body: unknown): Effect.Effect<Array<Rule>, Refusal> =>
  Effect.flatMap(bodyOf(readRuleCreates(body)), (items) => {
    const many = Array.isArray(body)
    const fresh = items.flatMap((r, index) =>
      r.filter.kind === "new" ? [{ expression: r.filter.filter.expression, index, field: "filter.expression" }] : []
    )
    // The quota's refusal is the transaction's answer, not its failure: the filters it created stay.
    return Effect.flatMap(checkExpressions(s, fresh, many, writeRules(s, items, many)), (written) => written)
  })

const writeRules = (s: Scope, items: ReadonlyArray<RuleCreate>, many: boolean) =>
  Effect.gen(function* () {
    for (const [i, r] of items.entries()) {
      if (r.filter.kind === "id") yield* namedFilter(s, r.filter.id, r.filter.given, at(i, many))
    }
    const quota = yield* stored(Repo.ruleQuota(s.sql, s.zoneId))
    const count = yield* stored(Repo.countRules(s.sql, s.zoneId))
    if (count + items.length <= quota.rules) {
      return Either.right((yield* stored(Repo.insertRules(s.sql, s.zoneId, items, s.now))).map(toRule))
    }
    const created = yield* stored(
      Repo.insertFilters(
        s.sql,
        s.zoneId,
        items.flatMap((r) => (r.filter.kind === "new" ? [r.filter.filter] : [])),
        s.now
      )
    )
    const orphans = created.map((f) => f.id)
    // Only what this request created is named: a client that made a filter in an earlier call
    // (the two-step flow) says so itself, and "no filter was created" would contradict it.
    const plural = orphans.length > 1
    const left =
      orphans.length === 0
        ? ""
        : `; filter${plural ? "s" : ""} ${orphans.join(", ")} ${plural ? "were" : "was"} created without ${plural ? "their rules" : "its rule"}: reference ${plural ? "them" : "it"} with filter.id once there is room, or delete ${plural ? "them" : "it"}`
    return Either.left(
      new QuotaExceeded({
        message: `firewall rule quota exceeded: the ${quota.plan} plan allows ${quota.rules} rules per zone, the zone has ${count} and the request adds ${items.length}${left}`,
        ...(orphans.length > 0 ? { filterId: orphans[0]! } : {}),
        meta: {
          quota: quota.rules,
          plan: quota.plan,
          rules: count,
          ...(orphans.length > 0 ? { filter_ids: orphans } : {})
        }
      })
    )
  })

/** A rule named by a body exists in the zone. */
const ruleExists = (s: Scope, id: string, index: number, many: boolean) =>
  Effect.flatMap(stored(Repo.getRule(s.sql, s.zoneId, id)), (found) =>
    found ? Effect.void : Effect.fail(missing(s, "rule", id, index, many))
  )

const applyRuleUpdates = (s: Scope, items: ReadonlyArray<RuleUpdate>, many: boolean) =>
  transaction(
    s,
    Effect.gen(function* () {
      for (const [i, r] of items.entries()) {
        yield* ruleExists(s, r.id, i, many)
        yield* namedFilter(s, r.filter.id, r.filter.given, at(i, many))
      }
      const rows = yield* stored(
        Repo.updateRules(
          s.sql,
          s.zoneId,
          items.map((r) => ({ ...r, filter_id: r.filter.id })),
          s.now
        )
      )
      return rows.map(toRule)
    })
  )

export const updateRules = (s: Scope, body: unknown): Effect.Effect<Array<Rule>, Refusal> =>
  Effect.flatMap(bodyOf(readRuleUpdates(body)), (items) => applyRuleUpdates(s, items, true))

export const updateRule = (s: Scope, id: string, body: unknown): Effect.Effect<Rule, Refusal> =>
  Effect.flatMap(bodyOf(readRuleUpdate(body, id)), (item) =>
    Effect.map(applyRuleUpdates(s, [item], false), (rules) => rules[0]!)
  )

const applyPriorities = (s: Scope, items: ReadonlyArray<PriorityChange>, many: boolean) =>
  transaction(
    s,
    Effect.forEach(items, (r, i) => ruleExists(s, r.id, i, many), { discard: true }).pipe(
      Effect.zipRight(stored(Repo.setPriorities(s.sql, s.zoneId, items, s.now))),
      Effect.map((rows) => rows.map(toRule))
    )
  )

export const patchRules = (s: Scope, body: unknown): Effect.Effect<Array<Rule>, Refusal> =>
  Effect.flatMap(bodyOf(readPriorityChanges(body)), (items) => applyPriorities(s, items, true))

export const patchRule = (s: Scope, id: string, body: unknown): Effect.Effect<Array<Rule>, Refusal> =>
  Effect.flatMap(bodyOf(readPriorityChange(body, id)), (item) => applyPriorities(s, [item], false))

export const getRule = (s: Scope, id: string): Effect.Effect<Rule, NotFound> =>
  Effect.flatMap(stored(Repo.getRule(s.sql, s.zoneId, id)), (r) =>
    r ? Effect.succeed(toRule(r)) : Effect.fail(notFound(s.zoneId, "firewall/rules", id))
  )

/** Deletes rules; their filters stay. */
export const deleteRules = (s: Scope, ids: ReadonlyArray<string>): Effect.Effect<Array<Deleted>> =>
  Effect.map(transaction(s, stored(Repo.deleteRules(s.sql, s.zoneId, ids))), (deleted) => deleted.map((id) => ({ id })))

/**
 * DELETE one rule; with `deleteFilterIfUnused`, its filter goes too when no other rule of the zone
 * uses it (one transaction). The answer names the rule, as the platform's does.
 */
export const deleteRule = (
  s: Scope,
  id: string,
  options: { readonly deleteFilterIfUnused?: boolean } = {}
): Effect.Effect<Array<Deleted>, NotFound> =>
  Effect.flatMap(
    transaction(s, stored(Repo.deleteRule(s.sql, s.zoneId, id, options.deleteFilterIfUnused === true))),
    (deleted) => (deleted ? Effect.succeed([{ id }]) : Effect.fail(notFound(s.zoneId, "firewall/rules", id)))
  )
