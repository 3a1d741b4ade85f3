/**
 * The v4 response envelope. Handlers and services work with bare values; these schemas turn them into
 * the wire shape (`{result, success, errors, messages[, result_info]}`) and back. Decoding is lenient
 * where the real platform is (`errors: null` on some legacy endpoints); encoding is always canonical.
 */
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

const ErrorChainItem = Schema.Struct({ code: Schema.Number, message: Schema.String })

export const ErrorItem = Schema.Struct({
  code: Schema.optional(Schema.Number),
  message: Schema.String,
  documentation_url: Schema.optional(Schema.String),
  source: Schema.optional(Schema.Struct({ pointer: Schema.optional(Schema.String) })),
  error_chain: Schema.optional(Schema.Array(ErrorChainItem)),
  meta: Schema.optional(Schema.Unknown)
})
export type ErrorItem = typeof ErrorItem.Type

/** Arrays on the way out; `null` accepted on the way in (legacy endpoints answer it). */
const Messages = Schema.transform(Schema.NullOr(Schema.Array(ErrorItem)), Schema.Array(ErrorItem), {
  strict: true,
  decode: (m) => m ?? [],
  encode: (m) => m
})

const PageInfoFields = {
  page: Schema.Number,
  per_page: Schema.Number,
  count: Schema.Number,
  total_count: Schema.Number,
  total_pages: Schema.Number
}

/**
 * Sent whole; read without `total_pages` too, which older platform answers (DNS records, WAF
 * packages) leave out: it is then worked out from `total_count` and `per_page`.
 */
export const PageInfo = Schema.transform(
  Schema.Struct({ ...PageInfoFields, total_pages: Schema.optional(Schema.Number) }),
  Schema.Struct(PageInfoFields),
  {
    strict: true,
    decode: (w) => ({
      ...w,
      total_pages: w.total_pages ?? (w.per_page > 0 ? Math.ceil(w.total_count / w.per_page) : 0)
    }),
    encode: (v) => v
  }
)
export type PageInfo = typeof PageInfo.Type

const CursorInfo = Schema.Struct({
  count: Schema.Number,
  cursor: Schema.optional(Schema.NullOr(Schema.String))
})
type CursorInfo = typeof CursorInfo.Type

/** A page of items as services see it. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly info: PageInfo
}

/** A cursor page of items as services see it; `cursor` is empty on the last page. */
export interface CursorPage<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor: string
}

/**
 * An envelope schema: `Schema.transform(wire, Schema.declare(() => true), { decode, encode })`, built
 * as that AST under one schema class. The combinators create two classes per step, and every
 * endpoint has an envelope: ~6 classes each were a measurable share of a cold start.
 *
 * The value side is not checked: the wire side already checks every item on both ways (a decode
 * validates the wire; an encode encodes the items through their schema, which checks them), so
 * checking the value side again would only double the cost of every answer.
 */
const envelopeOf = <A, W, I, R>(wire: AST.AST, decode: (wire: W) => A, encode: (value: A) => W) => {
  const unchecked = () => (input: unknown) => ParseResult.succeed(input)
  return Schema.make<A, I, R>(
    new AST.Transformation(
      wire,
      new AST.Declaration([], unchecked, unchecked, {}),
      new AST.FinalTransformation(
        (w) => ParseResult.succeed(decode(w as W)),
        (v) => ParseResult.succeed(encode(v as A))
      )
    )
  )
}

/** `Schema.Struct(fields)`'s AST, for fields that are all plain schemas (required, read-only). */
const structAst = (fields: Record<string, Schema.Schema.Any>) =>
  new AST.TypeLiteral(
    Object.keys(fields).map((key) => new AST.PropertySignature(key, fields[key]!.ast, false, true)),
    []
  )

interface EnvelopeWire<I> {
  readonly result: I
  readonly success: boolean
  readonly errors: ReadonlyArray<ErrorItem>
  readonly messages: ReadonlyArray<ErrorItem>
}

export const Envelope = <A, I, R>(result: Schema.Schema<A, I, R>) =>
  envelopeOf<A, EnvelopeWire<A>, EnvelopeWire<I>, R>(
    structAst({ result, success: Schema.Boolean, errors: Messages, messages: Messages }),
    (wire) => wire.result,
    (value) => ({ result: value, success: true, errors: [], messages: [] })
  )

/** What a list without `result_info` (older platform answers) amounts to: everything, on one page. */
const onePage = (count: number): PageInfo => ({ page: 1, per_page: count, count, total_count: count, total_pages: 1 })

export const Paged = <A, I, R>(item: Schema.Schema<A, I, R>) => {
  const wire = Schema.Struct({
    result: Schema.Array(item),
    result_info: Schema.optional(PageInfo),
    success: Schema.Boolean,
    errors: Messages,
    messages: Messages
  })
  return envelopeOf<Page<A>, typeof wire.Type, typeof wire.Encoded, R>(
    wire.ast,
    (wire): Page<A> => ({ items: wire.result, info: wire.result_info ?? onePage(wire.result.length) }),
    (page) => ({ result: page.items, result_info: page.info, success: true, errors: [], messages: [] })
  )
}

const isCount = (u: unknown): u is number => typeof u === "number"

/**
 * A `Paged` success envelope read without its schema, its items as they are (the client's
 * `callPage`, for answers this process encoded): `undefined` when the envelope is not exactly the
 * canonical one `Paged` encodes (then the schema decodes it, and says what is wrong).
 */
export const trustedPage = (body: unknown): Page<unknown> | undefined => {
  if (typeof body !== "object" || body === null) return undefined
  const b = body as Record<string, unknown>
  const i = b.result_info as Record<string, unknown> | null | undefined
  if (
    b.success !== true ||
    !Array.isArray(b.result) ||
    !Array.isArray(b.errors) ||
    !Array.isArray(b.messages) ||
    typeof i !== "object" ||
    i === null ||
    !isCount(i.page) ||
    !isCount(i.per_page) ||
    !isCount(i.count) ||
    !isCount(i.total_count) ||
    !isCount(i.total_pages)
  )
    return undefined
  return {
    items: b.result,
    info: { page: i.page, per_page: i.per_page, count: i.count, total_count: i.total_count, total_pages: i.total_pages }
  }
}

export const CursorPaged = <A, I, R>(item: Schema.Schema<A, I, R>) => {
  const wire = Schema.Struct({
    result: Schema.Array(item),
    result_info: CursorInfo,
    success: Schema.Boolean,
    errors: Messages,
    messages: Messages
  })
  return envelopeOf<CursorPage<A>, typeof wire.Type, typeof wire.Encoded, R>(
    wire.ast,
    (wire): CursorPage<A> => ({ items: wire.result, cursor: wire.result_info.cursor ?? "" }),
    (page) => ({
      result: page.items,
      result_info: { count: page.items.length, cursor: page.cursor },
      success: true,
      errors: [],
      messages: []
    })
  )
}

/** The failure envelope, as the platform sends it. */
export const FailureEnvelope = Schema.Struct({
  result: Schema.optional(Schema.Unknown),
  success: Schema.Literal(false),
  errors: Schema.Array(ErrorItem),
  messages: Schema.optional(Messages)
})
export type FailureEnvelope = typeof FailureEnvelope.Type

/** Page arithmetic shared by every page-based list on the server. */
export const pageInfo = (page: number, perPage: number, totalCount: number, count: number): PageInfo => ({
  page,
  per_page: perPage,
  count,
  total_count: totalCount,
  total_pages: Math.ceil(totalCount / perPage)
})
