/**
 * Wildcard patterns (`wildcard`, `strict wildcard`): the whole value must match; `*` matches any
 * run of bytes (empty too); `\*` is a literal star and `\\` a literal backslash; `?` is not
 * special. `wildcard` ignores ASCII case, `strict wildcard` does not.
 */
import * as Either from "effect/Either"
import { asciiLower } from "./bytes.js"

export interface WildcardError {
  readonly message: string
  /** Byte offsets into the (decoded) pattern, end exclusive. */
  readonly start: number
  readonly end: number
  readonly hint?: string
}

/** The literal segments between the stars: `a*b*c` -> ["a", "b", "c"]. */
export const parseWildcard = (pattern: string): Either.Either<ReadonlyArray<string>, WildcardError> => {
  const segments: Array<string> = []
  let cur = ""
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === "\\") {
      const n = pattern[i + 1]
      if (n !== "*" && n !== "\\") {
        return Either.left({
          message:
            n === undefined
              ? "invalid wildcard: the pattern ends with a lone \\"
              : `invalid wildcard: \\${n} is not an escape (only \\* and \\\\ are)`,
          start: i,
          end: Math.min(i + 2, pattern.length),
          hint: 'write \\\\ for a literal backslash (in a raw string, r"...", one escape level is enough)'
        })
      }
      cur += n
      i++
      continue
    }
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        return Either.left({
          message: "wildcard contains a double star (**)",
          start: i,
          end: i + 2,
          hint: "one * already matches any run of characters"
        })
      }
      segments.push(cur)
      cur = ""
      continue
    }
    cur += c
  }
  segments.push(cur)
  return Either.right(segments)
}

/** A matcher for a checked pattern; the subject is a binary string. */
export const wildcardMatcher = (
  segments: ReadonlyArray<string>,
  caseSensitive: boolean
): ((subject: string) => boolean) => {
  const segs = caseSensitive ? segments : segments.map(asciiLower)
  if (segs.length === 1) {
    const only = segs[0]!
    return caseSensitive ? (s) => s === only : (s) => s.length === only.length && asciiLower(s) === only
  }
  const first = segs[0]!
  const last = segs[segs.length - 1]!
  const middle = segs.slice(1, -1).filter((s) => s !== "")
  const minLength = segs.reduce((n, s) => n + s.length, 0)
  return (subject) => {
    if (subject.length < minLength) return false
    const s = caseSensitive ? subject : asciiLower(subject)
    if (!s.startsWith(first) || !s.endsWith(last)) return false
    // Leftmost placement of each middle segment is optimal when `*` is the only metacharacter.
    let at = first.length
    const limit = s.length - last.length
    for (const m of middle) {
      const found = s.indexOf(m, at)
      if (found < 0 || found + m.length > limit) return false
      at = found + m.length
    }
    return true
  }
}
