/**
 * The contract's error schemas (`Wire.*`) are built as ASTs under one schema class each (a cold
 * start creates no class per step): they must stay what the schema combinators build, node for
 * node, and decode and encode the same.
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { Schema } from "effect"
import * as AST from "effect/SchemaAST"
import { describe, expect, it } from "vitest"
import { Wire } from "../../src/api/contract-core.js"
import { FailureEnvelope } from "../../src/domain/envelope.js"
import {
  ErrorTable,
  fromFailure,
  toFailureEnvelope,
  V4ErrorClasses,
  type V4Error,
  type V4ErrorTag
} from "../../src/domain/errors.js"

/** The error schema as the combinators build it. */
const combinators = (tag: V4ErrorTag) => {
  const cls = V4ErrorClasses[tag]
  const error = Schema.declare((u): u is V4Error => u instanceof cls, { identifier: tag })
  return Schema.transform(FailureEnvelope, error, {
    strict: false,
    decode: (env) => fromFailure(ErrorTable[tag].status, env.errors),
    encode: (e) => toFailureEnvelope(e)
  }).annotations(HttpApiSchema.annotations({ status: ErrorTable[tag].status }))
}

type WireTag = keyof typeof Wire
const tags = Object.keys(Wire) as ReadonlyArray<WireTag>
/** One tag's schema, typed as any tag's (each is its own tag's type). */
const wireOf = (tag: WireTag) => Wire[tag] as unknown as Schema.Schema<V4Error, typeof FailureEnvelope.Encoded>

describe("Wire error schemas", () => {
  it("names every error of the table a platform can answer (NoAnswer is the client's own: never on the wire)", () => {
    // An answered error has an HTTP status (Gone has no code of the platform's, but a status).
    const answered = (Object.keys(V4ErrorClasses) as Array<V4ErrorTag>).filter((t) => ErrorTable[t].status > 0)
    expect([...tags].sort()).toEqual(answered.sort())
  })

  it.each(tags)("%s: the combinators' AST, its status and identifier", (tag) => {
    const ours = Wire[tag].ast as AST.Transformation
    const theirs = combinators(tag).ast as AST.Transformation
    expect(ours._tag).toBe("Transformation")
    expect(ours.from).toBe(FailureEnvelope.ast)
    expect(ours.annotations).toEqual(theirs.annotations)
    expect(ours.to._tag).toBe(theirs.to._tag)
    expect(ours.to.annotations).toEqual(theirs.to.annotations)
    expect((ours.to as AST.Declaration).typeParameters).toEqual([])
    expect(ours.transformation._tag).toBe(theirs.transformation._tag)
    expect(HttpApiSchema.getStatusError(Wire[tag])).toBe(ErrorTable[tag].status)
    expect(AST.getIdentifierAnnotation(ours.to)).toEqual(AST.getIdentifierAnnotation(theirs.to))
  })

  it.each(tags)("%s: decodes and encodes as the combinators' schema does", (tag) => {
    const envelope = {
      success: false as const,
      errors: [{ code: ErrorTable[tag].codes[0], message: `a ${tag}`, meta: { id: "x" } }]
    }
    const decoded = Schema.decodeUnknownSync(wireOf(tag))(envelope)
    expect(decoded).toEqual(Schema.decodeUnknownSync(combinators(tag))(envelope))
    expect(decoded).toBeInstanceOf(V4ErrorClasses[tag])
    expect(Schema.encodeSync(wireOf(tag))(decoded)).toEqual(Schema.encodeSync(combinators(tag))(decoded))
    expect(Schema.is(wireOf(tag))(decoded)).toBe(true)
    // Another tag's error is not this one's (an endpoint's errors are told apart by their type side).
    const other = tags.find((t) => t !== tag)!
    const otherError = Schema.decodeUnknownSync(wireOf(other))({
      success: false,
      errors: [{ code: ErrorTable[other].codes[0], message: "other" }]
    })
    expect(Schema.is(wireOf(tag))(otherError)).toBe(otherError instanceof V4ErrorClasses[tag])
    expect(() => Schema.encodeSync(wireOf(tag))(otherError as never)).toThrow(new RegExp(`Expected ${tag}`))
  })
})
