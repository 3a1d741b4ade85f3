/**
 * The one traffic reader (src/rules/replay-file.ts): lines counted, bad ones named with their number
 * and field, a line's time from `at` (ISO, ms, "+ms") or its timestamp fields, and, for a replay that
 * counts with time, a request earlier than the one before it refused by name.
 */
import { describe, expect, it } from "vitest"
import { readTrafficText, trafficReader, type TrafficEntry } from "../../src/rules/replay-file.js"

const read = (text: string, ordered = false) => {
  const seen: Array<TrafficEntry> = []
  const tally = readTrafficText(
    trafficReader((e) => seen.push(e), { ordered }),
    text
  )
  return { seen, tally }
}

describe("the traffic reader", () => {
  it("gives each request its line, name and time; skips blanks and comments", () => {
    const { seen, tally } = read(
      [
        "# traffic",
        '{"at": "2026-11-28T08:00:00Z", "ip.src": "192.0.2.1"}',
        '{"id": "second", "at": "+1500", "request": {"ip.src": "192.0.2.1"}}',
        "",
        '{"at": 1764316805000, "ip.src": "192.0.2.2"}',
        '{"http.request.timestamp.sec": 1764316806, "http.request.timestamp.msec": 5}',
        '{"ip.src": "192.0.2.3"}'
      ].join("\n")
    )
    const t0 = Date.parse("2026-11-28T08:00:00Z")
    expect(seen.map((e) => [e.line, e.id, e.at])).toEqual([
      [2, undefined, t0],
      [3, "second", t0 + 1500],
      [5, undefined, 1764316805000],
      [6, undefined, 1764316806005],
      [7, undefined, undefined]
    ])
    expect(seen[0]!.request).toEqual({ "ip.src": "192.0.2.1" })
    expect(tally).toEqual({ lines: 7, requests: 5, problems: [] })
  })

  it("names a bad line by its number and field", () => {
    const { tally } = read(['{"at": "yesterday"}', '{"ip.src": 4}', "not json", '{"at": "+10"}'].join("\n"))
    expect(tally.requests).toBe(1)
    expect(tally.problems.map((p) => [p.line, p.message.split(":")[0]])).toEqual([
      [1, "at"],
      [2, "ip.src"],
      [3, "not JSON"]
    ])
    expect(tally.problems[0]!.message).toBe(
      'at: expected an ISO time ("2026-11-28T08:00:00Z"), milliseconds since 1970 (>= 0) or "+ms" after the previous request, got "yesterday"'
    )
  })

  it("in time order only when asked: an earlier request is a line not read, naming the line before", () => {
    const text = ['{"at": 2000}', '{"at": 1000}', '{"at": "+5"}'].join("\n")
    expect(read(text).tally.problems).toEqual([])
    const { seen, tally } = read(text, true)
    expect(tally.problems).toEqual([
      { line: 2, message: "at: 1000 ms is before line 1's 2000 ms: requests come in time order" }
    ])
    expect(seen.map((e) => e.at)).toEqual([2000, 2005])
  })
})
