/**
 * The removal of ESC as part of the model: all ESC configuration is removed on 2025-01-01. Given
 * the platform's clock, says whether the settings are still honoured or already removed, and how
 * long is left (or how long ago it happened).
 */

const RemovalDate = "2025-01-01"
const RemovalInstant = Date.UTC(2025, 0, 1)

const DayMs = 86_400_000

export interface RemovalStatus {
  readonly date: typeof RemovalDate
  /** The platform's clock, ISO 8601. */
  readonly now: string
  /** True from 2025-01-01T00:00:00Z on. */
  readonly removed: boolean
  /** Whole days left before the removal (when not removed) or since it (when removed). */
  readonly days: number
  /** `in 3 months` or `1 year 10 months ago`. */
  readonly relative: string
  /** One sentence for people. */
  readonly summary: string
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`

const addMonths = (t: number, months: number) => {
  const d = new Date(t)
  d.setUTCMonth(d.getUTCMonth() + months)
  return d.getTime()
}

/** Calendar distance between two instants (from <= to), in years, months and days (UTC). */
const span = (from: number, to: number): string => {
  const a = new Date(from)
  const b = new Date(to)
  let months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth())
  while (months > 0 && addMonths(from, months) > to) months--
  const days = Math.floor((to - addMonths(from, months)) / DayMs)
  const years = Math.floor(months / 12)
  const parts = [
    years > 0 ? plural(years, "year") : "",
    months % 12 > 0 ? plural(months % 12, "month") : "",
    years === 0 && days > 0 ? plural(days, "day") : ""
  ]
  const text = parts.filter((p) => p !== "").join(" ")
  return text === "" ? "less than a day" : text
}

export const removalStatus = (now: Date): RemovalStatus => {
  const t = now.getTime()
  const removed = t >= RemovalInstant
  const days = Math.floor(Math.abs(t - RemovalInstant) / DayMs)
  const distance = removed ? span(RemovalInstant, t) : span(t, RemovalInstant)
  const relative = removed ? `${distance} ago` : `in ${distance}`
  const when = `${relative} (${plural(days, "day")}) on the platform's clock (${now.toISOString().slice(0, 10)})`
  const summary = removed
    ? `ESC configuration was removed on ${RemovalDate}, ${when}: no ESC runs any more, ` +
      "so these settings change nothing on the platform; they can still be managed and tested"
    : `ESC configuration is still honoured: it is removed on ${RemovalDate}, ${when}; ` +
      "move each use case to its replacement (edgectl esc replacements) before then"
  return { date: RemovalDate, now: now.toISOString(), removed, days, relative, summary }
}
