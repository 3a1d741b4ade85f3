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
  /** Loads page after page until row `index` is loaded (Infinity: to the end; a cursor has no shortcut). */
  readonly loadTo: (index: number) => void
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
  fetchPage: (
    cursor: string | undefined
  ) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly cursor: string }, E, Services>,
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
  /** The highest row the screen asked for. */
  const want = useRef(-1)
  const stateRef = useRef<State<A>>(state)
  stateRef.current = state

  const load = useCallback(
    (cursor: string | undefined, keep: boolean) => {
      controller.current?.abort()
      const c = new AbortController()
      controller.current = c
      inFlight.current = true
      const first = cursor === undefined
      setState((s) => ({ ...(first && !keep ? initial : s), loading: true, refreshing: keep, error: undefined }))
      const fetch = fetchRef.current
      void runEffect(
        runtime,
        Effect.suspend(() => fetch(cursor)),
        c.signal
      ).then((r) => {
        if (r === undefined) return
        inFlight.current = false
        if (!r.ok) {
          stateRef.current = { ...stateRef.current, loading: false, refreshing: false, error: r.error }
          return setState(stateRef.current)
        }
        const next = r.value.cursor === "" ? undefined : r.value.cursor
        const items = first ? r.value.items : [...stateRef.current.items, ...r.value.items]
        stateRef.current = { items, next, loading: false, refreshing: false, error: undefined }
        setState(stateRef.current)
        if (next !== undefined && items.length <= want.current) load(next, false)
      })
    },
    [runtime]
  )

  useEffect(() => {
    load(undefined, keepRows.current)
    keepRows.current = false
    want.current = -1
    return () => {
      controller.current?.abort()
      inFlight.current = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps stand for what fetchPage reads
  }, [load, generation, ...deps])

  const loadTo = useCallback(
    (index: number) => {
      want.current = Math.max(want.current, index)
      const s = stateRef.current
      if (inFlight.current || s.next === undefined || s.error !== undefined || s.items.length > want.current) return
      load(s.next, false)
    },
    [load]
  )
  const loadMore = useCallback(() => loadTo(stateRef.current.items.length), [loadTo])

  return {
    items: state.items,
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
