/** Units: the KV validation rules (src/kv/validate.ts), each error naming field, limit and actual size. */
import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { problemsError, summarize } from "../../src/kv/problems.js"
import { checkEntry, checkKeyItem, checkPut } from "../../src/kv/entry-checks.js"
import {
  checkKey,
  checkMetadata,
  decodeBase64,
  describeProblem,
  parseMetadataText,
  parseSeconds,
  resolveExpiration,
  type Problem
} from "../../src/kv/validate.js"

const now = 1_800_000_000

/** The value of a result that must have one. */
const rightOf = <A, E>(r: Either.Either<A, E>): A => {
  if (Either.isLeft(r)) throw new Error(`expected a value, got ${JSON.stringify(r.left)}`)
  return r.right
}

/** The refusal of a result that must refuse. */
const leftOf = <A, E>(r: Either.Either<A, E>): E => {
  if (Either.isRight(r)) throw new Error(`expected a refusal, got ${JSON.stringify(r.right)}`)
  return r.left
}

describe("keys", () => {
  it("accepts 1..512 UTF-8 bytes of printable text, unicode included", () => {
    for (const k of ["a", "x".repeat(512), "é".repeat(256), "user:42/profile?x=1", "😀", "...", "a.b", "%2F"])
      expect(checkKey(k)).toBeUndefined()
  })

  it("refuses an empty key, and a key over 512 bytes with its size", () => {
    expect(checkKey("")).toMatchObject({ field: "key", limit: 1, actual: 0 })
    expect(checkKey("x".repeat(513))).toEqual({
      field: "key",
      limit: 512,
      actual: 513,
      message: "key is 513 bytes, the limit is 512 bytes"
    })
    // 257 two-byte characters: 514 bytes, although only 257 characters
    expect(checkKey("é".repeat(257))).toMatchObject({ limit: 512, actual: 514 })
  })

  it('refuses "." and ".."', () => {
    expect(checkKey(".")?.message).toContain('key "." is not allowed')
    expect(checkKey("..")?.actual).toBe("..")
  })

  it("refuses whitespace, control characters and unpaired surrogates, naming the character and its place", () => {
    expect(checkKey("a b")).toMatchObject({
      actual: "U+0020",
      message: expect.stringContaining("whitespace (U+0020) at character 2")
    })
    expect(checkKey("tab\there")?.message).toContain("U+0009")
    expect(checkKey("nb\u00a0sp")?.message).toContain("whitespace (U+00A0)")
    expect(checkKey("bell\u0007")?.message).toContain("a control character (U+0007)")
    expect(checkKey("x\ud800")?.message).toContain("unpaired surrogate")
  })
})

describe("metadata, expiration and TTL", () => {
  it("metadata is a JSON object of at most 1024 bytes serialized", () => {
    expect(rightOf(checkMetadata({ a: 1 }))).toEqual('{"a":1}')
    expect(rightOf(checkMetadata(undefined))).toBeNull()
    expect(leftOf(checkMetadata([1, 2]))).toMatchObject({ field: "metadata", actual: "an array" })
    expect(leftOf(checkMetadata("s"))).toMatchObject({ actual: "a string" })
    // {"v":"..."} is 8 bytes of framing
    expect(rightOf(checkMetadata({ v: "x".repeat(1016) }))).toEqual(`{"v":"${"x".repeat(1016)}"}`)
    expect(leftOf(checkMetadata({ v: "x".repeat(1017) }))).toMatchObject({
      limit: 1024,
      actual: 1025,
      message: "metadata is 1025 bytes as JSON, the limit is 1024 bytes"
    })
  })

  it("metadata text must be JSON and an object", () => {
    expect(rightOf(parseMetadataText('{"a":1,"s":"x"}'))).toEqual('{"a":1,"s":"x"}')
    expect(leftOf(parseMetadataText("{bad")).message).toMatch(/^metadata is not valid JSON \(.*\): \{bad$/)
    expect(leftOf(parseMetadataText("[1,2]"))).toMatchObject({
      message: "metadata must be a JSON object, got an array"
    })
    expect(leftOf(parseMetadataText("null"))).toMatchObject({ actual: "null" })
  })

  it("expiration_ttl is a whole number of at least 60 seconds", () => {
    expect(rightOf(resolveExpiration(undefined, 60, now))).toEqual(now + 60)
    expect(leftOf(resolveExpiration(undefined, 30, now))).toMatchObject({
      field: "expiration_ttl",
      limit: 60,
      actual: 30,
      message: "expiration_ttl is 30 seconds, the minimum is 60"
    })
    expect(leftOf(resolveExpiration(undefined, 0, now))).toMatchObject({ actual: 0 })
    expect(leftOf(resolveExpiration(undefined, -5, now))).toMatchObject({ actual: -5 })
    expect(leftOf(resolveExpiration(undefined, 90.5, now))).toMatchObject({
      message: "expiration_ttl must be a whole number of seconds, got 90.5"
    })
  })

  it("expiration is at least 60 seconds in the future, and not after the year 9999", () => {
    expect(rightOf(resolveExpiration(now + 60, undefined, now))).toEqual(now + 60)
    expect(leftOf(resolveExpiration(1000, undefined, now))).toMatchObject({
      field: "expiration",
      limit: now + 60,
      actual: 1000
    })
    expect(leftOf(resolveExpiration(1000, undefined, now)).message).toContain("seconds in the past")
    expect(leftOf(resolveExpiration(now + 30, undefined, now))).toMatchObject({
      message: expect.stringContaining("only 30 seconds ahead")
    })
    expect(rightOf(resolveExpiration(4_102_444_800, undefined, now))).toEqual(4_102_444_800)
    expect(leftOf(resolveExpiration(253_402_300_800, undefined, now))).toMatchObject({ limit: 253_402_300_799 })
    expect(leftOf(resolveExpiration("1900000000", undefined, now))).toMatchObject({
      message: expect.stringContaining('got "1900000000"')
    })
  })

  it("expiration_ttl wins over expiration", () => {
    expect(rightOf(resolveExpiration(now + 5000, 120, now))).toEqual(now + 120)
    // the losing expiration is not checked against the clock
    expect(rightOf(resolveExpiration(1000, 120, now))).toEqual(now + 120)
  })

  it("numbers given as text (query parameters, options)", () => {
    expect(rightOf(parseSeconds("expiration_ttl", "120"))).toBe(120)
    expect(rightOf(parseSeconds("expiration_ttl", undefined))).toBeUndefined()
    expect(leftOf(parseSeconds("expiration_ttl", "abc"))).toMatchObject({
      message: 'expiration_ttl must be a whole number of seconds, got "abc"'
    })
  })
})

describe("base64", () => {
  it("decodes standard and URL-safe base64, with or without padding, across line breaks", () => {
    expect(Buffer.from(rightOf(decodeBase64("aGVsbG8="))).toString()).toBe("hello")
    expect(Buffer.from(rightOf(decodeBase64("aGVsbG8"))).toString()).toBe("hello")
    expect(Buffer.from(rightOf(decodeBase64("aGVs\nbG8="))).toString()).toBe("hello")
    expect([...rightOf(decodeBase64("-_8="))]).toEqual([0xfb, 0xff])
    expect(rightOf(decodeBase64("")).length).toBe(0)
  })

  it("refuses what is not base64 (wrangler stores garbage bytes instead)", () => {
    expect(leftOf(decodeBase64("@@@not base64!!"))).toMatchObject({
      field: "base64",
      message: expect.stringContaining('"@" at character 1')
    })
    expect(leftOf(decodeBase64("abcde"))).toMatchObject({
      message: expect.stringContaining("5 characters cannot be base64")
    })
    expect(Either.isLeft(decodeBase64("ab=c"))).toBe(true)
    expect(Either.isLeft(decodeBase64("abc=="))).toBe(true)
  })
})

describe("bulk entries", () => {
  it("turns a valid entry into what the store writes", () => {
    const r = checkEntry({ key: "k", value: "aGk=", base64: true, metadata: { m: 1 }, expiration_ttl: 300 }, 0, now)
    expect(r.problems).toEqual([])
    expect(r.entry).toMatchObject({ key: "k", metadata: '{"m":1}', expiration: now + 300 })
    expect(Buffer.from(r.entry!.value).toString()).toBe("hi")
    expect(r.valueBytes).toBe(2)
  })

  it("names every problem of an entry with its index and key", () => {
    const r = checkEntry({ key: "k", value: 1, expiration_ttl: 30, metadata: [1], extra: true }, 7, now)
    expect(r.entry).toBeUndefined()
    expect(r.problems.map((p) => [p.index, p.key, p.field])).toEqual([
      [7, "k", "value"],
      [7, "k", "metadata"],
      [7, "k", "expiration_ttl"]
    ])
    expect(r.unknown).toEqual(["extra"])
    expect(describeProblem(r.problems[2]!)).toBe('entry 7 (key "k"): expiration_ttl is 30 seconds, the minimum is 60')
  })

  it("missing fields, wrong types and non-objects", () => {
    expect(checkEntry({ value: "x" }, 0, now).problems[0]).toMatchObject({ field: "key", message: "key is missing" })
    expect(checkEntry({ key: "a" }, 0, now).problems[0]).toMatchObject({ field: "value", message: "value is missing" })
    expect(checkEntry({ key: 5, value: "x" }, 0, now).problems[0]).toMatchObject({
      message: "key must be a string, got a number"
    })
    expect(checkEntry({ key: "a", value: "x", base64: "yes" }, 0, now).problems[0]).toMatchObject({ field: "base64" })
    expect(checkEntry("just text", 3, now).problems[0]).toMatchObject({ index: 3, field: "entry", actual: "a string" })
  })

  it("counts a value's size as stored (decoded base64) without decoding when only checking", () => {
    const big = Buffer.alloc(26_214_401).toString("base64")
    const r = checkEntry({ key: "big", value: big, base64: true }, 0, now, false)
    expect(r.problems[0]).toMatchObject({ field: "value", limit: 26_214_400, actual: 26_214_401 })
    expect(checkEntry({ key: "ok", value: "x".repeat(26_214_400) }, 0, now, false).problems).toEqual([])
  })

  it("keys of bulk delete and get: strings or {name}", () => {
    expect(rightOf(checkKeyItem("a", 0))).toEqual("a")
    expect(rightOf(checkKeyItem({ name: "b" }, 1))).toEqual("b")
    expect(leftOf(checkKeyItem(5, 2))).toMatchObject({ index: 2, field: "key", actual: "a number" })
    expect(leftOf(checkKeyItem({ x: 1 }, 3))).toMatchObject({ index: 3, actual: "an object" })
    expect(leftOf(checkKeyItem("", 4))).toMatchObject({ index: 4, key: "" })
  })
})

describe("single puts and summaries", () => {
  it("checkPut gives the stored metadata and expiration, or every problem", () => {
    expect(rightOf(checkPut({ key: "k", valueBytes: 3, metadata: { a: 1 }, expirationTtl: 60 }, now))).toEqual({
      metadata: '{"a":1}',
      expiration: now + 60
    })
    const bad = leftOf(checkPut({ key: "", valueBytes: 26_214_401, expirationTtl: 10 }, now))
    expect(bad.map((p) => p.field)).toEqual(["key", "value", "expiration_ttl"])
  })

  it("one summary line: entries, the first three problems, how many more; codes by field", () => {
    const problems = [0, 1, 2, 3, 4].flatMap(
      (i) => checkEntry({ key: `k${i}`, value: "v", expiration_ttl: 1 }, i, now).problems
    )
    expect(summarize(problems)).toBe(
      '5 invalid entries, nothing was written: entry 0 (key "k0"): expiration_ttl is 1 seconds, the minimum is 60; entry 1 (key "k1"): expiration_ttl is 1 seconds, the minimum is 60; entry 2 (key "k2"): expiration_ttl is 1 seconds, the minimum is 60; and 2 more problems'
    )
    const e = problemsError(problems)
    expect(e.code).toBe(1004)
    expect((e.meta as { problems: Array<Problem> }).problems).toHaveLength(5)
    expect(problemsError(checkEntry({ key: "", value: "v" }, 0, now).problems).code).toBe(10022)
    expect(problemsError([{ ...checkEntry({ key: "a", value: "v", metadata: 1 }, 0, now).problems[0]! }]).code).toBe(
      10030
    )
  })
})
