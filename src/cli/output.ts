/** How commands print: aligned tables or JSON on stdout; errors as one line (plus a hint) on stderr. */
import type { V4Error } from "../domain/errors.js"

export const useColor = () => process.stdout.isTTY === true && !process.env.NO_COLOR

export const printJson = (value: unknown) => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

export type Cell = string | number | boolean | null | undefined

/** An aligned table with a header row; the last column is not padded. */
export const printTable = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<Cell>>) => {
  const text = rows.map((r) => r.map((c) => (c === null || c === undefined ? "-" : String(c))))
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd()
  const bold = (s: string) => (useColor() ? `\u001b[1m${s}\u001b[22m` : s)
  const out = [bold(line(headers)), ...text.map(line)]
  process.stdout.write(`${out.join("\n")}\n`)
}

export const printLine = (s: string) => process.stdout.write(`${s}\n`)
export const note = (s: string) => process.stderr.write(`${s}\n`)

const HINTS: Partial<Record<V4Error["_tag"], string>> = {
  NotFound: "run `edgectl zones list` to see what these credentials can see",
  MissingCredentials: "set CLOUDFLARE_API_TOKEN (or CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL)",
  MalformedCredentials: "check the value of CLOUDFLARE_API_TOKEN (or CLOUDFLARE_API_KEY / CLOUDFLARE_EMAIL)",
  InvalidCredentials: "the platform does not know these credentials; check CLOUDFLARE_API_TOKEN",
  Unauthorized: "these credentials may not do this; use a token with the needed permissions",
  RateLimited: "wait a moment and try again",
  NoRoute: "the base URL may be wrong; check CLOUDFLARE_API_BASE_URL"
}

/** `error: <what failed>: <why> [code N]` and at most one hint line. */
export const formatError = (what: string, e: V4Error, hint?: string): string => {
  const code = e.code !== undefined && e._tag !== "ApiError" ? ` [code ${e.code}]` : e._tag === "ApiError" && e.status > 0 ? ` [code ${e.code}]` : ""
  const chain = e.chain && e.chain.length > 0 ? ` (${e.chain.map((c) => `${c.message} [code ${c.code}]`).join("; ")})` : ""
  const h = hint ?? HINTS[e._tag]
  return `error: ${what}: ${e.message}${chain}${code}${h ? `\nhint: ${h}` : ""}`
}
