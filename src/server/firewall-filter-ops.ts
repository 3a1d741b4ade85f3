/**
 * What the filters endpoints do (area C): each checks (firewall-checks.ts), has the store write
 * (src/store/firewall-repo.ts) and shapes the answer (firewall-answers.ts); it fails with the
 * refusal, and writes only when nothing is refused, in one transaction.
 */
import * as Effect from "effect/Effect"
import type { Deleted, Filter } from "../domain/firewall.js"
import type { NotFound } from "../domain/errors.js"
import { readFilterCreates, readFilterUpdate, readFilterUpdates, type FilterUpdate } from "../firewall/body.js"
import * as Repo from "../store/firewall-repo.js"
import { notFound, toFilter } from "./firewall-answers.js"
import {
  bodyOf,
  checkExpressions,
  missing,
  stored,
  transaction,
  type FilterRefusal,
  type Scope
} from "./firewall-checks.js"

export const createFilters = (s: Scope, body: unknown): Effect.Effect<Array<Filter>, FilterRefusal> =>
  Effect.flatMap(bodyOf(readFilterCreates(body)), (items) =>
    checkExpressions(
      s,
      items.map((f, index) => ({ expression: f.expression, index, field: "expression" })),
      true,
      Effect.map(stored(Repo.insertFilters(s.sql, s.zoneId, items, s.now)), (rows) => rows.map(toFilter))
    )
  )

/** Every filter to update exists (checked again after the slices: another request may delete one). */
const filtersExist = (s: Scope, items: ReadonlyArray<FilterUpdate>, many: boolean) =>
  Effect.forEach(
    items,
    (f, i) =>
      Effect.flatMap(stored(Repo.getFilter(s.sql, s.zoneId, f.id)), (found) =>
        found ? Effect.void : Effect.fail(missing(s, "filter", f.id, i, many))
      ),
    { discard: true }
  )

const applyFilterUpdates = (
  s: Scope,
  items: ReadonlyArray<FilterUpdate>,
  many: boolean
): Effect.Effect<Array<Filter>, FilterRefusal> =>
  Effect.zipRight(
    filtersExist(s, items, many),
    checkExpressions(
      s,
      items.map((f, index) => ({ expression: f.expression, index, field: "expression" })),
      many,
      filtersExist(s, items, many).pipe(
        Effect.zipRight(stored(Repo.updateFilters(s.sql, s.zoneId, items, s.now))),
        Effect.map((rows) => rows.map(toFilter))
      ),
      new Set(items.map((f) => f.id))
    )
  )

export const updateFilters = (s: Scope, body: unknown): Effect.Effect<Array<Filter>, FilterRefusal> =>
  Effect.flatMap(bodyOf(readFilterUpdates(body)), (items) => applyFilterUpdates(s, items, true))

export const updateFilter = (s: Scope, id: string, body: unknown): Effect.Effect<Filter, FilterRefusal> =>
  Effect.flatMap(bodyOf(readFilterUpdate(body, id)), (item) =>
    Effect.map(applyFilterUpdates(s, [item], false), (filters) => filters[0]!)
  )

export const getFilter = (s: Scope, id: string): Effect.Effect<Filter, NotFound> =>
  Effect.flatMap(stored(Repo.getFilter(s.sql, s.zoneId, id)), (f) =>
    f ? Effect.succeed(toFilter(f)) : Effect.fail(notFound(s.zoneId, "filters", id))
  )

export const deleteFilters = (s: Scope, ids: ReadonlyArray<string>): Effect.Effect<Array<Deleted>> =>
  Effect.map(transaction(s, stored(Repo.deleteFilters(s.sql, s.zoneId, ids))), (deleted) =>
    deleted.map((id) => ({ id }))
  )

export const deleteFilter = (s: Scope, id: string): Effect.Effect<Array<Deleted>, NotFound> =>
  Effect.flatMap(deleteFilters(s, [id]), (deleted) =>
    deleted.length === 0 ? Effect.fail(notFound(s.zoneId, "filters", id)) : Effect.succeed(deleted)
  )
