/**
 * The seam between Effect and React: one ManagedRuntime per TUI session, handed down through a
 * context; components run Effects from hooks, and an unmount (or a newer run) aborts the older one.
 * Components never see a Layer.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as ManagedRuntime from "effect/ManagedRuntime"
import { createContext, useContext, useEffect, useState, type DependencyList, type ReactNode } from "react"
import type { ClientEnv } from "../src/api/client.js"
import { fromCause, fromUnknown, type UiError } from "./errors.js"

/** What every screen's Effects may need: the v4 client. */
export type Services = ClientEnv
export type TuiRuntime = ManagedRuntime.ManagedRuntime<Services, unknown>

const RuntimeContext = createContext<TuiRuntime | undefined>(undefined)

export function RuntimeProvider({ runtime, children }: { runtime: TuiRuntime; children: ReactNode }) {
  return <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>
}

export function useRuntime(): TuiRuntime {
  const runtime = useContext(RuntimeContext)
  if (runtime === undefined) throw new Error("useRuntime must be used inside <RuntimeProvider>")
  return runtime
}

export type RunResult<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly error: UiError }

/**
 * Runs an Effect on the runtime; resolves `undefined` when aborted, never rejects. Failures and
 * defects come back as a UiError, so callers have no way to crash the app with them.
 */
export const runEffect = async <A, E>(
  runtime: TuiRuntime,
  effect: Effect.Effect<A, E, Services>,
  signal: AbortSignal
): Promise<RunResult<A> | undefined> => {
  try {
    const exit = await runtime.runPromiseExit(effect, { signal })
    if (signal.aborted) return undefined
    if (Exit.isSuccess(exit)) return { ok: true, value: exit.value }
    const error = fromCause(exit.cause)
    return error === undefined ? undefined : { ok: false, error }
  } catch (e) {
    return signal.aborted ? undefined : { ok: false, error: fromUnknown(e) }
  }
}

export type Query<A> =
  | { readonly _tag: "Loading" }
  | { readonly _tag: "Success"; readonly value: A }
  | { readonly _tag: "Failure"; readonly error: UiError }

/** Runs `make()` when `deps` change (or on `refresh`) and tracks its state. */
export function useEffectQuery<A, E>(
  make: () => Effect.Effect<A, E, Services>,
  deps: DependencyList
): { readonly query: Query<A>; readonly refresh: () => void } {
  const runtime = useRuntime()
  const [query, setQuery] = useState<Query<A>>({ _tag: "Loading" })
  const [tick, setTick] = useState(0)
  useEffect(() => {
    const controller = new AbortController()
    setQuery({ _tag: "Loading" })
    void runEffect(runtime, Effect.suspend(make), controller.signal).then((r) => {
      if (r === undefined) return
      setQuery(r.ok ? { _tag: "Success", value: r.value } : { _tag: "Failure", error: r.error })
    })
    return () => controller.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- make is new at every render: the caller's deps say when it reads something new
  }, [runtime, tick, ...deps])
  return { query, refresh: () => setTick((t) => t + 1) }
}
