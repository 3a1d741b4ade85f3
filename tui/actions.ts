/**
 * The actions a screen starts (a write to the platform, a replay): `busy` names the one that runs,
 * its result goes to `onOk`, a failure to the footer (notices.tsx); whatever still runs when the
 * screen goes away is aborted, so no result lands on a screen that is gone. While an action is busy
 * the keys wait (useHoldKeys): a key pressed meanwhile acts once it is done, on what it left (`K K K`
 * moves a rule three places), instead of being dropped by a screen that refuses keys while busy.
 */
import type * as Effect from "effect/Effect"
import { useEffect, useRef, useState } from "react"
import { useHoldKeys } from "./keys.js"
import { useNotify } from "./notices.js"
import { runEffect, useRuntime, type RunResult, type Services } from "./runtime.js"
import { useSessionLog } from "./session-log.js"

export function useActions() {
  const runtime = useRuntime()
  const notify = useNotify()
  const log = useSessionLog()
  const [busy, setBusy] = useState<string | undefined>(undefined)
  const aborts = useRef(new Set<AbortController>())
  useEffect(() => () => aborts.current.forEach((a) => a.abort()), [])
  useHoldKeys(busy !== undefined)

  /** Runs `effect` until it ends or the screen goes away (then it resolves undefined). */
  const start = <A, E>(effect: Effect.Effect<A, E, Services>): Promise<RunResult<A> | undefined> => {
    const controller = new AbortController()
    aborts.current.add(controller)
    return runEffect(runtime, effect, controller.signal).then((r) => {
      aborts.current.delete(controller)
      return r
    })
  }

  /**
   * Runs `effect` as the busy action; `what` names it in `busy` and in the footer's error (`error: <what>: ...`).
   * A write gives `write` (where, what): its end goes to the session log (`L`).
   */
  const run = <A, E>(
    effect: Effect.Effect<A, E, Services>,
    onOk: (a: A) => void,
    what: string,
    write?: { readonly where: string; readonly what: string }
  ) => {
    setBusy(what)
    void start(effect).then((r) => {
      if (r === undefined) return
      setBusy(undefined)
      if (write !== undefined) log.record({ ...write, result: r.ok ? "ok" : { error: r.error.message } })
      if (r.ok) onOk(r.value)
      else notify.error(what, r.error)
    })
  }
  return { run, start, busy }
}
