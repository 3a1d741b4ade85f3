/**
 * The readers of paged lists: each page as it comes, every item, the first item that fits (page
 * numbers, up to an empty page or `total_count`), and every item of a cursor list. The pages come
 * from any fetch, a `callPage` of the client most often.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Page } from "../domain/envelope.js"

/** Whether `p`, page number `page` of a page-based list, is its last: empty, or `total_count` reached. */
const lastPage = (page: number, p: Page<unknown>) =>
  p.items.length === 0 || page * p.info.per_page >= p.info.total_count

// Lists are read with plain loops over their pages rather than effect's Stream (paginateEffect,
// mapConcat, runCollect): the same requests in the same order, and the Stream machinery's cold
// code was ~45 M instructions of a cold `zones list` (~5% of the command).

/**
 * Each page of a page-based list handed to `onPage` as it arrives (a `--json` list printed as it is
 * read, in bounded memory): pages fetched in turn until an empty page or `total_count` is reached,
 * or until `onPage` answers `false` (its reader is gone: nothing more to fetch).
 */
export const eachPage = <A, E, R>(
  fetchPage: (page: number) => Effect.Effect<Page<A>, E, R>,
  onPage: (items: ReadonlyArray<A>) => boolean | void
): Effect.Effect<void, E, R> =>
  Effect.gen(function* () {
    for (let page = 1; ; page++) {
      const p = yield* fetchPage(page)
      if (onPage(p.items) === false || lastPage(page, p)) return
    }
  })

/** Every item of a page-based list: pages fetched in turn until an empty page or `total_count` is reached. */
export const collectPages = <A, E, R>(
  fetchPage: (page: number) => Effect.Effect<Page<A>, E, R>
): Effect.Effect<Array<A>, E, R> =>
  // Suspended: each run of the effect collects into an array of its own.
  Effect.suspend(() => {
    const items: Array<A> = []
    return Effect.as(
      eachPage(fetchPage, (page) => {
        for (const item of page) items.push(item)
      }),
      items
    )
  })

/** The first item of a page-based list that `found` accepts; pages after it are not fetched. */
export const findInPages = <A, E, R>(
  fetchPage: (page: number) => Effect.Effect<Page<A>, E, R>,
  found: (item: A) => boolean
): Effect.Effect<Option.Option<A>, E, R> =>
  Effect.gen(function* () {
    for (let page = 1; ; page++) {
      const p = yield* fetchPage(page)
      const item = p.items.find(found)
      if (item !== undefined) return Option.some(item)
      if (lastPage(page, p)) return Option.none()
    }
  })

/** Every item of a cursor list, following the cursor until it comes back empty. */
export const collectCursor = <A, E, R>(
  fetchPage: (cursor: string | undefined) => Effect.Effect<{ items: ReadonlyArray<A>; cursor: string }, E, R>
): Effect.Effect<Array<A>, E, R> =>
  Effect.gen(function* () {
    const items: Array<A> = []
    for (let cursor: string | undefined = undefined; ;) {
      const p: { items: ReadonlyArray<A>; cursor: string } = yield* fetchPage(cursor)
      for (const item of p.items) items.push(item)
      if (p.cursor === "") return items
      cursor = p.cursor
    }
  })
