/** Units: the envelope schemas and the error table, both directions. */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Account } from "../../src/domain/account.js"
import { CursorPaged, Envelope, Paged, pageInfo } from "../../src/domain/envelope.js"
import {
  ApiError,
  ErrorTable,
  fromFailure,
  InvalidCredentials,
  MalformedCredentials,
  NotFound,
  RateLimited,
  statusOf,
  toFailureEnvelope,
  V4ErrorClasses,
  type V4Error
} from "../../src/domain/errors.js"
import { IntParam, OneOf } from "../../src/domain/params.js"

describe("envelope", () => {
  const account = { id: "a".repeat(32), name: "Acme" }

  it("encodes a bare value into the v4 envelope and decodes it back", () => {
    const wire = Schema.encodeSync(Envelope(Account))(account)
    expect(wire).toEqual({ result: account, success: true, errors: [], messages: [] })
    expect(Schema.decodeUnknownSync(Envelope(Account))(wire)).toEqual(account)
  })

  it("accepts null errors and messages on decode (legacy endpoints answer them)", () => {
    expect(
      Schema.decodeUnknownSync(Envelope(Account))({ result: account, success: true, errors: null, messages: null })
    ).toEqual(account)
  })

  it("pages carry result_info; cursor pages carry an empty cursor on the last page", () => {
    const page = { items: [account], info: pageInfo(3, 20, 41, 1) }
    const wire = Schema.encodeSync(Paged(Account))(page)
    expect(wire.result_info).toEqual({ page: 3, per_page: 20, count: 1, total_count: 41, total_pages: 3 })
    expect(Schema.decodeUnknownSync(Paged(Account))(wire)).toEqual(page)
    const cursor = Schema.encodeSync(CursorPaged(Schema.String))({ items: ["a"], cursor: "" })
    expect(cursor.result_info).toEqual({ count: 1, cursor: "" })
    expect(Schema.decodeUnknownSync(CursorPaged(Schema.String))({ ...cursor, result_info: { count: 1 } }).cursor).toBe(
      ""
    )
  })
})

/** The errors a platform answers: every tag but NoAnswer, the client's own (a request with no answer). */
const answered = Object.keys(V4ErrorClasses).filter((tag) => tag !== "NoAnswer")

describe("error table", () => {
  it("has a status and at least one code for every error a platform answers (Gone: its 410 alone); NoAnswer has neither", () => {
    for (const tag of answered) {
      const row = ErrorTable[tag as keyof typeof ErrorTable]
      expect(row.status).toBeGreaterThanOrEqual(400)
      // The platform documents no code for an ended API's 410 (deprecations.md, DEP-RLOLD).
      if (tag === "Gone") expect(row).toEqual({ status: 410, codes: [] })
      else expect(row.codes.length).toBeGreaterThan(0)
    }
    expect(ErrorTable.NoAnswer).toEqual({ status: 0, codes: [] })
  })

  it("round-trips every error through the failure envelope to the same tag, code and own fields", () => {
    // The fields some errors carry besides code, message, chain and meta, as the wire keeps them.
    const own: Partial<Record<string, Record<string, unknown>>> = {
      DuplicateFilter: { existingId: "0123456789abcdef0123456789abcdef" },
      InvalidExpression: {
        diagnostics: [
          { severity: "error", code: "unknown-field", message: "unknown field", range: { start: 0, end: 3 } }
        ]
      },
      QuotaExceeded: { filterId: "fedcba9876543210fedcba9876543210" }
    }
    for (const [tag, cls] of Object.entries(V4ErrorClasses).filter(([tag]) => answered.includes(tag))) {
      const e = new (cls as unknown as new (p: Record<string, unknown>) => V4Error)({
        message: `a ${tag}`,
        ...own[tag]
      })
      expect(e._tag).toBe(tag)
      expect(e).toBeInstanceOf(Error)
      expect(e.message).toBe(`a ${tag}`)
      const env = toFailureEnvelope(e)
      expect(env.success).toBe(false)
      expect(env.errors[0]!.code).toBe(ErrorTable[tag as keyof typeof ErrorTable].codes[0])
      const back = fromFailure(statusOf(e), env.errors)
      expect(back._tag).toBe(tag)
      expect(back.code).toBe(e.code)
      expect(back.message).toBe(e.message)
      for (const [k, v] of Object.entries(own[tag] ?? {}))
        expect((back as unknown as Record<string, unknown>)[k]).toEqual(v)
    }
    // Defaults: the tag's first code, an empty existingId and diagnostics, status 500 for ApiError.
    expect(new V4ErrorClasses.DuplicateFilter({ message: "m" }).existingId).toBe("")
    expect(new V4ErrorClasses.InvalidExpression({ message: "m" }).diagnostics).toEqual([])
    expect(new V4ErrorClasses.ApiError({ message: "m" }).status).toBe(500)
    expect(new V4ErrorClasses.NotFound({ message: "m", code: 10009 }).code).toBe(10009)
  })

  it("keeps the error chain and picks the tag by code and status", () => {
    const e = new MalformedCredentials({
      message: "Invalid request headers",
      chain: [{ code: 6111, message: "Invalid format for Authorization header" }]
    })
    const env = toFailureEnvelope(e)
    expect(env.errors[0]).toEqual({
      code: 6003,
      message: "Invalid request headers",
      error_chain: [{ code: 6111, message: "Invalid format for Authorization header" }]
    })
    expect(fromFailure(400, env.errors)).toBeInstanceOf(MalformedCredentials)
    expect(fromFailure(403, [{ code: 9103, message: "Unknown X-Auth-Key or X-Auth-Email" }])).toBeInstanceOf(
      InvalidCredentials
    )
    expect(fromFailure(404, [{ code: 10013, message: "namespace not found" }])).toBeInstanceOf(NotFound)
    const limited = fromFailure(429, [{ code: 10013, message: "rate limited" }], 3)
    expect(limited).toBeInstanceOf(RateLimited)
    expect((limited as RateLimited).retryAfter).toBe(3)
  })

  it("maps unknown codes by status, and anything else to ApiError with its status", () => {
    expect(fromFailure(404, [{ code: 99999, message: "gone" }])._tag).toBe("NotFound")
    const other = fromFailure(502, [{ message: "bad gateway" }])
    expect(other).toBeInstanceOf(ApiError)
    expect((other as ApiError).status).toBe(502)
    expect(fromFailure(500, []).message).toContain("HTTP 500")
  })
})

describe("parameter schemas", () => {
  it("name the parameter, the limit and the value", () => {
    const perPage = Schema.decodeUnknownEither(IntParam("per_page", 5, 50))
    const ok = perPage("20")
    expect(ok._tag === "Right" && ok.right).toBe(20)
    const tooBig = perPage("51")
    expect(tooBig._tag).toBe("Left")
    expect(String((tooBig as { left: unknown }).left)).toContain("per_page must be between 5 and 50, got 51")
    expect(String((perPage("x") as { left: unknown }).left)).toContain('per_page must be an integer, got "x"')
    const dir = Schema.decodeUnknownSync(OneOf("direction", ["asc", "desc"], true))
    expect(dir("DESC")).toBe("desc")
    expect(() => dir("up")).toThrow('direction must be one of asc, desc, got "up"')
  })
})
