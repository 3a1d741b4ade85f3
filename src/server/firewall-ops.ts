/**
 * What the filters and firewall-rules endpoints do to the store, with every check first: bodies,
 * expressions (src/rules), duplicates, references, the quota. Synchronous over the store; each
 * operation returns its result or the refusal, and writes only when nothing is refused, in one
 * transaction — except the spec's quota case, where the combined call keeps the filters it created
 * and answers QuotaExceeded naming them. The operations that check expressions are effects: the
 * expressions are checked in slices (expression-slices.ts) that let other requests in, and
 * everything after the last slice (the store's checks, re-checks and the transaction) runs in one
 * synchronous stretch, so nothing another request writes meanwhile slips between a check and the write.
 */
import * as Either from "effect/Either"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import { DuplicateFilter, InvalidInput, NotFound, QuotaExceeded, type InvalidExpression } from "../domain/errors.js"
import { firstInvalidExpression, type ExpressionAt } from "./expression-slices.js"
import type { Deleted, DeletedFilter, Filter, Rule } from "../domain/firewall.js"
import * as Repo from "../store/firewall-repo.js"
import {
  problemsMessage,
  readFilterCreates,
  readFilterUpdate,
  readFilterUpdates,
  readPriorityChange,
  readPriorityChanges,
  readRuleCreates,
  readRuleUpdate,
  readRuleUpdates,
  type FilterFields,
  type Read,
  type RuleCreate,
  type RuleUpdate
} from "../firewall/body.js"

/** What an operation can refuse: the errors the contract declares on the firewall's endpoints. */
export type Refusal = InvalidInput | DuplicateFilter | InvalidExpression | NotFound | QuotaExceeded
/** What a filter write can refuse (no quota: the platform counts rules). */
export type FilterRefusal = Exclude<Refusal, QuotaExceeded>

export type Outcome<A, E extends Refusal = Refusal> =
  { readonly ok: true; readonly value: A } | { readonly ok: false; readonly error: E }

const ok = <A>(value: A): Outcome<A, never> => ({ ok: true, value })
const refuse = <E extends Refusal>(error: E): Outcome<never, E> => ({ ok: false, error })

export interface Scope {
  readonly db: Database.Database
  readonly zoneId: string
  /** The platform clock's now, as stored timestamps. */
  readonly now: string
}

// ---- wire shapes ----

export const toFilter = (f: Repo.FilterRow): Filter => ({
  id: f.id,
  paused: f.paused,
  expression: f.expression,
  ...(f.description !== null ? { description: f.description } : {}),
  ...(f.ref !== null ? { ref: f.ref } : {})
})

export const toRule = (r: Repo.RuleRow): Rule => ({
  id: r.id,
  paused: r.paused,
  ...(r.description !== null ? { description: r.description } : {}),
  action: r.action,
  priority: r.priority,
  ...(r.products !== null ? { products: r.products } : {}),
  ...(r.ref !== null ? { ref: r.ref } : {}),
  filter: r.filter === null ? ({ id: r.filter_id, deleted: true } satisfies DeletedFilter) : toFilter(r.filter)
})

// ---- checks ----

const bodyOk = <A>(read: Read<A>): Outcome<A, InvalidInput> =>
  Either.isRight(read)
    ? ok(read.right)
    : refuse(new InvalidInput({ message: problemsMessage(read.left), meta: { problems: read.left } }))

const at = (index: number, many: boolean) => (many ? `[${index}].` : "")

type Expressions = ReadonlyArray<ExpressionAt>

/**
 * Expressions check (in slices), are not another filter's in the zone (filters of the same update
 * excepted), and are not repeated in the body. `then` runs right after the store's checks, in the
 * same synchronous stretch: re-checks and the write.
 */
const checkExpressions = <A, E extends Refusal>(
  s: Scope,
  items: Expressions,
  many: boolean,
  then: () => Outcome<A, E>,
  updating: ReadonlySet<string> = new Set()
): Effect.Effect<Outcome<A, E | FilterRefusal>> =>
  Effect.map(firstInvalidExpression(Repo.ruleQuota(s.db, s.zoneId).plan, items, many), (invalid) => {
    if (invalid) return refuse(invalid)
    const unique = storeUnique(s, items, many, updating)
    return unique.ok ? then() : unique
  })

const storeUnique = (
  s: Scope,
  items: Expressions,
  many: boolean,
  updating: ReadonlySet<string>
): Outcome<void, FilterRefusal> => {
  const seen = new Map<string, number>()
  for (const it of items) {
    const existing = Repo.findFilterByExpression(s.db, s.zoneId, it.expression)
    // A filter of the same call gets its new expression in the same transaction (two may swap).
    if (existing && !updating.has(existing.id)) {
      return refuse(
        new DuplicateFilter({
          message: `config duplicates an already existing config: ${at(it.index, many)}${it.field} is the expression of filter ${existing.id}`,
          existingId: existing.id
        })
      )
    }
    const before = seen.get(it.expression)
    if (before !== undefined) {
      return refuse(
        new InvalidInput({
          message: `invalid request body: [${it.index}].${it.field} repeats the expression of [${before}]`
        })
      )
    }
    seen.set(it.expression, it.index)
  }
  return ok(undefined)
}

/** Filter fields sent with a filter id through the rules route must be the filter's own. */
const unchangedFilter = (
  stored: Repo.FilterRow,
  given: Partial<FilterFields>,
  where: string
): Outcome<void, InvalidInput> => {
  const changed = (Object.keys(given) as Array<keyof FilterFields>).find((k) => given[k] !== stored[k])
  if (changed === undefined) return ok(undefined)
  return refuse(
    new InvalidInput({
      message: `${where}filter.${changed}: a filter cannot be changed through the firewall rules route; change filter ${stored.id} with PUT /zones/{zone_id}/filters/${stored.id} (edgectl firewall filters update)`
    })
  )
}

const existingFilter = (s: Scope, id: string, where: string): Outcome<Repo.FilterRow, InvalidInput> => {
  const f = Repo.getFilter(s.db, s.zoneId, id)
  return f
    ? ok(f)
    : refuse(new InvalidInput({ message: `invalid request body: ${where}filter.id: no filter ${id} in this zone` }))
}

// ---- filters ----

type Sliced<A, E extends Refusal = Refusal> = Effect.Effect<Outcome<A, E>>

export const createFilters = (s: Scope, body: unknown): Sliced<Array<Filter>, FilterRefusal> => {
  const read = bodyOk(readFilterCreates(body))
  if (!read.ok) return Effect.succeed(read)
  const items = read.value
  return checkExpressions(
    s,
    items.map((f, index) => ({ expression: f.expression, index, field: "expression" })),
    true,
    () =>
      ok(
        s.db
          .transaction(() => Repo.insertFilters(s.db, s.zoneId, items, s.now))()
          .map(toFilter)
      )
  )
}

/** Every filter to update exists (checked again after the slices: another request may delete one). */
const filtersExist = (
  s: Scope,
  items: ReadonlyArray<{ readonly id: string }>,
  many: boolean
): Outcome<void, FilterRefusal> => {
  for (const [i, f] of items.entries()) {
    if (!Repo.getFilter(s.db, s.zoneId, f.id)) {
      return refuse(
        many
          ? new InvalidInput({ message: `invalid request body: [${i}].id: no filter ${f.id} in this zone` })
          : notFound(s, "filters", f.id)
      )
    }
  }
  return ok(undefined)
}

const applyFilterUpdates = (
  s: Scope,
  items: ReadonlyArray<FilterFields & { id: string }>,
  many: boolean
): Sliced<Array<Filter>, FilterRefusal> => {
  const exist = filtersExist(s, items, many)
  if (!exist.ok) return Effect.succeed(exist)
  const updating = new Set(items.map((f) => f.id))
  return checkExpressions(
    s,
    items.map((f, index) => ({ expression: f.expression, index, field: "expression" })),
    many,
    () => {
      const still = filtersExist(s, items, many)
      if (!still.ok) return still
      // Two filters may swap expressions in one call: clear them first so the unique index holds.
      return ok(
        s.db.transaction(() => {
          for (const f of items) Repo.updateFilter(s.db, s.zoneId, { ...f, expression: `\u0000${f.id}` }, s.now)
          return items.map((f) => toFilter(Repo.updateFilter(s.db, s.zoneId, f, s.now)!))
        })()
      )
    },
    updating
  )
}

export const updateFilters = (s: Scope, body: unknown): Sliced<Array<Filter>, FilterRefusal> => {
  const read = bodyOk(readFilterUpdates(body))
  return read.ok ? applyFilterUpdates(s, read.value, true) : Effect.succeed(read)
}

export const updateFilter = (s: Scope, id: string, body: unknown): Sliced<Filter, FilterRefusal> => {
  const read = bodyOk(readFilterUpdate(body, id))
  if (!read.ok) return Effect.succeed(read)
  return Effect.map(applyFilterUpdates(s, [read.value], false), (r) => (r.ok ? ok(r.value[0]!) : r))
}

export const getFilter = (s: Scope, id: string): Outcome<Filter, NotFound> => {
  const f = Repo.getFilter(s.db, s.zoneId, id)
  return f ? ok(toFilter(f)) : refuse(notFound(s, "filters", id))
}

export const deleteFilters = (s: Scope, ids: ReadonlyArray<string>): Array<Deleted> =>
  s.db
    .transaction(() => Repo.deleteFilters(s.db, s.zoneId, ids))()
    .map((id) => ({ id }))

export const deleteFilter = (s: Scope, id: string): Outcome<Array<Deleted>, NotFound> => {
  const deleted = deleteFilters(s, [id])
  return deleted.length === 0 ? refuse(notFound(s, "filters", id)) : ok(deleted)
}

const notFound = (s: Scope, what: "filters" | "firewall/rules", id: string) =>
  new NotFound({
    message: `Could not route to /zones/${s.zoneId}/${what}/${id}, perhaps your object identifier is invalid?`
  })

// ---- rules ----

/**
 * POST /firewall/rules. Everything is checked before anything is written; then, when the zone's
 * quota leaves no room for the rules, the new filters are created alone (the spec's quota case).
 */
export const createRules = (s: Scope, body: unknown): Sliced<Array<Rule>> => {
  const read = bodyOk(readRuleCreates(body))
  if (!read.ok) return Effect.succeed(read)
  const items = read.value
  const many = Array.isArray(body)
  const fresh = items.flatMap((r, index) =>
    r.filter.kind === "new" ? [{ expression: r.filter.filter.expression, index, field: "filter.expression" }] : []
  )
  return checkExpressions(s, fresh, many, () => writeRules(s, items, many))
}

const writeRules = (s: Scope, items: ReadonlyArray<RuleCreate>, many: boolean): Outcome<Array<Rule>> => {
  for (const [i, r] of items.entries()) {
    if (r.filter.kind !== "id") continue
    const f = existingFilter(s, r.filter.id, at(i, many))
    if (!f.ok) return f
    const same = unchangedFilter(f.value, r.filter.given, at(i, many))
    if (!same.ok) return same
  }
  const quota = Repo.ruleQuota(s.db, s.zoneId)
  const count = Repo.countRules(s.db, s.zoneId)
  return s.db.transaction((): Outcome<Array<Rule>> => {
    const filterIds = items.map((r) =>
      r.filter.kind === "id" ? r.filter.id : Repo.insertFilters(s.db, s.zoneId, [r.filter.filter], s.now)[0]!.id
    )
    if (count + items.length > quota.rules) {
      const orphans = filterIds.filter((_, i) => items[i]!.filter.kind === "new")
      // Only what this request created is named: a client that made a filter in an earlier call
      // (the two-step flow) says so itself, and "no filter was created" would contradict it.
      const left =
        orphans.length === 0
          ? ""
          : `; filter${orphans.length > 1 ? "s" : ""} ${orphans.join(", ")} ${orphans.length > 1 ? "were" : "was"} created without ${orphans.length > 1 ? "their rules" : "its rule"}: reference ${orphans.length > 1 ? "them" : "it"} with filter.id once there is room, or delete ${orphans.length > 1 ? "them" : "it"}`
      return refuse(
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
    }
    const rows = Repo.insertRules(
      s.db,
      s.zoneId,
      items.map((r, i) => ({ ...r, filter_id: filterIds[i]! })),
      s.now
    )
    return ok(rows.map(toRule))
  })()
}

const applyRuleUpdates = (s: Scope, items: ReadonlyArray<RuleUpdate>, many: boolean): Outcome<Array<Rule>> => {
  for (const [i, r] of items.entries()) {
    if (!Repo.getRule(s.db, s.zoneId, r.id)) {
      return refuse(
        many
          ? new InvalidInput({ message: `invalid request body: [${i}].id: no rule ${r.id} in this zone` })
          : notFound(s, "firewall/rules", r.id)
      )
    }
    const f = existingFilter(s, r.filter.id, at(i, many))
    if (!f.ok) return f
    const same = unchangedFilter(f.value, r.filter.given, at(i, many))
    if (!same.ok) return same
  }
  return ok(
    s.db.transaction(() =>
      items.map((r) => toRule(Repo.updateRule(s.db, s.zoneId, { ...r, filter_id: r.filter.id }, s.now)!))
    )()
  )
}

export const updateRules = (s: Scope, body: unknown): Outcome<Array<Rule>> => {
  const read = bodyOk(readRuleUpdates(body))
  return read.ok ? applyRuleUpdates(s, read.value, true) : read
}

export const updateRule = (s: Scope, id: string, body: unknown): Outcome<Rule> => {
  const read = bodyOk(readRuleUpdate(body, id))
  if (!read.ok) return read
  const r = applyRuleUpdates(s, [read.value], false)
  return r.ok ? ok(r.value[0]!) : r
}

const applyPriorities = (
  s: Scope,
  items: ReadonlyArray<{ id: string; priority: number | null }>,
  many: boolean
): Outcome<Array<Rule>> => {
  for (const [i, r] of items.entries()) {
    if (!Repo.getRule(s.db, s.zoneId, r.id)) {
      return refuse(
        many
          ? new InvalidInput({ message: `invalid request body: [${i}].id: no rule ${r.id} in this zone` })
          : notFound(s, "firewall/rules", r.id)
      )
    }
  }
  return ok(
    s.db.transaction(() => items.map((r) => toRule(Repo.setRulePriority(s.db, s.zoneId, r.id, r.priority, s.now)!)))()
  )
}

export const patchRules = (s: Scope, body: unknown): Outcome<Array<Rule>> => {
  const read = bodyOk(readPriorityChanges(body))
  return read.ok ? applyPriorities(s, read.value, true) : read
}

export const patchRule = (s: Scope, id: string, body: unknown): Outcome<Array<Rule>> => {
  const read = bodyOk(readPriorityChange(body, id))
  return read.ok ? applyPriorities(s, [read.value], false) : read
}

export const getRule = (s: Scope, id: string): Outcome<Rule, NotFound> => {
  const r = Repo.getRule(s.db, s.zoneId, id)
  return r ? ok(toRule(r)) : refuse(notFound(s, "firewall/rules", id))
}

/** Deletes rules; their filters stay. */
export const deleteRules = (s: Scope, ids: ReadonlyArray<string>): Array<Deleted> =>
  s.db
    .transaction(() => Repo.deleteRules(s.db, s.zoneId, ids))()
    .map((id) => ({ id }))

/**
 * DELETE one rule; with `deleteFilterIfUnused`, its filter goes too when no other rule of the zone
 * uses it (one transaction). The answer names the rule, as the platform's does.
 */
export const deleteRule = (
  s: Scope,
  id: string,
  options: { readonly deleteFilterIfUnused?: boolean } = {}
): Outcome<Array<Deleted>, NotFound> =>
  s.db.transaction((): Outcome<Array<Deleted>, NotFound> => {
    const rule = Repo.getRule(s.db, s.zoneId, id)
    if (rule === undefined || Repo.deleteRules(s.db, s.zoneId, [id]).length === 0)
      return refuse(notFound(s, "firewall/rules", id))
    if (options.deleteFilterIfUnused === true && Repo.filterUses(s.db, s.zoneId, rule.filter_id) === 0) {
      Repo.deleteFilters(s.db, s.zoneId, [rule.filter_id])
    }
    return ok([{ id }])
  })()
