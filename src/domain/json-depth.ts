/**
 * A bound on JSON nesting, checked before parsing: JSON.parse, the schema decoders and
 * JSON.stringify all recurse, and a body or flag nested thousands of levels exhausts their stack
 * (a RangeError, answered as an internal error) instead of being refused as bad input.
 */

/** The deepest JSON nesting (arrays and objects) accepted; real payloads nest a few levels. */
export const JsonMaxDepth = 100

/** The deepest nesting of arrays and objects in JSON text, stopping once it passes `max` (one pass, no parse). */
export const jsonDepthOver = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // a backslash escapes the next character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

