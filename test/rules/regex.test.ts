/** Units: Rust-syntax regular expressions as JavaScript RegExps (validation and byte/Unicode semantics). */
import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { fromText } from "../../src/rules/bytes.js"
import { compileRegex, guardRegexBacktracking } from "../../src/rules/regex.js"

const cases: Array<[string, string, boolean | "err"]> = [
  ["^api\\\\.", "api.example.com", false],
  ["^api\\\\.", "api\\xexample", true],
  ["^api\\.", "api.example.com", true],
  ["(abc", "", "err"],
  ["^/api(?=v1)", "", "err"],
  ["(?u)\\p{Hangul}+", "한", true],
  ["\\p{Hangul}", "", "err"],
  ["(?i)ADMIN", "/admin", true],
  ["ADMIN", "/admin", false],
  ["a(?i)b", "aB", true],
  ["a(?i)b", "AB", false],
  ["[a-z&&[^aeiou]]+$", "xyz", true],
  ["[a-z&&[^aeiou]]+$", "xaz", true],
  ["^[a-z&&[^aeiou]]+$", "xaz", false],
  ["\\d{3}-\\d{4}", "call 555-1234", true],
  ["(?P<year>\\d{4})", "2024", true],
  ["\\1", "", "err"],
  ["\\e", "", "err"],
  ["a**", "aaa", true],
  ["x{2,1}", "", "err"],
  ["[[:alpha:]]+", "abc", true],
  ["[[:^digit:]]", "1", false],
  ["(?x) a b c # comment", "abc", true],
  [".", "\n", false],
  ["(?s).", "\n", true],
  ["\\bfoo\\b", "a foo b", true],
  ["é", "café", true],
  ["caf.$", "café", false],
  ["caf..$", "café", true],
  ["(?u)caf.$", "café", true],
  ["(?i)é", "É", false],
  ["(?iu)é", "É", true],
  ["[é]", "", "err"],
  ["\\xE9", "é", false],
  ["\\xC3\\xA9", "é", true],
  ["a{1000}{1000}", "", "err"],
  ["(?u)\\w{1000}", "", "err"],
  ["[\\d]", "5", true],
  ["[^]a]", "b", true],
  ["[]a]", "]", true],
  ["[a-]", "-", true],
  ["\\<foo\\>", "a foo", true],
  ["*", "", "err"],
  ["(?i)*", "", "err"],
  ["()*", "", true],
  ["^*a", "a", true],
  ["(?<name>a)(?<name>b)", "", "err"],
  ["[a--b]", "a", true],
  ["\\p{L}", "", "err"],
  ["(?u)\\p{Greek}", "α", true],
  ["(?u)\\p{greek}", "α", true],
  ["(?u)\\p{sc=Greek}", "α", true],
  ["(?u)\\pL", "α", true],
  ["(?u)\\p{Nope}", "", "err"],
  ["(?u)[\\p{L}--[a-z]]", "a", false],
  ["(?u)[\\p{L}--[a-z]]", "A", true],
  ["(?i)[^a]", "A", false],
  ["(?m)^b$", "a\nb\nc", true],
  ["^b$", "a\nb\nc", false]
]

describe("regex translation", () => {
  it.each(cases)("%j on %j", (pattern, subject, want) => {
    const r = compileRegex(pattern)
    if (want === "err") {
      expect(Either.isLeft(r)).toBe(true)
      if (Either.isLeft(r)) {
        expect(r.left.start).toBeGreaterThanOrEqual(0)
        expect(r.left.end).toBeLessThanOrEqual(pattern.length)
      }
      return
    }
    expect(Either.isRight(r), Either.isRight(r) ? "" : r.left.message).toBe(true)
    if (Either.isRight(r)) expect(r.right.regexp.test(r.right.unicode ? subject : fromText(subject))).toBe(want)
  })

  it("reports errors with the crate's wording and the offending span", () => {
    const r = compileRegex("ab(?<!x)")
    expect(r).toMatchObject({
      _tag: "Left",
      left: { message: "look-around, including look-ahead and look-behind, is not supported", start: 2, end: 6 }
    })
    expect(compileRegex("[z-a]")).toMatchObject({
      _tag: "Left",
      left: { message: "invalid character class range, the start must be <= the end" }
    })
    expect(compileRegex("(?q)")).toMatchObject({
      _tag: "Left",
      left: { message: "unrecognized flag", start: 2, end: 3 }
    })
    expect(compileRegex("x{")).toMatchObject({ _tag: "Left", left: { message: "unclosed counted repetition" } })
    expect(compileRegex("\\x{110000}")).toMatchObject({
      _tag: "Left",
      left: { message: "hexadecimal literal is not a Unicode scalar value" }
    })
  })

  it("lets V8 fall back to its linear engine on catastrophic backtracking while guarded", () => {
    const release = guardRegexBacktracking()
    try {
      const r = compileRegex("(a+)+$")
      expect(Either.isRight(r)).toBe(true)
      if (Either.isRight(r)) expect(r.right.regexp.test(`${"a".repeat(40)}!`)).toBe(false)
    } finally {
      release()
    }
  })
})
