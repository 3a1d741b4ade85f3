/**
 * A bound on JSON nesting, checked before parsing: JSON.parse, the schema decoders and
 * JSON.stringify all recurse, and a body or flag nested thousands of levels exhausts their stack
 * (a RangeError, answered as an internal error) instead of being refused as bad input.
 */

/** The deepest JSON nesting (arrays and objects) accepted; real payloads nest a few levels. */
export const JsonMaxDepth = 100

/** The offset of the bracket that nests JSON text deeper than `max`, or -1 (one pass, no parse). */
export const jsonTooDeepAt = (text: string, max: number): number => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i++ // a backslash escapes the next character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return i
    } else if (c === 93 || c === 125) depth--
  }
  return -1
}

/** Whether JSON text nests arrays and objects deeper than `max`. */
export const jsonDepthOver = (text: string, max: number): boolean => jsonTooDeepAt(text, max) >= 0
