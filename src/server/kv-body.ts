/**
 * Request bodies of the KV endpoints that read their own: a value (raw bytes, or a multipart form
 * with `value` and `metadata`, as wrangler and the SDK send them) and bulk JSON arrays (read as they
 * arrive, item by item: src/kv/bulk-body.ts), each within its size limit.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Multipart from "@effect/platform/Multipart"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { InvalidInput } from "../domain/errors.js"
import { BulkMaxBytes, ValueMaxBytes } from "../domain/kv-limits.js"
import { bodyTooLarge, forEachChunk, readLimited, TooLarge, tooDeep } from "./body-guard.js"
import { BulkBodyReader, type BulkBodyFailure } from "../kv/bulk-body.js"
import { checkValueSize, type FieldIssue, locate, parseMetadataText, checkMetadata } from "../kv/validate.js"
import { problemsError } from "../kv/problems.js"

interface ValueBody {
  readonly value: Uint8Array
  /** JSON text of the metadata, null when none was sent. */
  readonly metadata: string | null
}

const fail = (i: FieldIssue, key: string) => Effect.fail(problemsError([locate(i, undefined, key)]))

/**
 * `metadata[a]=1&metadata[b][c]=x&metadata[d][]=y` back into `{a: "1", b: {c: "x"}, d: ["y"]}`:
 * the SDK flattens a metadata object into such fields (every value becomes a string).
 */
const bracketMetadata = (fields: ReadonlyArray<readonly [string, string]>): Record<string, unknown> | undefined => {
  let root: Record<string, unknown> | undefined
  for (const [name, value] of fields) {
    const m = /^metadata((?:\[[^\]]*\])+)$/.exec(name)
    if (m === null) continue
    root ??= {}
    const path = [...m[1]!.matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]!)
    let node: Record<string, unknown> | Array<unknown> = root
    for (let i = 0; i < path.length; i++) {
      const part = path[i]!
      const last = i === path.length - 1
      const next: unknown = last ? value : path[i + 1] === "" ? [] : {}
      if (Array.isArray(node)) {
        if (last) node.push(value)
        else {
          node.push(next)
          node = next as Record<string, unknown>
        }
      } else if (last) node[part] = value
      else {
        const existing = node[part]
        node = (typeof existing === "object" && existing !== null ? existing : (node[part] = next)) as Record<
          string,
          unknown
        >
      }
    }
  }
  return root
}

interface FormPart {
  readonly name: string
  readonly bytes: Uint8Array | undefined
  readonly text: string | undefined
}

/** The value and metadata of a PUT …/values/:key, whichever way they were sent. */
export const readValueBody = (request: HttpServerRequest.HttpServerRequest, key: string) =>
  Effect.gen(function* () {
    const type = (request.headers["content-type"] ?? "").toLowerCase()
    if (!type.startsWith("multipart/form-data")) {
      // Stored verbatim, whatever the content type says (the platform does the same).
      // A chunked value is refused once it crosses the limit: its size then is what was read so far.
      const bytes = yield* readLimited(request, ValueMaxBytes).pipe(
        Effect.catchIf(
          (e): e is TooLarge => e instanceof TooLarge,
          (e) => fail(checkValueSize(e.size)!, key)
        )
      )
      return { value: bytes, metadata: null } satisfies ValueBody
    }
    const parts = yield* Stream.runCollect(
      Multipart.withLimitsStream(request.multipartStream, {
        maxParts: Option.some(256),
        maxFieldSize: ValueMaxBytes + 1,
        maxFileSize: Option.some(ValueMaxBytes + 1)
      }).pipe(
        Stream.mapEffect((part): Effect.Effect<FormPart, Multipart.MultipartError> =>
          Multipart.isFile(part)
            ? Effect.map(part.contentEffect, (bytes) => ({ name: part.key, bytes, text: undefined }))
            : Effect.succeed({ name: part.key, bytes: undefined, text: (part as Multipart.Field).value })
        )
      )
    ).pipe(
      Effect.mapError((e: Multipart.MultipartError) =>
        e.reason === "FieldTooLarge" || e.reason === "FileTooLarge"
          ? problemsError([locate(checkValueSize(ValueMaxBytes + 1)!, undefined, key)])
          : new InvalidInput({ message: `invalid multipart body: ${e.reason}` })
      )
    )
    const list = [...parts]
    const valuePart = list.find((p) => p.name === "value")
    if (valuePart === undefined) {
      return yield* Effect.fail(new InvalidInput({ message: 'the multipart form has no "value" part' }))
    }
    const value = valuePart.bytes ?? Buffer.from(valuePart.text ?? "", "utf8")
    const big = checkValueSize(value.length)
    if (big !== undefined) return yield* fail(big, key)
    const metaPart = list.find((p) => p.name === "metadata")
    let metadata: string | null = null
    if (metaPart !== undefined) {
      const text = metaPart.text ?? Buffer.from(metaPart.bytes ?? new Uint8Array()).toString("utf8")
      const parsed = parseMetadataText(text)
      if (Either.isLeft(parsed)) return yield* fail(parsed.left, key)
      metadata = parsed.right
    } else {
      const fields = list.filter((p) => p.text !== undefined).map((p) => [p.name, p.text!] as const)
      const object = bracketMetadata(fields)
      if (object !== undefined) {
        const checked = checkMetadata(object)
        if (Either.isLeft(checked)) return yield* fail(checked.left, key)
        metadata = checked.right
      }
    }
    return { value, metadata } satisfies ValueBody
  })

/** The platform's words for a bulk body that cannot be taken as a whole. */
const refusal = (f: BulkBodyFailure, what: string, maxItems: number) => {
  switch (f._tag) {
    case "NotJson":
      return new InvalidInput({ message: `invalid request body: not JSON (${f.reason}, at byte ${f.offset})` })
    case "NotArray":
      return new InvalidInput({ message: `the request body must be a JSON array of ${what}, got ${f.got}` })
    case "TooDeep":
      return tooDeep("the request body")
    case "TooMany":
      return new InvalidInput({ message: `a bulk request takes at most ${maxItems} ${what}, got ${f.count}; split it` })
  }
}

/**
 * A bulk body, a JSON array of at most `maxItems` items and 100 MB, read as it arrives: each item
 * goes to `onItem`, in order, as soon as it is parsed (the caller checks and keeps it). Answers the
 * number of items once the whole body is read and valid as a whole.
 */
export const readBulkItems = (
  request: HttpServerRequest.HttpServerRequest,
  what: "entries" | "keys",
  maxItems: number,
  onItem: (item: unknown, index: number) => void
) =>
  Effect.gen(function* () {
    const reader = new BulkBodyReader(maxItems, onItem)
    yield* forEachChunk(request, BulkMaxBytes, (chunk) => reader.push(chunk)).pipe(
      Effect.mapError((e) => (e instanceof TooLarge ? bodyTooLarge("the request body", BulkMaxBytes, e.size) : e))
    )
    const failure = reader.end()
    if (failure !== undefined) return yield* Effect.fail(refusal(failure, what, maxItems))
    return reader.count
  })
