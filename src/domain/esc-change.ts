/**
 * What a POST to `disable_esc` may carry, checked as the local platform checks it: exactly one of
 * `{"always": true}` or `{"with_secret": "<1..100 cookie-safe characters>"}`. Every refusal names
 * the field, the rule and what was sent; a secret is described by its length, never echoed.
 */
import * as Either from "effect/Either"

const SecretMaxLength = 100

export type EscChange = { readonly kind: "always" } | { readonly kind: "secret"; readonly secret: string }

/** The value, or the refusal's message. */
type Checked<A> = Either.Either<A, string>

const ok = <A>(value: A): Checked<A> => Either.right(value)
const refuse = (message: string): Checked<never> => Either.left(message)

/** What a JSON value is, in words, without its content (it may be a secret). */
const kindOf = (u: unknown): string => {
  if (u === null) return "null"
  if (Array.isArray(u)) return `an array of ${u.length} item${u.length === 1 ? "" : "s"}`
  switch (typeof u) {
    case "string":
      return u.length === 0
        ? "an empty string"
        : `a string of ${[...u].length} character${[...u].length === 1 ? "" : "s"}`
    case "number":
      return "a number"
    case "boolean":
      return String(u)
    case "object":
      return "an object"
    default:
      return typeof u
  }
}

/**
 * A cookie value (RFC 6265 cookie-octet): printable ASCII except space, `"`, `,`, `;` and `\`.
 * A secret outside it could not be sent in a `Cookie` header, so it could never match.
 */
const cookieOctet = (c: number) =>
  c === 0x21 ||
  (c >= 0x23 && c <= 0x2b) ||
  (c >= 0x2d && c <= 0x3a) ||
  (c >= 0x3c && c <= 0x5b) ||
  (c >= 0x5d && c <= 0x7e)

const describeChar = (ch: string) => {
  const c = ch.codePointAt(0)!
  if (ch === " ") return "a space"
  if (ch === '"') return "a double quote"
  if (ch === ",") return "a comma"
  if (ch === ";") return "a semicolon"
  if (ch === "\\") return "a backslash"
  if (c < 0x20 || c === 0x7f) return "a control character"
  return "a non-ASCII character"
}

/** A secret as the platform stores it: 1..100 characters a cookie can carry. */
export const checkSecret = (u: unknown, field = "with_secret"): Checked<string> => {
  if (typeof u !== "string")
    return refuse(`${field} must be a string of 1 to ${SecretMaxLength} characters, got ${kindOf(u)}`)
  const chars = [...u]
  if (chars.length === 0) return refuse(`${field} must be 1 to ${SecretMaxLength} characters, got an empty string`)
  if (chars.length > SecretMaxLength)
    return refuse(`${field} must be at most ${SecretMaxLength} characters, got ${chars.length}`)
  const bad = chars.findIndex((ch) => !cookieOctet(ch.codePointAt(0)!))
  if (bad >= 0) {
    return refuse(
      `${field} must use only characters a cookie value can carry (printable ASCII except space, double quote, comma, semicolon and backslash), ` +
        `got ${describeChar(chars[bad]!)} at position ${bad + 1} of ${chars.length}`
    )
  }
  return ok(u)
}

const Fields = ["always", "with_secret"]
const Usage = `{"always": true} or {"with_secret": "<1 to ${SecretMaxLength} characters>"}`

const fieldName = (k: string) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k)

/** The body of `POST …/disable_esc`, as parsed JSON. */
export const checkChange = (body: unknown): Checked<EscChange> => {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return refuse(
      `the body must be a JSON object, ${Usage}; got ${body === null || body === undefined ? "null or an empty body" : kindOf(body)}`
    )
  }
  const record = body as Record<string, unknown>
  const keys = Object.keys(record)
  const unknown = keys.filter((k) => !Fields.includes(k))
  if (unknown.length > 0) {
    return refuse(
      `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.slice(0, 5).map(fieldName).join(", ")}${unknown.length > 5 ? ", …" : ""}: the body takes only ${Usage}`
    )
  }
  const hasAlways = "always" in record
  const hasSecret = "with_secret" in record
  if (hasAlways && hasSecret) return refuse(`send either "always" or "with_secret", not both: ${Usage}`)
  if (hasAlways) {
    const a = record.always
    if (a === true) return ok({ kind: "always" })
    if (a === false) return refuse("always must be true, got false: DELETE turns ESC on again")
    return refuse(`always must be the boolean true, got ${kindOf(a)}`)
  }
  if (hasSecret) {
    return Either.map(checkSecret(record.with_secret), (secret): EscChange => ({ kind: "secret", secret }))
  }
  return refuse(`the body must set ${Usage}, got an empty object`)
}
