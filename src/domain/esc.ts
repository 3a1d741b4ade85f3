/**
 * ESC disable settings on the wire. A setting is `{always, with_secret}`; the platform answers the
 * fields that are set (`{"always": true}`, `{"with_secret": "…"}`, both, or `{}` when nothing is).
 *
 * The local platform answers inside the v4 envelope; the platform's docs show a bare object, so the
 * client accepts either (and `result: null`, `always: false`). A POST body is checked by
 * `checkChange` (./esc-change.ts): its failures name the field, the limit and the size.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { checkChange, type EscChange } from "./esc-change.js"

/** A zone's or an account's disable setting; nothing set is `{always: false, with_secret: null}`. */
export interface EscSetting {
  readonly always: boolean
  readonly with_secret: string | null
}

export const NothingSet: EscSetting = { always: false, with_secret: null }

const EscSettingSchema = Schema.Struct({
  always: Schema.Boolean,
  with_secret: Schema.NullOr(Schema.String)
})

/** The fields that are set, as the platform shows them. */
const sparse = (s: EscSetting): { always?: true; with_secret?: string } => ({
  ...(s.always ? { always: true as const } : {}),
  ...(s.with_secret !== null ? { with_secret: s.with_secret } : {})
})

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** A setting from an answer body: the envelope's `result`, or the bare object of the docs. */
const settingFromAnswer = (body: unknown): EscSetting | string => {
  const inner = isRecord(body) && "success" in body && "result" in body ? body.result : body
  if (inner === null || inner === undefined) return { always: false, with_secret: null }
  if (!isRecord(inner)) return "expected an object with always and/or with_secret"
  const { always, with_secret } = inner
  if (always !== undefined && always !== null && typeof always !== "boolean") return "always is not a boolean"
  if (with_secret !== undefined && with_secret !== null && typeof with_secret !== "string")
    return "with_secret is not a string"
  return { always: always === true, with_secret: typeof with_secret === "string" ? with_secret : null }
}

/** The answer of GET, POST and DELETE on `disable_esc`: the setting after the call. */
export const EscAnswer = Schema.transformOrFail(Schema.Unknown, Schema.typeSchema(EscSettingSchema), {
  strict: true,
  decode: (body, _, ast) => {
    const s = settingFromAnswer(body)
    return typeof s === "string" ? ParseResult.fail(new ParseResult.Type(ast, body, s)) : ParseResult.succeed(s)
  },
  encode: (s) => ParseResult.succeed({ result: sparse(s), success: true, errors: [], messages: [] })
})

const ChangeSchema = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("always") }),
  Schema.Struct({ kind: Schema.Literal("secret"), secret: Schema.String })
)

/** The body of POST: `{"always": true}` or `{"with_secret": "…"}`, checked with the platform's messages. */
export const EscChangeBody = Schema.transformOrFail(Schema.Unknown, ChangeSchema, {
  strict: true,
  decode: (body, _, ast) => {
    const c = checkChange(body)
    // `actual` is left out: the body may hold a secret, and no message or log may carry it.
    return Either.isRight(c)
      ? ParseResult.succeed(c.right)
      : ParseResult.fail(new ParseResult.Type(ast, undefined, c.left))
  },
  encode: (c: EscChange) => ParseResult.succeed(c.kind === "always" ? { always: true } : { with_secret: c.secret })
})
