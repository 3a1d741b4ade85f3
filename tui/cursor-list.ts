/**
 * A list paged from the API by cursor (KV keys): the first page when the inputs change, the next
 * page when the screen asks for it (the cursor nears the end), never everything up front.
 */
import * as Effect from "effect/Effect"
import { useCallback, useEffect, useRef, useState, type DependencyList } from "react"
import type { UiError } from "./errors.js"
import { runEffect, useRuntime, type Services } from "./runtime.js"

export interface CursorList<A> {
  readonly items: ReadonlyArray<A>
  readonly loading: boolean
  readonly refreshing: boolean
  readonly error: UiError | undefined
  readonly hasMore: boolean
  readonly loadMore: () => void
  readonly refresh: () => void
}

interface State<A> {
  readonly items: ReadonlyArray<A>
  /** The cursor of the next page; undefined when there is none. */
  readonly next: string | undefined
  readonly loading: boolean
  readonly refreshing: boolean
  readonly error: UiError | undefined
}

const initial = { items: [], next: undefined, loading: true, refreshing: false, error: undefined }

export function useCursorList<A, E>(
  fetchPage: (cursor: string | undefined) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly cursor: string }, E, Services>,
  deps: DependencyList
): CursorList<A> {
  const runtime = useRuntime()
  const [state, setState] = useState<State<A>>(initial)
  const [generation, setGeneration] = useState(0)
  const fetchRef = useRef(fetchPage)
  fetchRef.current = fetchPage
  const controller = useRef<AbortController | undefined>(undefined)
  const inFlight = useRef(false)
  const keepRows = useRef(false)

  const load = useCallback(
    (cursor: string | undefined, keep: boolean) => {
      controller.current?.abort()
      const c = new AbortController()
      controller.current = c
      inFlight.current = true
      const first = cursor === undefined
      setState((s) => ({ ...(first && !keep ? initial : s), loading: true, refreshing: keep, error: undefined }))
      const fetch = fetchRef.current
      void runEffect(runtime, Effect.suspend(() => fetch(cursor)), c.signal).then((r) => {
        if (r === undefined) return
        inFlight.current = false
        if (!r.ok) return setState((s) => ({ ...s, loading: false, refreshing: false, error: r.error }))
        setState((s) => ({
          items: first ? r.value.items : [...s.items, ...r.value.items],
          next: r.value.cursor === "" ? undefined : r.value.cursor,
          loading: false,
          refreshing: false,
          error: undefined
        }))
      })
    },
    [runtime]
  )

  useEffect(() => {
    load(undefined, keepRows.current)
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
