/**
 * Progress of long work on a terminal: one line on stderr, rewritten in place (count, rate, ETA),
 * at most ten times a second, and erased when done. Nothing at all off a terminal or with --json.
 */
import { humanBytes } from "../domain/kv-limits.js"

export interface Progress {
  readonly update: (label: string, done: number, total: number, unit: "bytes" | "entries") => void
  readonly clear: () => void
}

const none: Progress = { update: () => {}, clear: () => {} }

const count = (n: number, unit: "bytes" | "entries") => (unit === "bytes" ? humanBytes(n) : n.toLocaleString("en-US"))

export const progressLine = (o: { readonly json: boolean; readonly stream?: NodeJS.WriteStream }): Progress => {
  const stream = o.stream ?? process.stderr
  if (o.json || stream.isTTY !== true) return none
  let last = 0
  let shown = false
  let started = Date.now()
  let phase = ""
  return {
    update: (label, done, total, unit) => {
      const now = Date.now()
      if (label !== phase) {
        phase = label
        started = now
      } else if (now - last < 100 && done < total) return
      last = now
      const seconds = (now - started) / 1000
      const rate = done / Math.max(0.001, seconds)
      const pct = total > 0 ? Math.floor((done / total) * 100) : 100
      // A rate from the first instants of a phase means nothing: shown after a quarter second.
      const timed = seconds >= 0.25 && done > 0
      const eta = timed && done < total ? ` · ETA ${Math.ceil((total - done) / rate)}s` : ""
      const rateText = timed ? ` · ${count(Math.round(rate), unit)}/s` : ""
      const of = unit === "entries" ? " entries" : ""
      // Nothing done yet (one request for the whole file): what is being done, not 0%.
      const line =
        done === 0
          ? `${label} ${count(total, unit)}${of}…`
          : `${label} ${count(done, unit)}/${count(total, unit)}${of} · ${pct}%${rateText}${eta}`
      stream.write(`\r\u001b[K${line.slice(0, Math.max(20, (stream.columns ?? 80) - 1))}`)
      shown = true
    },
    clear: () => {
      if (shown) stream.write("\r\u001b[K")
      shown = false
    }
  }
}

/**
 * The wait for the API budget on a terminal (src/api/rate-budget.ts): one line on stderr,
 * rewritten each second with the seconds left, erased when the request goes. Nothing off a
 * terminal or with --json; undefined then, so the client sets no timer for it.
 */
export const countdownLine = (o: {
  readonly json: boolean
  readonly stream?: NodeJS.WriteStream
}): ((until: number | undefined) => void) | undefined => {
  const stream = o.stream ?? process.stderr
  if (o.json || stream.isTTY !== true) return undefined
  let shown = false
  return (until) => {
    if (until === undefined) {
      if (shown) stream.write("\r\u001b[K")
      shown = false
      return
    }
    const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000))
    stream.write(`\r\u001b[Kwaiting ${seconds} s for the platform's API budget…`)
    shown = true
  }
}
