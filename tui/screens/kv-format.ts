/**
 * How the KV screen shows a value: UTF-8 text as it is, JSON pretty-printed, anything else as a hex
 * dump (offset, 16 or 8 bytes as the pane fits, their printable characters; the Objects screen's
 * too); expirations as a date and how far away.
 */

type ValueKind = "json" | "text" | "binary"

export interface ValueView {
  readonly kind: ValueKind
  readonly lines: ReadonlyArray<string>
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

/** UTF-8 text without control characters other than tab and line breaks, or undefined. */
export const asText = (bytes: Uint8Array): string | undefined => {
  let text: string
  try {
    text = strictUtf8.decode(bytes)
  } catch {
    return undefined
  }
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text
}

const hexLine = (bytes: Uint8Array, at: number, perRow: 8 | 16) => {
  const row = bytes.subarray(at, at + perRow)
  const hex = Array.from(row, (b) => b.toString(16).padStart(2, "0"))
  const groups =
    perRow === 16
      ? `${hex.slice(0, 8).join(" ").padEnd(23)}  ${hex.slice(8).join(" ").padEnd(23)}`
      : hex.join(" ").padEnd(23)
  const ascii = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("")
  return `${at.toString(16).padStart(8, "0")}  ${groups}  |${ascii}|`
}

/**
 * Bytes as a hex dump: offset, 16 bytes (8 when `width` is under the 78 columns a row of 16
 * takes: an 80-column terminal's pane), their printable characters (an object's binary value too).
 */
export const hexRows = (bytes: Uint8Array, width = 78): Array<string> => {
  const perRow = width >= 78 ? 16 : 8
  const lines: Array<string> = []
  for (let at = 0; at < bytes.length; at += perRow) lines.push(hexLine(bytes, at, perRow))
  return lines
}

/** A value's lines; a binary one as a hex dump that fits `width` (the pane's columns). */
export const viewValue = (bytes: Uint8Array, width?: number): ValueView => {
  const text = asText(bytes)
  if (text === undefined) return { kind: "binary", lines: hexRows(bytes, width) }
  const trimmed = text.trim()
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return { kind: "json", lines: JSON.stringify(JSON.parse(trimmed), null, 2).split("\n") }
    } catch {
      // not JSON after all: shown as text
    }
  }
  return { kind: "text", lines: text.split(/\r?\n/) }
}

/** A tab as the spaces to the next stop of 8: a tab drawn raw moves the terminal's cursor past
 *  the pane's border, which Ink counts as one column (issue 29). */
const expandTabs = (line: string): string => {
  if (!line.includes("\t")) return line
  let out = ""
  for (const ch of line) out += ch === "\t" ? " ".repeat(8 - (out.length % 8)) : ch
  return out
}

/**
 * The value's lines as rows of at most `width` characters: a long line goes on in the next rows,
 * cut at the width and not at a word, without an indent, so that copied rows give the line back
 * (issue 29: a 5,000-character value was one cut line).
 */
export const valueRows = (lines: ReadonlyArray<string>, width: number): ReadonlyArray<string> =>
  lines.flatMap((line) => {
    const chars = [...expandTabs(line)]
    if (chars.length <= width) return [chars.join("")]
    const rows: Array<string> = []
    for (let at = 0; at < chars.length; at += width) rows.push(chars.slice(at, at + width).join(""))
    return rows
  })

const span = (seconds: number) => {
  const s = Math.abs(seconds)
  const d = Math.floor(s / 86_400)
  if (d >= 365) return `${Math.floor(d / 365)}y ${d % 365}d`
  if (d >= 1) return `${d}d ${Math.floor((s % 86_400) / 3600)}h`
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`
  if (s >= 60) return `${Math.floor(s / 60)}m ${s % 60}s`
  return `${s}s`
}

/** `2030-01-01 00:00:00Z (in 3y 40d)`, or `never`. */
export const expiresText = (expiration: number | undefined, now: number): string => {
  if (expiration === undefined) return "never"
  const date = new Date(expiration * 1000)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z")
  const delta = expiration - now
  return `${date} (${delta >= 0 ? `in ${span(delta)}` : `${span(delta)} ago`})`
}

/** A short cell: `in 3y 40d`, or an empty string. */
export const expiresCell = (expiration: number | undefined, now: number): string =>
  expiration === undefined ? "" : expiration >= now ? `in ${span(expiration - now)}` : "expired"

export const sizeText = (n: number): string =>
  n < 1024
    ? `${n} ${n === 1 ? "byte" : "bytes"}`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KiB`
      : `${(n / 1024 / 1024).toFixed(1)} MiB`
