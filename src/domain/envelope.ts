/**
 * The v4 response envelope. Handlers and services work with bare values; these schemas turn them into
 * the wire shape (`{result, success, errors, messages[, result_info]}`) and back. Decoding is lenient
 * where the real platform is (`errors: null` on some legacy endpoints); encoding is always canonical.
 */
import * as Schema from "effect/Schema"

export const ErrorChainItem = Schema.Struct({ code: Schema.Number, message: Schema.String })

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

export const CursorInfo = Schema.Struct({
  count: Schema.Number,
  cursor: Schema.optional(Schema.NullOr(Schema.String))
})
export type CursorInfo = typeof CursorInfo.Type

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
 * The value side of an envelope transform. The wire side already checks every item on both ways (a
 * decode validates the wire; an encode encodes the items through their schema, which checks them),
 * so checking the value side again would only double the cost of every answer.
 */
const checked = <A>() => Schema.declare((_: unknown): _ is A => true)

export const Envelope = <A, I, R>(result: Schema.Schema<A, I, R>) =>
  Schema.transform(
    Schema.Struct({ result, success: Schema.Boolean, errors: Messages, messages: Messages }),
    checked<A>(),
    {
      strict: true,
      decode: (wire) => wire.result,
      encode: (value) => ({ result: value, success: true, errors: [], messages: [] })
    }
  )

/** What a list without `result_info` (older platform answers) amounts to: everything, on one page. */
const onePage = (count: number): PageInfo => ({ page: 1, per_page: count, count, total_count: count, total_pages: 1 })

export const Paged = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  Schema.transform(
    Schema.Struct({
      result: Schema.Array(item),
      result_info: Schema.optional(PageInfo),
      success: Schema.Boolean,
      errors: Messages,
      messages: Messages
    }),
    checked<Page<A>>(),
    {
      strict: true,
      decode: (wire): Page<A> => ({ items: wire.result, info: wire.result_info ?? onePage(wire.result.length) }),
      encode: (page) => ({ result: page.items, result_info: page.info, success: true, errors: [], messages: [] })
    }
  )

export const CursorPaged = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  Schema.transform(
    Schema.Struct({
      result: Schema.Array(item),
      result_info: CursorInfo,
      success: Schema.Boolean,
      errors: Messages,
      messages: Messages
    }),
    checked<CursorPage<A>>(),
    {
      strict: true,
      decode: (wire): CursorPage<A> => ({ items: wire.result, cursor: wire.result_info.cursor ?? "" }),
      encode: (page) => ({
        result: page.items,
        result_info: { count: page.items.length, cursor: page.cursor },
        success: true,
        errors: [],
        messages: []
      })
    }
  )

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
