/**
 * API paths in source text: where a script or program names a v4 path (`/zones/…`, `/accounts/…`),
 * what the path is once its interpolations are read as one id segment each (`${zoneId}`, `{zone_id}`,
 * `%s`, `$ZONE`, `:zone_id`, `" + id + "`), and the HTTP method the call around it uses, when the
 * text says (curl's -X, `method:`, `requests.patch(`, Go's `http.MethodPut`).
 */

export interface PathUse {
  /** Offsets of the path as written (from its `/zones/` or `/accounts/`). */
  readonly start: number
  readonly end: number
  /** The path with every interpolation as the segment `ID`, without query string or trailing slash. */
  readonly path: string
  readonly method: string | undefined
}

const START = /\/(?:zones|accounts)\//g
const NAMES_PATH = /\/(?:zones|accounts)\//
const PATH_CHAR = /[A-Za-z0-9._~\-/@]/
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]
// A quoted string's end, `+ expression +`, and the next string's start: a concatenation.
const CONCAT = /^(["'`])\s*\+\s*[^"'`\n;]{1,80}?\s*\+\s*["'`]/

/** From `open` (a `{` or `(`), the offset after its matching close; -1 when it does not close on the line. */
const closeOf = (text: string, open: number): number => {
  const o = text[open]!
  const c = o === "{" ? "}" : ")"
  let depth = 0
  for (let i = open; i < text.length && i < open + 200; i++) {
    const ch = text[i]
    if (ch === "\n") return -1
    if (ch === o) depth++
    else if (ch === c && --depth === 0) return i + 1
  }
  return -1
}

/** The path at `start` as written, and its normalized form. */
const readPath = (text: string, start: number): { end: number; path: string } => {
  let out = ""
  let i = start
  for (;;) {
    const ch = text[i]
    if (ch === undefined) break
    if (ch === "$" && (text[i + 1] === "{" || text[i + 1] === "(")) {
      const e = closeOf(text, i + 1)
      if (e < 0) break
      out += "ID"
      i = e
    } else if (ch === "$" && /[A-Za-z_]/.test(text[i + 1] ?? "")) {
      i++
      while (/[A-Za-z0-9_]/.test(text[i] ?? "")) i++
      out += "ID"
    } else if (ch === "{") {
      const e = closeOf(text, i)
      if (e < 0) break
      out += "ID"
      i = e
    } else if (ch === "%" && /[sdvq]/.test(text[i + 1] ?? "")) {
      out += "ID"
      i += 2
    } else if (ch === ":" && text[i - 1] === "/" && /[A-Za-z_]/.test(text[i + 1] ?? "")) {
      i++
      while (/[A-Za-z0-9_]/.test(text[i] ?? "")) i++
      out += "ID"
    } else if (ch === "<" && text[i - 1] === "/") {
      const e = text.indexOf(">", i)
      if (e < 0 || e - i > 40 || text.slice(i, e).includes("\n")) break
      out += "ID"
      i = e + 1
    } else if (ch === '"' || ch === "'" || ch === "`") {
      const m = CONCAT.exec(text.slice(i, i + 100))
      if (m === null) {
        // `"/rate_limits/" + id`: the string ends where an id is appended.
        if (out.endsWith("/") && /^["'`]\s*\+\s*[A-Za-z_$]/.test(text.slice(i, i + 40))) out += "ID"
        break
      }
      out += "ID"
      i += m[0].length
    } else if (PATH_CHAR.test(ch)) {
      out += ch
      i++
    } else break
  }
  return { end: i, path: out.replace(/\/+$/, "") }
}

const lineStart = (text: string, at: number) => text.lastIndexOf("\n", at - 1) + 1
const lineEnd = (text: string, at: number) => {
  const e = text.indexOf("\n", at)
  return e < 0 ? text.length : e
}

const HINTS = [
  /(?:-X\s*|--request[= ]\s*)["']?([A-Za-z]+)/,
  /\bmethod\s*[:=]\s*["'`]([A-Za-z]+)["'`]/,
  /\bhttp\.Method(Get|Post|Put|Patch|Delete)\b/,
  /\bNewRequest(?:WithContext)?\(\s*(?:ctx\s*,\s*)?"([A-Z]+)"/,
  /\b(?:requests|axios|httpx|session|client|http|api|got|ky|superagent)\.(get|post|put|patch|delete)\s*\(/i
]

const hintIn = (window: string): string | undefined => {
  for (const re of HINTS) {
    const m = re.exec(window)
    if (m !== null && METHODS.includes(m[1]!.toUpperCase())) return m[1]!.toUpperCase()
  }
  if (/\bcurl\b/.test(window)) return /\s(-d|--data[a-z-]*|-F|--form|--json)\b/.test(window) ? "POST" : "GET"
  return undefined
}

/**
 * The method of the call around `at`: its statement (the line, with the lines a shell `\`
 * continues it on, and the line before when it leaves a call open, as `NewRequest(m,` does);
 * else the options that follow it (a fetch's `{ method: … }`), up to a blank line, three lines on.
 */
const methodNear = (text: string, at: number): string | undefined => {
  let from = lineStart(text, at)
  while (from > 0) {
    const prev = lineStart(text, from - 1)
    const line = text.slice(prev, from - 1).trimEnd()
    if (!/[\\(,]$/.test(line)) break
    from = prev
  }
  let to = lineEnd(text, at)
  while (to < text.length && text[to - 1] === "\\") to = lineEnd(text, to + 1)
  const statement = text.slice(from, to)
  const own = hintIn(statement)
  if (own !== undefined) return own
  // Options follow only a call left open at the end of the line (`fetch(url, {`).
  if (!/[({,]\s*$/.test(statement)) return /\bfetch\s*\(/.test(statement) ? "GET" : undefined
  let after = to
  for (let k = 0; k < 3 && after < text.length; k++) {
    const next = lineEnd(text, after + 1)
    if (text.slice(after + 1, next).trim() === "" || NAMES_PATH.test(text.slice(after + 1, next))) break
    after = next
  }
  return after > to ? hintIn(text.slice(to, after)) : undefined
}

/** Every v4 path the text names. */
export const pathUses = (text: string): Array<PathUse> => {
  const out: Array<PathUse> = []
  START.lastIndex = 0
  let m: RegExpExecArray | null
  while ((m = START.exec(text)) !== null) {
    const start = m.index
    const { end, path } = readPath(text, start)
    START.lastIndex = Math.max(end, start + 1)
    out.push({ start, end, path, method: methodNear(text, start) })
  }
  return out
}
