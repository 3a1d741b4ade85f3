/**
 * The envelope schemas are built as ASTs under one schema class each (a cold start creates no class
 * per combinator step): their wire side must stay what `Schema.Struct` builds, node for node, and
 * they decode and encode as before.
 */
import { Schema } from "effect"
import * as AST from "effect/SchemaAST"
import { describe, expect, it } from "vitest"
import { Account } from "../../src/domain/account.js"
import { CursorPaged, Envelope, ErrorItem, PageInfo, Paged } from "../../src/domain/envelope.js"

const Messages = Schema.transform(Schema.NullOr(Schema.Array(ErrorItem)), Schema.Array(ErrorItem), {
  strict: true,
  decode: (m) => m ?? [],
  encode: (m) => m
})
const account = { id: "a".repeat(32), name: "Acme" }

/** A wire side's fields: name, optional, read-only, and the field's AST kind. */
const fieldsOf = (ast: AST.AST) =>
  (ast as AST.TypeLiteral).propertySignatures.map((p) => [p.name, p.isOptional, p.isReadonly, p.type._tag])

describe("envelope schemas built as ASTs", () => {
  it("Envelope: the wire side is Schema.Struct's, the value side the result itself", () => {
    const ours = Envelope(Account).ast as AST.Transformation
    const theirs = Schema.Struct({ result: Account, success: Schema.Boolean, errors: Messages, messages: Messages }).ast
    expect(ours._tag).toBe("Transformation")
    expect(ours.annotations).toEqual({})
    expect(fieldsOf(ours.from)).toEqual(fieldsOf(theirs))
    expect((ours.from as AST.TypeLiteral).propertySignatures[0]!.type).toBe(Account.ast)
    expect((ours.from as AST.TypeLiteral).indexSignatures).toEqual([])
    expect(ours.to._tag).toBe("Declaration")
    expect(AST.encodedAST(ours)).toEqual(AST.encodedAST(theirs))
  })

  it("Envelope: one way and back, `null` errors accepted, a bad result refused naming its field", () => {
    const wire = Schema.encodeSync(Envelope(Account))(account)
    expect(wire).toEqual({ result: account, success: true, errors: [], messages: [] })
    expect(Schema.decodeUnknownSync(Envelope(Account))({ ...wire, errors: null, messages: null })).toEqual(account)
    expect(() => Schema.decodeUnknownSync(Envelope(Account))({ ...wire, result: { id: 1 } })).toThrow(/\["result"\]/)
  })

  it("Paged and CursorPaged: their wire fields, and pages one way and back", () => {
    const paged = Paged(Account).ast as AST.Transformation
    expect(fieldsOf(paged.from)).toEqual([
      ["result", false, true, "TupleType"],
      ["result_info", true, true, "Union"],
      ["success", false, true, "BooleanKeyword"],
      ["errors", false, true, "Transformation"],
      ["messages", false, true, "Transformation"]
    ])
    const info = { page: 1, per_page: 20, count: 1, total_count: 1, total_pages: 1 }
    const page = { items: [account], info }
    const wire = Schema.encodeSync(Paged(Account))(page)
    expect(wire).toEqual({ result: [account], result_info: info, success: true, errors: [], messages: [] })
    expect(Schema.decodeUnknownSync(Paged(Account))(wire)).toEqual(page)
    expect(Schema.decodeUnknownSync(Paged(Account))({ ...wire, result_info: undefined }).info.total_count).toBe(1)
    expect(Schema.decodeUnknownSync(PageInfo)(info)).toEqual(info)

    const cursor = { items: [account], cursor: "c1" }
    const cwire = Schema.encodeSync(CursorPaged(Account))(cursor)
    expect(cwire.result_info).toEqual({ count: 1, cursor: "c1" })
    expect(Schema.decodeUnknownSync(CursorPaged(Account))(cwire)).toEqual(cursor)
    expect(() => Schema.decodeUnknownSync(CursorPaged(Account))({ ...cwire, result: "x" })).toThrow(/\["result"\]/)
  })
})
