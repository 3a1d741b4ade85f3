/**
 * The footer's notice (UX.md): the result of an action, one line for a few seconds; an error stays
 * whole, with the API's code and its hint, until the user presses a key. That key only dismisses
 * it (a key pressed to read past the error must not also delete, deploy or leave).
 * Screens call `useNotify()`; only the footer and the shell's layout read the notice.
 */
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react"
import type { UiError } from "./errors.js"
import { useKeyHints, useKeys } from "./keys.js"

export interface Notice {
  readonly kind: "done" | "error"
  readonly text: string
  /** The API's code of an error, shown after its message. */
  readonly code?: number | undefined
  /** What the user can do about an error (`hint:` below it). */
  readonly hint?: string | undefined
}

export interface Notify {
  /** A result: `✓ <text>` for a few seconds. */
  readonly done: (text: string) => void
  /** `error: <what>: <message> [code N]` and its `hint:`, kept until a key is pressed. */
  readonly error: (what: string, error: UiError) => void
  /** A refusal that needs no code (`nothing to clear`), kept like an error. */
  readonly warn: (text: string) => void
  readonly clear: () => void
}

/** How long a result stays in the footer. */
const NoticeMillis = 4000

/** Above every key layer; it handles nothing, it only sees each key first. */
const NoticeLayer = 100

const NotifyContext = createContext<Notify | undefined>(undefined)
const NoticeContext = createContext<Notice | undefined>(undefined)

/** `doneMillis`: how long a result stays (tests shorten it). */
export function NoticeProvider({ children, doneMillis = NoticeMillis }: { children: ReactNode; doneMillis?: number }) {
  const [notice, setNotice] = useState<Notice | undefined>(undefined)
  const current = useRef(notice)
  current.current = notice
  const notify = useMemo<Notify>(
    () => ({
      done: (text) => setNotice({ kind: "done", text }),
      error: (what, error) =>
        setNotice({ kind: "error", text: `error: ${what}: ${error.message}`, code: error.code, hint: error.hint }),
      warn: (text) => setNotice({ kind: "error", text }),
      clear: () => setNotice(undefined)
    }),
    []
  )
  useEffect(() => {
    if (notice?.kind !== "done") return
    const timer = setTimeout(() => setNotice((n) => (n === notice ? undefined : n)), doneMillis)
    return () => clearTimeout(timer)
  }, [notice, doneMillis])
  // The hub clears a handler's fault on the next key; that key is only the dismissal too.
  const { fault: faultNow } = useKeyHints()
  const fault = useRef(faultNow)
  fault.current = faultNow
  useKeys(
    (press) => {
      if (press.name === "paste" && press.toText !== true) {
        // A paste is text: with no field to take it, it is dropped, never run as keys.
        const lines = press.input.split("\n").length
        setNotice({
          kind: "error",
          text: `paste ignored (${lines === 1 ? `${[...press.input].length} characters` : `${lines} lines`}): this screen takes no text; open a field first`
        })
        return true
      }
      const showing = current.current?.kind === "error" || fault.current !== undefined
      if (!showing) return false
      // A paste into a field clears the error and still reaches the field.
      const pasted = press.name === "paste"
      // Gone for the rest of a burst read in the same chunk, before React draws again.
      if (current.current?.kind === "error") setNotice(undefined)
      current.current = undefined
      fault.current = undefined
      return !pasted
    },
    { priority: NoticeLayer }
  )
  return (
    <NotifyContext.Provider value={notify}>
      <NoticeContext.Provider value={notice}>{children}</NoticeContext.Provider>
    </NotifyContext.Provider>
  )
}

export function useNotify(): Notify {
  const n = useContext(NotifyContext)
  if (n === undefined) throw new Error("useNotify must be used inside <NoticeProvider>")
  return n
}

/** The notice the footer shows, if any. */
export const useNotice = (): Notice | undefined => useContext(NoticeContext)
