/**
 * A list paged from the API as the cursor moves: page 1 when the inputs change, the next page when
 * the screen asks for it (the cursor nears the end), never everything up front.
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
  /** Reloading from page 1 after `refresh`, the old rows still shown. */
  readonly refreshing: boolean
  readonly error: UiError | undefined
  readonly hasMore: boolean
  readonly loadMore: () => void
  readonly refresh: () => void
}

interface State<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number | undefined
  readonly next: number | undefined
  readonly loading: boolean
  readonly refreshing: boolean
  readonly error: UiError | undefined
}

const initial = { items: [], total: undefined, next: 1, loading: true, refreshing: false, error: undefined }

export function usePagedList<A, E>(
  fetchPage: (page: number) => Effect.Effect<Page<A>, E, Services>,
  deps: DependencyList
): PagedList<A> {
  const runtime = useRuntime()
  const [state, setState] = useState<State<A>>(initial)
  const [generation, setGeneration] = useState(0)
  const fetchRef = useRef(fetchPage)
  fetchRef.current = fetchPage
  const controller = useRef<AbortController | undefined>(undefined)
  const inFlight = useRef(false)
  const keepRows = useRef(false)

  const load = useCallback(
    (page: number, keep: boolean) => {
      controller.current?.abort()
      const c = new AbortController()
      controller.current = c
      inFlight.current = true
      setState((s) => ({ ...(page === 1 && !keep ? initial : s), loading: true, refreshing: keep, error: undefined }))
      const fetch = fetchRef.current
      void runEffect(runtime, Effect.suspend(() => fetch(page)), c.signal).then((r) => {
        if (r === undefined) return
        inFlight.current = false
        if (!r.ok) return setState((s) => ({ ...s, loading: false, refreshing: false, error: r.error }))
        const { items, info } = r.value
        const done = items.length === 0 || page * info.per_page >= info.total_count
        setState((s) => ({
          items: page === 1 ? items : [...s.items, ...items],
          total: info.total_count,
          next: done ? undefined : page + 1,
          loading: false,
          refreshing: false,
          error: undefined
        }))
      })
    },
    [runtime]
  )

  useEffect(() => {
    load(1, keepRows.current)
    keepRows.current = false
    return () => {
      controller.current?.abort()
      inFlight.current = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load, generation, ...deps])

  const loadMore = useCallback(() => {
    if (inFlight.current || state.next === undefined || state.error !== undefined) return
    load(state.next, false)
  }, [load, state.next, state.error])

  return {
    items: state.items,
    total: state.total,
    loading: state.loading,
    refreshing: state.refreshing,
    error: state.error,
    hasMore: state.next !== undefined,
    loadMore,
    refresh: useCallback(() => {
      keepRows.current = true
      setGeneration((g) => g + 1)
    }, [])
  }
}
