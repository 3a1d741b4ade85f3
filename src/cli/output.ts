/** How commands print: aligned tables or JSON on stdout; errors as one line (plus a hint) on stderr. */
import type { V4Error } from "../domain/errors.js"
import { defaultHint, type HintTarget } from "./hints.js"
import { isTerminal, stdoutOpen, writeErr, writeOut } from "./stdio.js"
import { clip } from "../domain/clip.js"

export const useColor = () => isTerminal("stdout") && !process.env.NO_COLOR

export const printJson = (value: unknown) => {
  writeOut(`${JSON.stringify(value, null, 2)}\n`)
}

/**
 * A JSON array printed as its items arrive, a page at a time, byte for byte what `printJson` prints
 * of the whole array: each page is stringified at the array's depth (its own brackets cut off) and
 * joined with `,`; no item is kept once written. `page` answers whether stdout still takes output
 * (a reader gone or a failed write: the caller stops reading there).
 */
export const jsonArrayPrinter = () => {
  let first = true
  return {
    page: (items: ReadonlyArray<unknown>): boolean => {
      if (items.length > 0) {
        const text = JSON.stringify(items, null, 2)
        // `[\n  …\n]`: the items as the whole array's would be, between its first and last line.
        writeOut(`${first ? "[\n" : ",\n"}${text.slice(2, -2)}`)
        first = false
      }
      return stdoutOpen()
    },
    end: () => writeOut(first ? "[]\n" : "\n]\n")
  }
}

export type Cell = string | number | boolean | null | undefined

/** An aligned table with a header row; the last column is not padded. */
export const printTable = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<Cell>>) => {
  const text = rows.map((r) => r.map((c) => (c === null || c === undefined ? "-" : String(c))))
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd()
  const bold = (s: string) => (useColor() ? `\u001b[1m${s}\u001b[22m` : s)
  const out = [bold(line(headers)), ...text.map(line)]
  writeOut(`${out.join("\n")}\n`)
}

export const printLine = (s: string) => writeOut(`${s}\n`)
export const note = (s: string) => writeErr(`${s}\n`)

/** `name:  value` lines, the values aligned after the longest name. */
export const printFields = (fields: ReadonlyArray<readonly [string, string]>) => {
  const width = Math.max(...fields.map(([k]) => k.length)) + 2
  for (const [k, v] of fields) printLine(`${`${k}:`.padEnd(width)}${v}`)
}

/** `s` cut to at most `n` characters, so that a table row stays on one line (src/domain/clip.ts). */
export { clip }

/**
 * `error: <what failed>: <why> [code N]` and at most one hint line. `hint`: the command's own
 * hint; else one that fits the target (src/cli/hints.ts). The code is the platform's: an error
 * edgectl raised before any platform answered, or a failure to reach one, shows none.
 */
export const formatError = (
  what: string,
  e: V4Error,
  hint?: string,
  target: HintTarget = { remote: false }
): string => {
  const shown = e.clientSide !== true && (e._tag !== "ApiError" || e.status > 0)
  // Gone carries no code of the platform's: its HTTP status is what the platform answered.
  const code = !shown ? "" : e._tag === "Gone" ? " [HTTP 410]" : e.code !== undefined ? ` [code ${e.code}]` : ""
  const chain =
    e.chain && e.chain.length > 0 ? ` (${e.chain.map((c) => `${c.message} [code ${c.code}]`).join("; ")})` : ""
  const h = hint ?? defaultHint(e, target)
  return `error: ${what}: ${e.message}${chain}${code}${h ? `\nhint: ${h}` : ""}`
}
