/**
 * JSON string literals as written versus as decoded: an expression inside a JSON body is checked
 * decoded, and its diagnostics must point at the characters in the file, through `\"`, `\\`,
 * `\n` and `\u00e9` escapes.
 */

/**
 * The document offsets of each UTF-16 unit of the decoded string whose literal (quotes included)
 * starts at `start`; the last entry is the closing quote (the end of the string).
 */
export const decodedOffsets = (doc: string, start: number, length: number): Array<number> => {
  const out: Array<number> = []
  const end = start + length - 1 // the closing quote
  let i = start + 1
  while (i < end) {
    out.push(i)
    if (doc.charCodeAt(i) === 92 /* \ */) i += doc[i + 1] === "u" ? 6 : 2
    else i++
  }
  out.push(Math.min(i, end))
  return out
}

/** The document range of a decoded range. */
export const toDocument = (
  offsets: ReadonlyArray<number>,
  start: number,
  end: number
): { start: number; end: number } => {
  const at = (k: number) => offsets[Math.max(0, Math.min(k, offsets.length - 1))]!
  const s = at(start)
  // An end inside an escape covers the whole escape: the end is the start of the next unit.
  return { start: s, end: Math.max(s, at(end)) }
}

/** The decoded offset of a document offset (the unit it falls in; the end when past it). */
export const toDecoded = (offsets: ReadonlyArray<number>, docOffset: number): number => {
  let lo = 0
  let hi = offsets.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (offsets[mid]! <= docOffset) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** A string as a JSON literal, for edits inside JSON documents. */
export const jsonString = (s: string): string => JSON.stringify(s)
