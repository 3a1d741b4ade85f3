/**
 * The footer's notice line (UX.md): the result of an action, shown for a few seconds; an error
 * stays, with the API's code, until the user presses a key (the key still does what it does).
 * Screens call `useNotify()`; only the footer reads the notice, so a notice never re-renders a screen.
 */
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react"
import type { UiError } from "./errors.js"
import { useKeys } from "./keys.js"

export interface Notice {
  readonly kind: "done" | "error"
  readonly text: string
  /** The API's code of an error: the footer keeps it in view when the text is cut. */
  readonly code?: number | undefined
}

export interface Notify {
  /** A result: `✓ <text>` for a few seconds. */
  readonly done: (text: string) => void
  /** `error: <what>: <message> [code N]`, kept until a key is pressed. */
  readonly error: (what: string, error: UiError) => void
  /** A refusal that needs no code (`nothing to clear`), kept like an error. */
  readonly warn: (text: string) => void
  readonly clear: () => void
}

/** How long a result stays in the footer. */
export const NoticeMillis = 4000

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
      error: (what, error) => setNotice({ kind: "error", text: `error: ${what}: ${error.message}`, code: error.code }),
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
  useKeys(
    () => {
      if (current.current?.kind === "error") setNotice(undefined)
      return false
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
