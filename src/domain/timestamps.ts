/** Timestamps as the platform writes them. */

/** ISO 8601 with microseconds, as the platform writes timestamps. */
export const isoMicros = (ms: number, micros = 0) =>
  new Date(ms).toISOString().replace(/\.(\d{3})Z$/, (_, m: string) => `.${m}${String(micros % 1000).padStart(3, "0")}Z`)
