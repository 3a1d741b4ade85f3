/**
 * Units: one line of a traffic file (src/rules/traffic-line.ts), as the replays read it: the fields
 * its headers imply, and a bad line's problems, each naming its field, in the order a check of the
 * whole request (the line's fields, then the implied ones) finds them; and how every replay reports
 * the lines it could not read and a file of no request.
 */
import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { noRequestProblem, notReadLines, parseTrafficLine } from "../../src/rules/traffic-line.js"

/** A line as these tests read it: its request, `{ problem }`, or undefined for a line skipped. */
const read = (text: string) => {
  const r = parseTrafficLine(text)
  return r === undefined ? undefined : Either.match(r, { onLeft: (problem) => ({ problem }), onRight: (line) => line })
}
const parse = (v: unknown) => read(JSON.stringify(v))

describe("a traffic line", () => {
  it("a request with headers: the fields they imply, unless the line gives them", () => {
    const r = parse({
      id: "one",
      request: {
        "http.host": "acme-mail.com",
        "ip.src": "198.51.100.7",
        "http.referer": "https://given.example/",
        "http.request.headers": { "user-agent": ["UA/1", "UA/2"], referer: ["https://header.example/"], cookie: [] }
      }
    })
    expect(r).toEqual({
      id: "one",
      request: {
        "http.host": "acme-mail.com",
        "ip.src": "198.51.100.7",
        "http.referer": "https://given.example/",
        "http.request.headers": { "user-agent": ["UA/1", "UA/2"], referer: ["https://header.example/"], cookie: [] },
        "http.request.headers.names": ["user-agent", "referer", "cookie"],
        "http.request.headers.values": ["UA/1", "UA/2", "https://header.example/"],
        "http.user_agent": "UA/1",
        "http.cookie": undefined
      }
    })
  })

  it("skips blank lines and comments; a line that is not an object says so", () => {
    expect(read("   ")).toBeUndefined()
    expect(read("# note")).toBeUndefined()
    expect(read("[1]")).toEqual({ problem: "expected a JSON object (a request, or {id, request})" })
    expect(read("{nope")).toMatchObject({ problem: expect.stringMatching(/^not JSON: /) })
  })

  it("bad headers: the problems of the line's fields, then of the fields they imply", () => {
    expect(
      parse({ request: { "ip.src": "300.1.1.1", "http.request.headers": { "user-agent": [5], referer: "x" } } })
    ).toEqual({
      problem: [
        'ip.src: expected an IP address string, got the string "300.1.1.1"',
        'http.request.headers: key "user-agent": element 0: expected a string (or {"$base64": "..."}), got number 5',
        'http.request.headers.values: element 0: expected a string (or {"$base64": "..."}), got number 5',
        'http.user_agent: expected a string (or {"$base64": "..."}), got number 5'
      ].join("; ")
    })
  })

  it("a bad field beside good headers: that field only; an unknown one with a suggestion", () => {
    expect(parse({ "http.hots": "a", "http.request.headers": { accept: ["*/*"] } })).toEqual({
      problem: "http.hots: unknown field (did you mean http.host?)"
    })
    expect(parse({ "http.request.headers": "user-agent: x" })).toEqual({
      problem: 'http.request.headers: expected an object (Map<Array<String>>), got the string "user-agent: x"'
    })
  })
})

describe("what a replay says of its lines", () => {
  const problems = [3, 4, 8, 9].map((line) => ({ line, message: `bad ${line}` }))

  it("the lines not read: their count, then the first three with the reason", () => {
    expect(notReadLines([])).toEqual([])
    expect(notReadLines(problems.slice(0, 1))).toEqual(["1 line not read", "line 3: bad 3"])
    expect(notReadLines(problems)).toEqual(["4 lines not read", "line 3: bad 3", "line 4: bad 4", "line 8: bad 8"])
  })

  it("a file of no request: why, with its first bad line; none once a request was replayed", () => {
    expect(noRequestProblem("t.jsonl", { lines: 0, requests: 0, problems: [] })).toBe(
      "t.jsonl: no request to replay (0 lines)"
    )
    expect(noRequestProblem("t.jsonl", { lines: 2, requests: 0, problems: [] })).toBe(
      "t.jsonl: no request to replay (2 lines, only blank lines and comments)"
    )
    expect(noRequestProblem("-", { lines: 9, requests: 0, problems })).toBe(
      "-: no request to replay (9 lines, 4 not read: line 3: bad 3)"
    )
    expect(noRequestProblem("t.jsonl", { lines: 9, requests: 1, problems })).toBeUndefined()
  })
})
