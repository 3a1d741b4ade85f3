/**
 * A list paged from the API as the cursor moves: page 1 when the inputs change, the pages up to a
 * row when the screen asks for it (the cursor nears the end, or jumps to the end), never everything
 * up front. A refresh reloads the pages already read, so a cursor deep in the list finds its row again.
 */
import * as Effect from "effect/Effect"
import { useCallback, useEffect, useRef, useState, type DependencyList } from "react"
import type { Page } from "../src/domain/envelope.js"
import type { UiError } from "./errors.js"
import { runEffect, useRuntime, type Services } from "./runtime.js"

export interface PagedList<A> {
  readonly items: ReadonlyArray<A>
  /** `total_count` of the last page read; undefined before the first page. */
  readonly total: number | undefined
  readonly loading: boolean
  /** Reloading the pages read after `refresh`, the old rows still shown. */
  readonly refreshing: boolean
  readonly error: UiError | undefined
  readonly hasMore: boolean
  /** Loads the next page. */
  readonly loadMore: () => void
  /** Loads every page up to the one holding row `index` (Infinity: to the end). */
  readonly loadTo: (index: number) => void
  readonly refresh: () => void
}

interface State<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number | undefined
  readonly perPage: number | undefined
  readonly next: number | undefined
  readonly loading: boolean
  readonly refreshing: boolean
  readonly error: UiError | undefined
}

const initial = {
  items: [],
  total: undefined,
  perPage: undefined,
  next: 1,
  loading: true,
  refreshing: false,
  error: undefined
}
/** Pages fetched at once, and per round before the rows are shown (a far jump shows its progress). */
const Concurrency = 4
const PagesPerRound = 12

export function usePagedList<A, E>(
  fetchPage: (page: number) => Effect.Effect<Page<A>, E, Services>,
  deps: DependencyList
): PagedList<A> {
  const runtime = useRuntime()
  const [state, setState] = useState<State<A>>(initial)
  const [generation, setGeneration] = useState(0)
  const fetchRef = useRef(fetchPage)
  fetchRef.current = fetchPage
  // The pump reads the latest state between renders (a key burst asks several times in one tick).
  const stateRef = useRef<State<A>>(state)
  const controller = useRef<AbortController | undefined>(undefined)
  const inFlight = useRef(false)
  const keepRows = useRef(false)
  /** The highest row the screen asked for. */
  const want = useRef(-1)

  const set = useCallback((f: (s: State<A>) => State<A>) => {
    stateRef.current = f(stateRef.current)
    setState(stateRef.current)
  }, [])

  const fetchPages = useCallback(
    (first: number, last: number, replace: boolean) => {
      controller.current?.abort()
      const c = new AbortController()
      controller.current = c
      inFlight.current = true
      set((s) => ({ ...(first === 1 && !replace ? initial : s), loading: true, refreshing: replace, error: undefined }))
      const fetch = fetchRef.current
      const pages = Array.from({ length: last - first + 1 }, (_, i) => first + i)
      const all = Effect.forEach(pages, (p) => Effect.suspend(() => fetch(p)), { concurrency: Concurrency })
      void runEffect(runtime, all, c.signal).then((r) => {
        if (r === undefined) return
        inFlight.current = false
        if (!r.ok) return set((s) => ({ ...s, loading: false, refreshing: false, error: r.error }))
        const items = r.value.flatMap((p) => p.items)
        const info = r.value[r.value.length - 1]!.info
        const lastItems = r.value[r.value.length - 1]!.items
        const done = lastItems.length === 0 || last * info.per_page >= info.total_count
        set((s) => ({
          items: first === 1 ? items : [...s.items, ...items],
          total: info.total_count,
          perPage: info.per_page,
          next: done ? undefined : last + 1,
          loading: false,
          refreshing: false,
          error: undefined
        }))
        pumpRef.current()
      })
    },
    [runtime, set]
  )

  /** Fetches the next pages towards `want`, a round at a time. */
  const pump = useCallback(() => {
    const s = stateRef.current
    if (inFlight.current || s.next === undefined || s.error !== undefined || s.items.length > want.current) return
    if (s.perPage === undefined || s.total === undefined) return fetchPages(s.next, s.next, false)
    const pagesInAll = Math.max(1, Math.ceil(s.total / s.perPage))
    const needed = Math.min(pagesInAll, Math.floor(Math.min(want.current, s.total - 1) / s.perPage) + 1)
    fetchPages(s.next, Math.min(Math.max(needed, s.next), s.next + PagesPerRound - 1), false)
  }, [fetchPages])
  const pumpRef = useRef(pump)
  pumpRef.current = pump

  useEffect(() => {
    const s = stateRef.current
    const keep = keepRows.current && s.perPage !== undefined && s.items.length > 0
    keepRows.current = false
    want.current = -1
    // A refresh reads again every page that was read, and swaps the rows at once.
    fetchPages(1, keep ? Math.max(1, Math.ceil(s.items.length / s.perPage!)) : 1, keep)
    return () => {
      controller.current?.abort()
      inFlight.current = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps stand for what fetchPage reads
  }, [fetchPages, generation, ...deps])

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
