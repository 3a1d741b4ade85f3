/**
 * The actions a screen starts (a write to the platform): `busy` while one runs, its result to
 * `onOk`, a failure to the footer (notices.tsx); whatever still runs when the screen goes away is
 * aborted, so no result lands on a screen that is gone.
 */
import type * as Effect from "effect/Effect"
import { useEffect, useRef, useState } from "react"
import type { V4Error } from "../src/domain/errors.js"
import { useNotify } from "./notices.js"
import { runEffect, useRuntime, type Services } from "./runtime.js"

export function useActions() {
  const runtime = useRuntime()
  const notify = useNotify()
  const [busy, setBusy] = useState(false)
  const aborts = useRef(new Set<AbortController>())
  useEffect(() => () => aborts.current.forEach((a) => a.abort()), [])

  /** Runs `effect`; `what` names it in the footer's error (`error: <what>: ...`). */
  const run = <A>(effect: Effect.Effect<A, V4Error, Services>, onOk: (a: A) => void, what: string) => {
    const controller = new AbortController()
    aborts.current.add(controller)
    setBusy(true)
    void runEffect(runtime, effect, controller.signal).then((r) => {
      aborts.current.delete(controller)
      if (r === undefined) return
      setBusy(false)
      if (r.ok) onOk(r.value)
      else notify.error(what, r.error)
    })
  }
  return { run, busy }
}
