/**
 * Query-parameter schemas whose failures read like the platform's validation errors: each names
 * the parameter, the rule and the value it got. Used by the contract; the server's error
 * middleware turns a failure into a 400 envelope with that message.
 */
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

const fail = (ast: Schema.Schema.AnyNoContext["ast"], actual: unknown, message: string) =>
  ParseResult.fail(new ParseResult.Type(ast, actual, message))

/** An integer query parameter within [min, max]. */
export const IntParam = (field: string, min: number, max: number) =>
  Schema.transformOrFail(Schema.String, Schema.Number, {
    strict: true,
    decode: (s, _, ast) => {
      if (!/^-?\d+$/.test(s.trim())) return fail(ast, s, `${field} must be an integer, got ${JSON.stringify(s)}`)
      const n = Number(s)
      if (n < min || n > max) return fail(ast, s, `${field} must be between ${min} and ${max}, got ${n}`)
      return ParseResult.succeed(n)
    },
    encode: (n) => ParseResult.succeed(String(n))
  })

/** One of a fixed set of values; `caseInsensitive` for `direction` (the spec says ASC/DESC, clients send asc/desc). */
export const OneOf = <const V extends ReadonlyArray<string>>(field: string, values: V, caseInsensitive = false) =>
  Schema.transformOrFail(Schema.String, Schema.Literal(...values), {
    strict: true,
    decode: (s, _, ast) => {
      const v = caseInsensitive ? s.toLowerCase() : s
      return (values as ReadonlyArray<string>).includes(v)
        ? ParseResult.succeed(v as V[number])
        : fail(ast, s, `${field} must be one of ${values.join(", ")}, got ${JSON.stringify(s)}`)
    },
    encode: (v) => ParseResult.succeed(v)
  })

/** A string of at most `max` characters. */
export const TextParam = (field: string, max: number) =>
  Schema.transformOrFail(Schema.String, Schema.String, {
    strict: true,
    decode: (s, _, ast) =>
      s.length <= max
        ? ParseResult.succeed(s)
        : fail(ast, s, `${field} must be at most ${max} characters, got ${s.length}`),
    encode: ParseResult.succeed
  })

/** `true` or `false`. */
export const BoolParam = (field: string) =>
  Schema.transformOrFail(Schema.String, Schema.Boolean, {
    strict: true,
    decode: (s, _, ast) =>
      s === "true"
        ? ParseResult.succeed(true)
        : s === "false"
          ? ParseResult.succeed(false)
          : fail(ast, s, `${field} must be true or false, got ${JSON.stringify(s)}`),
    encode: (b) => ParseResult.succeed(String(b))
  })

export const Direction = OneOf("direction", ["asc", "desc"], true)
export const Match = OneOf("match", ["any", "all"], true)
