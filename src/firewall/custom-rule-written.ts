/**
 * A custom rule as a client writes it, and the comparison of two lists of them: what every
 * migration that writes the custom phase's entry point (./custom-rules-plan.ts, ./lockdown-ua-plan.ts,
 * ./rate-limit-plan.ts, and the placement of ./lockdown-ua-placement.ts they share) checks its
 * steps and end state with. Apart from the plans so that they can share it without importing one
 * another.
 */
import type { CustomRule } from "../domain/custom-rule.js"

const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T

/** A custom rule as written: what the platform assigns (id, version, time) left out. */
export const asWritten = (r: CustomRule): CustomRule => {
  const { id: _id, version: _version, last_updated: _at, ...rest } = r
  return defined(rest)
}

/** JSON with sorted keys, so that two values equal field by field compare equal as text. */
export const canonical = (u: unknown): string =>
  JSON.stringify(u, (_, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v
  )

export const sameCustomRules = (a: ReadonlyArray<CustomRule>, b: ReadonlyArray<CustomRule>) =>
  a.length === b.length && canonical(a.map(asWritten)) === canonical(b.map(asWritten))
