/**
 * The session log (`L`): every write this TUI session sent — when, on which zone (or namespace),
 * what, and how it ended — kept after the footer's notice fades, newest first. A write reaches it
 * through `useActions().run(…, { log })` or `useSessionLog().record`; the log lives as long as
 * the app, in memory only (a write's lasting record is the platform's state).
 */
import { Box, Text } from "ink"
import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from "react"
import { useScroll } from "./components/scroll.js"
import { KeyLayer, useKeys } from "./keys.js"
import { usePaneSize } from "./terminal.js"

export interface LogEntry {
  readonly at: Date
  /** The zone, or the namespace or object, the write was on. */
  readonly where: string
  /** What was written, in the words of the notice (`created A www.acme.com`). */
  readonly what: string
  /** `ok`, or the error's message. */
  readonly result: "ok" | { readonly error: string }
}

export interface SessionLog {
  readonly entries: ReadonlyArray<LogEntry>
  readonly record: (entry: Omit<LogEntry, "at">) => void
}

const LogContext = createContext<SessionLog | undefined>(undefined)

export function SessionLogProvider({ children }: { children: ReactNode }) {
  const [entries, setEntries] = useState<ReadonlyArray<LogEntry>>([])
  const record = useRef((entry: Omit<LogEntry, "at">) => setEntries((es) => [...es, { ...entry, at: new Date() }]))
  const log = useMemo(() => ({ entries, record: record.current }), [entries])
  return <LogContext.Provider value={log}>{children}</LogContext.Provider>
}

export function useSessionLog(): SessionLog {
  const log = useContext(LogContext)
  if (log === undefined) throw new Error("useSessionLog must be used inside <SessionLogProvider>")
  return log
}

const two = (n: number) => String(n).padStart(2, "0")
/** Local wall time: the user compares it with their own clock. */
const clockText = (d: Date) => `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`

/** One entry as the overlay lists it: `12:03:04  ✓  acme.com  created A www.acme.com`. */
const entryText = (e: LogEntry) =>
  `${clockText(e.at)}  ${e.result === "ok" ? "✓" : "✗"}  ${e.where}  ${e.what}${e.result === "ok" ? "" : ` — failed: ${e.result.error}`}`

/** The overlay: takes the keys while open; ↑↓ scroll, esc or L closes, q quits as everywhere. */
export function SessionLogOverlay({ onClose, onQuit }: { onClose: () => void; onQuit: () => void }) {
  const { entries } = useSessionLog()
  const pane = usePaneSize()
  const newestFirst = [...entries].reverse()
  // Title and the status line.
  const rows = Math.max(1, pane.rows - 2)
  const last = Math.max(0, newestFirst.length - rows)
  const { first, scroll } = useScroll(last, rows)
  useKeys(
    (press) => {
      if (scroll(press.name)) return true
      if (press.name === "escape" || press.name === "L") onClose()
      else if (press.name === "q") onQuit()
      return true
    },
    {
      priority: KeyLayer.overlay,
      modal: true,
      hints: [
        ...(last > 0 ? [{ keys: "↑↓/jk", label: "scroll" }] : []),
        { keys: "esc/L", label: "close" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        Session log: {entries.length === 0 ? "no writes yet" : `${entries.length} write(s) this session, newest first`}
      </Text>
      {newestFirst.slice(first, first + rows).map((e, i) => (
        <Text key={first + i} wrap="wrap" {...(e.result === "ok" ? {} : { color: "red" })}>
          {entryText(e)}
        </Text>
      ))}
      {entries.length === 0 ? (
        <Text dimColor wrap="wrap">
          Writes made in this session (DNS records, keys, rules, settings) are listed here with their time, place and
          result.
        </Text>
      ) : last > 0 ? (
        <Text dimColor>
          {first + 1}-{Math.min(first + rows, newestFirst.length)} of {newestFirst.length}
        </Text>
      ) : null}
    </Box>
  )
}
