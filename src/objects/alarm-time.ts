/**
 * The time an alarm is set to, as the CLI (`objects alarm --set`) and the TUI (Objects, `A`) take
 * it: ISO 8601 (`2026-11-28T10:00:00Z`), milliseconds since the epoch, or `+DURATION` from now
 * (`+90s`, `+15m`, `+2h`, `+1d`). One parser, so both clients accept and refuse the same text
 * with the same words (the field, the limit, the value given).
 */

const Units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }
/** The furthest an alarm can be set: a year from now (a longer wait is almost surely a typo). */
export const MaxAheadMs = 366 * 86_400_000

const Forms = "ISO 8601 like 2026-11-28T10:00:00Z, ms since the epoch, or +DURATION like +90s, +15m, +2h, +1d"

/** The alarm's time in ms since the epoch, or a message naming the field, the limit and the value. */
export const parseAlarmTime = (
  text: string,
  now: number,
  field = "alarm time"
): number | { readonly problem: string } => {
  const t = text.trim()
  const given = JSON.stringify(text)
  if (t === "") return { problem: `${field}: empty; give ${Forms}` }
  let ms: number
  if (t.startsWith("+")) {
    const m = /^\+(\d+(?:\.\d+)?)\s*([smhd])$/.exec(t)
    if (m === null) return { problem: `${field}: not a duration: ${given} (${Forms})` }
    ms = now + Math.round(Number(m[1]) * Units[m[2]!]!)
  } else {
    ms = /^\d+$/.test(t) ? Number(t) : Date.parse(t)
    if (!Number.isFinite(ms)) return { problem: `${field}: not a time: ${given} (${Forms})` }
  }
  if (ms - now > MaxAheadMs)
    return {
      problem: `${field}: at most a year ahead (${new Date(now + MaxAheadMs).toISOString()}), got ${new Date(ms).toISOString()} from ${given}`
    }
  return ms
}

/** `2026-11-28T10:00:00Z (in 1h 5m)` or `(5s ago)`: the time an alarm stands for (to the second), and how far off. */
export const alarmText = (ms: number, now: number): string => {
  const d = Math.round((ms - now) / 1000)
  const s = Math.abs(d)
  const span =
    s >= 86_400
      ? `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`
      : s >= 3600
        ? `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`
        : s >= 60
          ? `${Math.floor(s / 60)}m ${s % 60}s`
          : `${s}s`
  return `${new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")} (${d >= 0 ? `in ${span}` : `${span} ago`})`
}
