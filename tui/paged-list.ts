/**
 * A list read from the API a page at a time as the cursor moves: the first page when the inputs
 * change, more when the screen asks for a row (the cursor nears the end, or jumps to the end), never
 * everything up front. Pages are addressed by number (zones, DNS records: several fetched at once,
 * and a refresh reads again every page read, so a cursor deep in the list finds its row again) or
 * by the cursor the last page returned (KV keys: one after the other, and a refresh reads page 1).
 */
import * as Effect from "effect/Effect"
import { useCallback, useEffect, useRef, useState, type DependencyList } from "react"
import type { Page } from "../src/domain/envelope.js"
import type { UiError } from "./errors.js"
import { runEffect, useRuntime, type Services } from "./runtime.js"

export interface PagedList<A> {
  readonly items: ReadonlyArray<A>
  /** `total_count` of the last page read (pages by number); undefined before the first page. */
  readonly total: number | undefined
  readonly loading: boolean
  /** Reloading after `refresh`, the old rows still shown. */
  readonly refreshing: boolean
  readonly error: UiError | undefined
  readonly hasMore: boolean
  /** Loads the next page. */
  readonly loadMore: () => void
  /** Loads every page up to the one holding row `index` (Infinity: to the end). */
  readonly loadTo: (index: number) => void
  readonly refresh: () => void
}

interface State<A, P> {
  readonly items: ReadonlyArray<A>
  readonly total: number | undefined
  readonly perPage: number | undefined
  /** Where the next page starts; undefined when there is none. */
  readonly next: P | undefined
  readonly loading: boolean
  readonly refreshing: boolean
  readonly error: UiError | undefined
}

/** What one round of reading brought. */
interface Batch<A, P> {
  readonly items: ReadonlyArray<A>
  readonly next: P | undefined
  readonly total?: number
  readonly perPage?: number
}

type Read<A, P> = Effect.Effect<Batch<A, P>, unknown, Services>

/** How a list's pages are addressed, read by the one loader below. */
interface Pager<A, P> {
  /** `next` before the first answer (hasMore shows it). */
  readonly start: P | undefined
  /** The first round: whether it keeps the rows read (a refresh asked for `keep`) and what it reads. */
  readonly first: (s: State<A, P>, keep: boolean) => { readonly keep: boolean; readonly read: Read<A, P> }
  /** The round after `s` towards row `want` (`s.next` is defined). */
  readonly more: (s: State<A, P>, want: number) => Read<A, P>
}

const initial = <A, P>(start: P | undefined): State<A, P> => ({
  items: [],
  total: undefined,
  perPage: undefined,
  next: start,
  loading: true,
  refreshing: false,
  error: undefined
})

function useLoadedList<A, P>(pager: Pager<A, P>, deps: DependencyList): PagedList<A> {
  const runtime = useRuntime()
  const [state, setState] = useState<State<A, P>>(() => initial(pager.start))
  const [generation, setGeneration] = useState(0)
  const pagerRef = useRef(pager)
  pagerRef.current = pager
  // The loader reads the latest state between renders (a key burst asks several times in one tick).
  const stateRef = useRef<State<A, P>>(state)
  const controller = useRef<AbortController | undefined>(undefined)
  const inFlight = useRef(false)
  const keepRows = useRef(false)
  /** The highest row the screen asked for. */
  const want = useRef(-1)

  const set = useCallback((f: (s: State<A, P>) => State<A, P>) => {
    stateRef.current = f(stateRef.current)
    setState(stateRef.current)
  }, [])

  /** One round: `reset` starts from no rows, `keep` shows the old ones until the answer replaces them. */
  const run = useCallback(
    (read: Read<A, P>, mode: "first" | "refresh" | "more") => {
      controller.current?.abort()
      const c = new AbortController()
      controller.current = c
      inFlight.current = true
      set((s) => ({
        ...(mode === "first" ? initial<A, P>(pagerRef.current.start) : s),
        loading: true,
        refreshing: mode === "refresh",
        error: undefined
      }))
      void runEffect(runtime, read, c.signal).then((r) => {
        if (r === undefined) return
        inFlight.current = false
        if (!r.ok) return set((s) => ({ ...s, loading: false, refreshing: false, error: r.error }))
        const batch = r.value
        set((s) => ({
          items: mode === "more" ? [...s.items, ...batch.items] : batch.items,
          total: batch.total,
          perPage: batch.perPage,
          next: batch.next,
          loading: false,
          refreshing: false,
          error: undefined
        }))
        pumpRef.current()
      })
    },
    [runtime, set]
  )

  /** Reads on towards `want`, a round at a time. */
  const pump = useCallback(() => {
    const s = stateRef.current
    if (inFlight.current || s.next === undefined || s.error !== undefined || s.items.length > want.current) return
    run(pagerRef.current.more(s, want.current), "more")
  }, [run])
  const pumpRef = useRef(pump)
  pumpRef.current = pump

  useEffect(() => {
    const first = pagerRef.current.first(stateRef.current, keepRows.current)
    keepRows.current = false
    want.current = -1
    run(first.read, first.keep ? "refresh" : "first")
    return () => {
      controller.current?.abort()
      inFlight.current = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps stand for what its fetch reads
  }, [run, generation, ...deps])

  const loadTo = useCallback((index: number) => {
    want.current = Math.max(want.current, index)
    pumpRef.current()
  }, [])
  const loadMore = useCallback(() => loadTo(stateRef.current.items.length), [loadTo])

  return {
    items: state.items,
    total: state.total,
    loading: state.loading,
    refreshing: state.refreshing,
    error: state.error,
    hasMore: state.next !== undefined,
    loadMore,
    loadTo,
    refresh: useCallback(() => {
      keepRows.current = true
      setGeneration((g) => g + 1)
    }, [])
  }
}

/** Pages fetched at once, and per round before the rows are shown (a far jump shows its progress). */
const Concurrency = 4
const PagesPerRound = 12

/** A list paged by number (`page=N`). */
export function usePagedList<A, E>(
  fetchPage: (page: number) => Effect.Effect<Page<A>, E, Services>,
  deps: DependencyList
): PagedList<A> {
  const pages = (first: number, last: number): Read<A, number> =>
    Effect.map(
      Effect.forEach(
        Array.from({ length: last - first + 1 }, (_, i) => first + i),
        (p) => Effect.suspend(() => fetchPage(p)),
        { concurrency: Concurrency }
      ),
      (read) => {
        const info = read[read.length - 1]!.info
        const done = read[read.length - 1]!.items.length === 0 || last * info.per_page >= info.total_count
        return {
          items: read.flatMap((p) => p.items),
          next: done ? undefined : last + 1,
          total: info.total_count,
          perPage: info.per_page
        }
      }
    )
  return useLoadedList<A, number>(
    {
      start: 1,
      first: (s, keep) => {
        // A refresh reads again every page that was read, and swaps the rows at once.
        const kept = keep && s.perPage !== undefined && s.items.length > 0
        return { keep: kept, read: pages(1, kept ? Math.max(1, Math.ceil(s.items.length / s.perPage!)) : 1) }
      },
      more: (s, want) => {
        const next = s.next!
        if (s.perPage === undefined || s.total === undefined) return pages(next, next)
        const pagesInAll = Math.max(1, Math.ceil(s.total / s.perPage))
        const needed = Math.min(pagesInAll, Math.floor(Math.min(want, s.total - 1) / s.perPage) + 1)
        return pages(next, Math.min(Math.max(needed, next), next + PagesPerRound - 1))
      }
    },
    deps
  )
}

/** A list paged by the cursor each page returns (`cursor=…`; "" after the last page). */
export function useCursorList<A, E>(
  fetchPage: (
    cursor: string | undefined
  ) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly cursor: string }, E, Services>,
  deps: DependencyList
): PagedList<A> {
  const page = (cursor: string | undefined): Read<A, string> =>
    Effect.map(
      Effect.suspend(() => fetchPage(cursor)),
      (r) => ({ items: r.items, next: r.cursor === "" ? undefined : r.cursor })
    )
  return useLoadedList<A, string>(
    { start: undefined, first: (_s, keep) => ({ keep, read: page(undefined) }), more: (s) => page(s.next) },
    deps
  )
}
