/**
 * Page-rule and URI-override URL patterns (`*example.com/admin/*`) as rules-language expressions,
 * so that the previous WAF's URL matching and the skip rules the migration generates are the same
 * expression, evaluated by src/rules alone.
 *
 * A pattern is `[scheme://]host[/path]`; `*` matches any run of characters. The host is compared
 * without case (`wildcard`), the path with case (`strict wildcard`), as page rules do. A pattern
 * without a path matches every path; a query part is ignored (page rules match on it only
 * loosely, and a skip rule on the path is the safe translation).
 */

export const quote = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

/** Runs of stars are one star (the rules language rejects `**`). */
const stars = (s: string) => s.replace(/\*{2,}/g, "*")

/**
 * `path: "caseless"` compares the path without case (`wildcard`, as the platform's own Zone Lockdown
 * example does); the default compares it with case, as page rules do.
 */
export const urlPatternExpression = (
  pattern: string,
  options: { readonly path?: "strict" | "caseless" } = {}
): string => {
  let p = pattern.trim().replace(/^https?:\/\//i, "")
  const q = p.indexOf("?")
  if (q >= 0) p = p.slice(0, q)
  const slash = p.indexOf("/")
  const host = stars(slash >= 0 ? p.slice(0, slash) : p)
  const path = stars(slash >= 0 ? p.slice(slash) : "")
  const parts: Array<string> = []
  if (host !== "" && host !== "*")
    parts.push(
      host.includes("*")
        ? `http.host wildcard ${quote(host.toLowerCase())}`
        : `http.host eq ${quote(host.toLowerCase())}`
    )
  if (path !== "" && path !== "/*") {
    parts.push(
      options.path === "caseless"
        ? `http.request.uri.path wildcard ${quote(path)}`
        : path.includes("*")
          ? `http.request.uri.path strict wildcard ${quote(path)}`
          : `http.request.uri.path eq ${quote(path)}`
    )
  }
  return parts.length === 0 ? "true" : parts.join(" and ")
}

/** Several patterns, any of which matches. */
export const anyUrlExpression = (
  patterns: ReadonlyArray<string>,
  options: { readonly path?: "strict" | "caseless" } = {}
): string => {
  const each = patterns.map((p) => urlPatternExpression(p, options))
  if (each.includes("true") || each.length === 0) return "true"
  return each.length === 1 ? each[0]! : each.map((e) => `(${e})`).join(" or ")
}
