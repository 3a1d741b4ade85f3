/**
 * The checks of the filters and firewall-rules writes (area C), before anything is written: bodies
 * (src/firewall/body.ts), expressions (src/rules, in slices: expression-slices.ts), duplicates and
 * references in the zone. The expressions are checked in slices that let other requests in; the
 * store's checks, re-checks and the write that follows them run in one client transaction
 * (`transaction`), which never yields, so nothing another request writes meanwhile slips between a
 * check and the write.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import {
  DuplicateFilter,
  InvalidInput,
  type InvalidExpression,
  type NotFound,
  type QuotaExceeded
} from "../domain/errors.js"
import { problemsMessage, type FilterFields, type Read } from "../firewall/body.js"
import * as Repo from "../store/firewall-repo.js"
import type { FilterRow } from "../store/firewall-rows.js"
import type { StoreError } from "../store/store-error.js"
import { notFound } from "./firewall-answers.js"
import { firstInvalidExpression, type ExpressionAt } from "./expression-slices.js"

/** What an operation can refuse: the errors the contract declares on the firewall's endpoints. */
export type Refusal = InvalidInput | DuplicateFilter | InvalidExpression | NotFound | QuotaExceeded
/** What a filter write can refuse (no quota: the platform counts rules). */
export type FilterRefusal = Exclude<Refusal, QuotaExceeded>

export interface Scope {
  /** The store's client, for the checks and the writes. */
  readonly sql: SqlClient
  /** The store's handle, for the paged listings (src/store/firewall-listings.ts). */
  readonly db: Database.Database
  readonly zoneId: string
  /** The platform clock's now, as stored timestamps. */
  readonly now: string
}

/** A store query; a store that fails it is the platform's fault (500), as when its queries threw. */
export const stored = <A>(query: Effect.Effect<A, StoreError>) => Effect.orDie(query)

/** A request's checks and writes as one store transaction: a refusal leaves nothing written. */
export const transaction = <A, E>(s: Scope, body: Effect.Effect<A, E>) =>
  s.sql.withTransaction(body).pipe(Effect.catchTag("SqlError", Effect.die))

export const bodyOf = <A>(read: Read<A>): Effect.Effect<A, InvalidInput> =>
  Either.mapLeft(read, (problems) => new InvalidInput({ message: problemsMessage(problems), meta: { problems } }))

/** Where an element is, in a message about a body that held several. */
export const at = (index: number, many: boolean) => (many ? `[${index}].` : "")

/** An element's id that names nothing in the zone: a bad body for several, not found for one. */
export const missing = (s: Scope, what: "filter" | "rule", id: string, index: number, many: boolean) =>
  many
    ? new InvalidInput({ message: `invalid request body: [${index}].id: no ${what} ${id} in this zone` })
    : notFound(s.zoneId, what === "filter" ? "filters" : "firewall/rules", id)

/**
 * Expressions check (in slices), are not another filter's in the zone (filters of the same update
 * excepted), and are not repeated in the body. `then` (re-checks and the write) runs right after
 * the store's checks, in the same transaction.
 */
export const checkExpressions = <A, E>(
  s: Scope,
  items: ReadonlyArray<ExpressionAt>,
  many: boolean,
  then: Effect.Effect<A, E>,
  updating: ReadonlySet<string> = new Set()
): Effect.Effect<A, E | FilterRefusal> =>
  Effect.gen(function* () {
    const { plan } = yield* stored(Repo.ruleQuota(s.sql, s.zoneId))
    const invalid = yield* firstInvalidExpression(plan, items, many)
    if (invalid) return yield* Effect.fail(invalid)
    return yield* transaction(s, Effect.zipRight(unique(s, items, many, updating), then))
  })

const unique = (
  s: Scope,
  items: ReadonlyArray<ExpressionAt>,
  many: boolean,
  updating: ReadonlySet<string>
): Effect.Effect<void, FilterRefusal> =>
  Effect.gen(function* () {
    const seen = new Map<string, number>()
    const existingIds = yield* stored(
      Repo.filterIdsByExpression(
        s.sql,
        s.zoneId,
        items.map((it) => it.expression)
      )
    )
    for (const it of items) {
      const existing = existingIds.get(it.expression)
      // A filter of the same call gets its new expression in the same transaction (two may swap).
      if (existing !== undefined && !updating.has(existing)) {
        return yield* new DuplicateFilter({
          message: `config duplicates an already existing config: ${at(it.index, many)}${it.field} is the expression of filter ${existing}`,
          existingId: existing
        })
      }
      const before = seen.get(it.expression)
      if (before !== undefined) {
        return yield* new InvalidInput({
          message: `invalid request body: [${it.index}].${it.field} repeats the expression of [${before}]`
        })
      }
      seen.set(it.expression, it.index)
    }
  })

/**
 * A filter a rule names by id exists in the zone, and the filter fields the body sent with it are
 * the filter's own (a filter is not changed through the rules route).
 */
export const namedFilter = (
  s: Scope,
  id: string,
  given: Partial<FilterFields>,
  where: string
): Effect.Effect<FilterRow, InvalidInput> =>
  Effect.flatMap(stored(Repo.getFilter(s.sql, s.zoneId, id)), (stored) => {
    if (stored === undefined)
      return new InvalidInput({ message: `invalid request body: ${where}filter.id: no filter ${id} in this zone` })
    const changed = (Object.keys(given) as Array<keyof FilterFields>).find((k) => given[k] !== stored[k])
    if (changed === undefined) return Effect.succeed(stored)
    return new InvalidInput({
      message: `${where}filter.${changed}: a filter cannot be changed through the firewall rules route; change filter ${stored.id} with PUT /zones/{zone_id}/filters/${stored.id} (edgectl firewall filters update)`
    })
  })
