/**
 * Cookie headers as browsers and tools send them (RFC 6265 section 5.4, parsed leniently as
 * servers do): `a=1; disable_esc=s3cret; b="x y"`. Pairs are split on `;`, names and values
 * trimmed, a value in double quotes unquoted; a pair without `=` is skipped. Names are
 * case-sensitive. HTTP/2 may split cookies over several headers: pass them all.
 */

export interface Cookie {
  readonly name: string
  readonly value: string
}

/** The cookie that turns ESC off for one request. */
export const EscCookieName = "disable_esc"

const unquote = (v: string) => (v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v)

/** Every cookie of the header(s), in order; `Cookie:` in front (a pasted header line) is ignored. */
export const parseCookies = (header: string | ReadonlyArray<string> | undefined): ReadonlyArray<Cookie> => {
  if (header === undefined) return []
  const headers = typeof header === "string" ? [header] : header
  const out: Array<Cookie> = []
  for (const h of headers) {
    for (const part of h.replace(/^\s*cookie\s*:/i, "").split(";")) {
      const eq = part.indexOf("=")
      if (eq < 0) continue
      const name = part.slice(0, eq).trim()
      if (name === "") continue
      out.push({ name, value: unquote(part.slice(eq + 1).trim()) })
    }
  }
  return out
}

/** The values of every cookie named `name` (a request may carry the same name more than once). */
export const cookieValues = (header: string | ReadonlyArray<string> | undefined, name: string): ReadonlyArray<string> =>
  parseCookies(header)
    .filter((c) => c.name === name)
    .map((c) => c.value)
