/** Units of area B: the POST body check, Cookie parsing, the decision, the removal date, masking, answers. */
import * as Either from "effect/Either"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import bareAlways from "../../fixtures/esc/esc-zone-get.json" with { type: "json" }
import bareSecret from "../../fixtures/esc/esc-zone-get-with-secret.json" with { type: "json" }
import { EscAnswer, EscChangeBody, NothingSet, type EscSetting } from "../../src/domain/esc.js"
import { checkChange, checkSecret } from "../../src/domain/esc-change.js"
import { cookieValues, parseCookies } from "../../src/esc/cookies.js"
import { decide } from "../../src/esc/decide.js"
import { maskCookieHeader, maskSecret } from "../../src/esc/mask.js"
import { removalStatus } from "../../src/esc/removal.js"
import { exampleText, Replacements, RequestPhases, ResponsePhases } from "../../src/esc/replacements.js"
import { clockFromEnv } from "../../src/server/clock.js"

const refusal = (body: unknown) => {
  const r = checkChange(body)
  if (Either.isRight(r)) throw new Error(`accepted ${JSON.stringify(body)}`)
  return r.left
}

describe("POST body", () => {
  it("accepts exactly {always: true} or {with_secret} of 1..100 cookie-safe characters", () => {
    expect(checkChange({ always: true })).toEqual(Either.right({ kind: "always" }))
    expect(checkChange({ with_secret: "MySecretString321#" })).toEqual(
      Either.right({ kind: "secret", secret: "MySecretString321#" })
    )
    expect(checkChange({ with_secret: "x" })).toMatchObject({ _tag: "Right" })
    expect(checkChange({ with_secret: "x".repeat(100) })).toMatchObject({ _tag: "Right" })
    expect(checkChange({ with_secret: "!#$%&'()*+-./09:<=>?@AZ[]^_`az{|}~" })).toMatchObject({ _tag: "Right" })
  })

  it("refuses always: false, naming the field and what turns ESC on instead", () => {
    expect(refusal({ always: false })).toBe("always must be true, got false: DELETE turns ESC on again")
  })

  it("refuses a non-boolean always, saying what it got without its content", () => {
    expect(refusal({ always: "true" })).toBe("always must be the boolean true, got a string of 4 characters")
    expect(refusal({ always: 1 })).toBe("always must be the boolean true, got a number")
    expect(refusal({ always: null })).toBe("always must be the boolean true, got null")
  })

  it("refuses both fields together", () => {
    expect(refusal({ always: true, with_secret: "abc" })).toMatch(/^send either "always" or "with_secret", not both/)
  })

  it("refuses a 101-character secret with the limit and the size, not the secret", () => {
    const secret = "s".repeat(101)
    const m = refusal({ with_secret: secret })
    expect(m).toBe("with_secret must be at most 100 characters, got 101")
    expect(m).not.toContain("sss")
  })

  it("counts characters, not bytes or UTF-16 units", () => {
    expect(refusal({ with_secret: "😀".repeat(101) })).toBe("with_secret must be at most 100 characters, got 101")
  })

  it("refuses an empty secret and a non-string secret", () => {
    expect(refusal({ with_secret: "" })).toBe("with_secret must be 1 to 100 characters, got an empty string")
    expect(refusal({ with_secret: 12345 })).toBe("with_secret must be a string of 1 to 100 characters, got a number")
    expect(refusal({ with_secret: null })).toBe("with_secret must be a string of 1 to 100 characters, got null")
    expect(refusal({ with_secret: ["a"] })).toBe(
      "with_secret must be a string of 1 to 100 characters, got an array of 1 item"
    )
    expect(refusal({ with_secret: true })).toBe("with_secret must be a string of 1 to 100 characters, got true")
  })

  it("refuses a secret a Cookie header could not carry, naming the character kind and position only", () => {
    const m = refusal({ with_secret: "top secret" })
    expect(m).toMatch(
      /^with_secret must use only characters a cookie value can carry .* got a space at position 4 of 10$/
    )
    expect(m).not.toContain("top")
    expect(refusal({ with_secret: "a;b" })).toMatch(/got a semicolon at position 2 of 3$/)
    expect(refusal({ with_secret: 'a"b' })).toMatch(/got a double quote at position 2 of 3$/)
    expect(refusal({ with_secret: "a,b" })).toMatch(/got a comma/)
    expect(refusal({ with_secret: "a\\b" })).toMatch(/got a backslash/)
    expect(refusal({ with_secret: "a\nb" })).toMatch(/got a control character/)
    expect(refusal({ with_secret: "café" })).toMatch(/got a non-ASCII character at position 4 of 4$/)
  })

  it("refuses unknown fields by name, an empty object, and anything that is not an object", () => {
    expect(refusal({ always: true, expires: 3 })).toMatch(/^unknown field "expires": the body takes only/)
    expect(refusal({ a: 1, b: 2 })).toMatch(/^unknown fields "a", "b"/)
    expect(refusal({})).toMatch(/^the body must set \{"always": true\} or \{"with_secret": .*\}, got an empty object$/)
    expect(refusal([{ always: true }])).toMatch(/must be a JSON object.*got an array of 1 item$/)
    expect(refusal("always")).toMatch(/got a string of 6 characters$/)
    expect(refusal(null)).toMatch(/got null or an empty body$/)
    expect(refusal(7)).toMatch(/got a number$/)
  })

  it("checkSecret names the field it is given (the CLI's --secret)", () => {
    expect(checkSecret("", "secret")).toEqual(Either.left("secret must be 1 to 100 characters, got an empty string"))
  })

  it("the payload schema carries the same messages and never the rejected value", () => {
    const secret = "hunter2 hunter2"
    const r = Schema.decodeUnknownEither(EscChangeBody)({ with_secret: secret })
    expect(r._tag).toBe("Left")
    const text = r._tag === "Left" ? String(r.left) : ""
    expect(text).toContain("with_secret must use only characters a cookie value can carry")
    expect(text).not.toContain("hunter2")
  })
})

describe("Cookie headers", () => {
  it("parses several cookies with or without spaces, quoted values and pairs without =", () => {
    expect(parseCookies('a=1;b=2;  c = 3 ; d="q v"; flag; =x; e=')).toEqual([
      { name: "a", value: "1" },
      { name: "b", value: "2" },
      { name: "c", value: "3" },
      { name: "d", value: "q v" },
      { name: "e", value: "" }
    ])
  })

  it("keeps = inside values, ignores a pasted 'Cookie:' prefix and reads several headers", () => {
    expect(cookieValues("Cookie: disable_esc=a=b==", "disable_esc")).toEqual(["a=b=="])
    expect(cookieValues(["x=1", "disable_esc=one", "disable_esc=two"], "disable_esc")).toEqual(["one", "two"])
    expect(cookieValues(undefined, "disable_esc")).toEqual([])
  })

  it("names are case-sensitive: Disable_ESC is another cookie", () => {
    expect(cookieValues("Disable_ESC=s; disable_esc_x=s; xdisable_esc=s", "disable_esc")).toEqual([])
  })
})

const set = (always: boolean, with_secret: string | null = null): EscSetting => ({ always, with_secret })

describe("the decision for one request", () => {
  it("ESC runs when nothing is set, with or without cookies", () => {
    const d = decide({ zone: NothingSet, account: NothingSet, cookie: "session=1; disable_esc=guess" })
    expect(d).toMatchObject({ escRuns: true, decidedBy: null, applies: [], escCookies: 1 })
    expect(d.reason).toMatch(/neither the zone nor its account has a secret/)
    expect(decide({ zone: NothingSet, account: NothingSet }).reason).toMatch(/no disable_esc cookie/)
  })

  it("always on the zone or on its account turns ESC off for every request, cookie or not", () => {
    expect(decide({ zone: set(true), account: NothingSet })).toMatchObject({ escRuns: false, decidedBy: "zone-always" })
    expect(decide({ zone: NothingSet, account: set(true) })).toMatchObject({
      escRuns: false,
      decidedBy: "account-always"
    })
    expect(decide({ zone: set(true), account: set(true), cookie: "a=b" }).applies).toEqual([
      "zone-always",
      "account-always"
    ])
  })

  it("the zone's secret in a disable_esc cookie turns ESC off for that request only", () => {
    const zone = set(false, "Zs3cret!")
    expect(decide({ zone, account: NothingSet, cookie: "disable_esc=Zs3cret!" })).toMatchObject({
      escRuns: false,
      decidedBy: "zone-secret"
    })
    expect(decide({ zone, account: NothingSet, cookie: 'a=1; disable_esc="Zs3cret!"; b=2' }).decidedBy).toBe(
      "zone-secret"
    )
    expect(decide({ zone, account: NothingSet })).toMatchObject({ escRuns: true })
    const wrong = decide({ zone, account: NothingSet, cookie: "disable_esc=Zs3cret" })
    expect(wrong).toMatchObject({ escRuns: true, escCookies: 1 })
    expect(wrong.reason).toMatch(/matches neither/)
  })

  it("the account's secret applies to every zone of the account", () => {
    const account = set(false, "acct-key")
    expect(decide({ zone: NothingSet, account, cookie: "disable_esc=acct-key" })).toMatchObject({
      escRuns: false,
      decidedBy: "account-secret"
    })
    expect(decide({ zone: set(false, "zone-key"), account, cookie: "disable_esc=acct-key" }).decidedBy).toBe(
      "account-secret"
    )
  })

  it("a secret applies only in its own scope: another zone's secret does nothing here", () => {
    // The zone's own secret differs; a secret set on another zone (or another account) is simply
    // not among this request's settings, so it cannot match.
    const here = { zone: set(false, "zone-A-key"), account: set(false, "account-X-key") }
    expect(decide({ ...here, cookie: "disable_esc=zone-B-key" }).escRuns).toBe(true)
    expect(decide({ ...here, cookie: "disable_esc=account-Y-key" }).escRuns).toBe(true)
  })

  it("other cookies never count, even when their value is the secret", () => {
    const zone = set(false, "Zs3cret!")
    expect(decide({ zone, account: NothingSet, cookie: "session=Zs3cret!; disable_escx=Zs3cret!" })).toMatchObject({
      escRuns: true,
      escCookies: 0
    })
  })

  it("several disable_esc cookies: any one matching decides", () => {
    const d = decide({
      zone: set(false, "zz"),
      account: set(false, "aa"),
      cookie: "disable_esc=nope; disable_esc=aa; disable_esc=zz"
    })
    expect(d).toMatchObject({
      escRuns: false,
      decidedBy: "zone-secret",
      applies: ["zone-secret", "account-secret"],
      escCookies: 3
    })
  })

  it("always outranks a matching secret in the report", () => {
    expect(decide({ zone: set(false, "k"), account: set(true), cookie: "disable_esc=k" }).applies).toEqual([
      "account-always",
      "zone-secret"
    ])
  })
})

describe("the removal date", () => {
  it("before 2025-01-01 ESC is still honoured, with the time left", () => {
    const r = removalStatus(new Date("2024-06-01T00:00:00Z"))
    expect(r).toMatchObject({ date: "2025-01-01", removed: false, days: 214, relative: "in 7 months" })
    expect(r.summary).toMatch(
      /^ESC configuration is still honoured: it is removed on 2025-01-01, in 7 months \(214 days\)/
    )
  })

  it("from 2025-01-01T00:00:00Z on it is removed, with the time since", () => {
    expect(removalStatus(new Date("2024-12-31T23:59:59Z"))).toMatchObject({
      removed: false,
      days: 0,
      relative: "in less than a day"
    })
    expect(removalStatus(new Date("2025-01-01T00:00:00Z"))).toMatchObject({ removed: true, days: 0 })
    const r = removalStatus(new Date("2026-11-23T10:00:00Z"))
    expect(r).toMatchObject({ removed: true, days: 691, relative: "1 year 10 months ago" })
    expect(r.summary).toMatch(
      /^ESC configuration was removed on 2025-01-01, 1 year 10 months ago \(691 days\) on the platform's clock \(2026-11-23\)/
    )
    expect(removalStatus(new Date("2025-01-15T00:00:00Z")).relative).toBe("14 days ago")
  })

  it("the local platform's clock comes from EDGECTL_PLATFORM_NOW, and a bad value says what it wants", () => {
    expect(clockFromEnv({ EDGECTL_PLATFORM_NOW: "2024-06-01T12:00:00Z" }).now().toISOString()).toBe(
      "2024-06-01T12:00:00.000Z"
    )
    const before = Date.now()
    expect(clockFromEnv({}).now().getTime()).toBeGreaterThanOrEqual(before)
    expect(() => clockFromEnv({ EDGECTL_PLATFORM_NOW: "yesterday" })).toThrow(/must be an ISO 8601 instant/)
  })
})

describe("masking", () => {
  it("shows at most the ends of a secret, less for short ones", () => {
    expect(maskSecret("MySecretString321#")).toBe("My…1#")
    expect(maskSecret("abcde")).toBe("a…e")
    expect(maskSecret("abc")).toBe("…")
  })

  it("masks every disable_esc value of a Cookie header and nothing else", () => {
    expect(maskCookieHeader("a=1; disable_esc=MySecretString321#; b=2")).toBe("a=1; disable_esc=My…1#; b=2")
    expect(maskCookieHeader('Cookie: disable_esc="MySecretString321#"')).toBe('Cookie: disable_esc="My…1#"')
    expect(maskCookieHeader("disable_esc=aaaaaaaaaa;disable_esc=bbbbbbbbbb")).toBe(
      "disable_esc=aa…aa;disable_esc=bb…bb"
    )
  })
})

describe("answers of disable_esc", () => {
  const decode = Schema.decodeUnknownSync(EscAnswer)

  it("accepts the bare objects of the platform's docs", () => {
    expect(decode(bareAlways)).toEqual({ always: true, with_secret: null })
    expect(decode(bareSecret)).toEqual({ always: false, with_secret: "MySecretString321#" })
  })

  it("accepts the envelope, a null result, an empty object and always: false", () => {
    expect(decode({ result: bareSecret, success: true, errors: [], messages: [] })).toEqual({
      always: false,
      with_secret: "MySecretString321#"
    })
    expect(decode({ result: null, success: true, errors: null, messages: null })).toEqual(NothingSet)
    expect(decode({})).toEqual(NothingSet)
    expect(decode({ always: false })).toEqual(NothingSet)
  })

  it("refuses an answer of the wrong shape", () => {
    expect(() => decode({ result: [1], success: true, errors: [], messages: [] })).toThrow(/expected an object/)
    expect(() => decode({ always: "yes" })).toThrow(/always is not a boolean/)
  })

  it("encodes the envelope with only the fields that are set", () => {
    const encode = Schema.encodeSync(EscAnswer)
    expect(encode(NothingSet)).toEqual({ result: {}, success: true, errors: [], messages: [] })
    expect(encode({ always: true, with_secret: "k" })).toEqual({
      result: { always: true, with_secret: "k" },
      success: true,
      errors: [],
      messages: []
    })
  })
})

describe("replacements", () => {
  it("every use case names a product; rule replacements name a known phase, an action and a rule example", () => {
    expect(Replacements.length).toBeGreaterThanOrEqual(12)
    const phases: ReadonlyArray<string> = [...RequestPhases, ...ResponsePhases]
    for (const r of Replacements) {
      expect(r.product, r.useCase).not.toBe("")
      if (r.phase === null) continue
      expect(phases, r.useCase).toContain(r.phase)
      expect(r.example?.kind, r.useCase).toBe("rule")
      const rule = r.example?.kind === "rule" ? r.example.rule : {}
      expect(rule.action, r.useCase).toBe(r.action)
      expect(typeof rule.expression, r.useCase).toBe("string")
      expect(JSON.parse(exampleText(r.example))).toEqual(rule)
    }
    const names = Replacements.map((r) => r.useCase.toLowerCase()).join("\n")
    for (const useCase of [
      "redirect",
      "sni",
      "resolve override",
      "rewrite the uri",
      "request headers",
      "feature exceptions",
      "custom error",
      "response headers",
      "cookies",
      "status code",
      "more complex"
    ]) {
      expect(names).toContain(useCase)
    }
  })
})
