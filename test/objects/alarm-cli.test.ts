/**
 * `edgectl objects alarm`: print, set (ISO 8601, ms since the epoch or +DURATION: the one parser
 * the TUI's Objects screen uses too) and delete an object's alarm; a time it cannot take is a usage
 * error naming the option, the limit and the value. The TUI's view of a stored value (showValue):
 * bytes as a hex dump, other values as JSON.
 */
import { describe, expect, it } from "vitest"
import { MaxAheadMs, parseAlarmTime } from "../../src/objects/alarm-time.js"
import { showValue } from "../../tui/screens/objects-value.js"
import { edgectl, json, tempDir } from "../helpers/cli.js"

const now = Date.parse("2026-11-28T08:00:00Z")

describe("parseAlarmTime", () => {
  it("takes ISO 8601, ms since the epoch and +DURATION", () => {
    expect(parseAlarmTime("2026-11-28T10:00:00Z", now)).toBe(Date.parse("2026-11-28T10:00:00Z"))
    expect(parseAlarmTime("1795852800000", now)).toBe(1795852800000)
    expect(parseAlarmTime("+90s", now)).toBe(now + 90_000)
    expect(parseAlarmTime(" +15m ", now)).toBe(now + 900_000)
    expect(parseAlarmTime("+2h", now)).toBe(now + 7_200_000)
    expect(parseAlarmTime("+1d", now)).toBe(now + 86_400_000)
  })

  it("names the field, the forms or the limit, and the value", () => {
    expect(parseAlarmTime("+2x", now)).toEqual({
      problem:
        'alarm time: not a duration: "+2x" (ISO 8601 like 2026-11-28T10:00:00Z, ms since the epoch, or +DURATION like +90s, +15m, +2h, +1d)'
    })
    expect(parseAlarmTime("tomorrow", now, "--set")).toMatchObject({
      problem: expect.stringMatching(/^--set: not a time: "tomorrow"/)
    })
    expect(parseAlarmTime("", now)).toMatchObject({
      problem: expect.stringMatching(/^alarm time: empty; give ISO 8601/)
    })
    expect(parseAlarmTime("+400d", now)).toEqual({
      problem: `alarm time: at most a year ahead (${new Date(now + MaxAheadMs).toISOString()}), got ${new Date(now + 400 * 86_400_000).toISOString()} from "+400d"`
    })
  })
})

describe("edgectl objects alarm", () => {
  it("prints, sets and deletes an object's alarm; refuses a wrong time (exit 2) and an unknown object (exit 1)", () => {
    const state = tempDir("edgectl-alarm-")
    const run = (...args: Array<string>) => edgectl(["objects", "alarm", ...args, "--persist-to", state])
    expect(edgectl(["objects", "kv", "Counter", "a", "put", "k", "v", "--persist-to", state]).status).toBe(0)
    expect(run("Counter", "a").stdout.trim()).toBe("none")
    const before = Date.now()
    const set = run("Counter", "a", "--set", "+2h", "--json")
    expect(set.status, set.stderr).toBe(0)
    const at = Date.parse(json<{ alarm: string }>(set).alarm)
    expect(at).toBeGreaterThanOrEqual(before + 7_200_000)
    expect(at).toBeLessThanOrEqual(Date.now() + 7_200_000)
    expect(run("Counter", "a").stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in (1h 59m|2h 0m)\)$/m)
    const wrong = run("Counter", "a", "--set", "+2x")
    expect(wrong.status).toBe(2)
    expect(wrong.stderr).toContain('error: objects alarm: --set: not a duration: "+2x"')
    const both = run("Counter", "a", "--set", "+2h", "--delete")
    expect(both.status).toBe(2)
    expect(both.stderr).toContain("give at most one of --set TIME and --delete")
    const deleted = run("Counter", "a", "--delete")
    expect(deleted.status, deleted.stderr).toBe(0)
    expect(json<{ alarm: null }>(run("Counter", "a", "--json")).alarm).toBeNull()
    const missing = run("Counter", "b")
    expect(missing.status).toBe(1)
    expect(missing.stderr).toContain('error: objects alarm: no object Counter "b"')
  })
})

describe("showValue (the TUI's view of a stored value)", () => {
  it("shows bytes as a hex dump, a string as its lines, other values as JSON", () => {
    const bytes = showValue(new Uint8Array([0, 1, 2, 0x41, 0xff]))
    expect(bytes.kind).toBe("bytes (hex)")
    expect(bytes.lines).toHaveLength(1)
    expect(bytes.lines[0]).toMatch(/^00000000 {2}00 01 02 41 ff {2,}\|\.\.\.A\.\|$/)
    expect(bytes.text).toBeUndefined()
    expect(showValue("a\nb")).toMatchObject({ kind: "string", lines: ["a", "b"], text: "a\nb" })
    expect(showValue(new Map([["x", 1]]))).toMatchObject({ kind: "Map", lines: ["{", '  "x": 1', "}"] })
  })
})
