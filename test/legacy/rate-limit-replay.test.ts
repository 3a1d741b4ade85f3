/**
 * The rate limit replay's counters (src/firewall/rate-limit-replay.ts), one side at a time and the two
 * sides of a plan: the threshold exceeded in the period, the ban for its timeout and counting again
 * after it, a challenge that acts only on the requests over the rate, counting on the response (the
 * request that trips the rule was answered), the IPv6 /64 key; and a plan's rounded period, a
 * difference named by its note.
 */
import { describe, expect, it } from "vitest"
import type { RateLimit } from "../../src/domain/legacy-security.js"
import { sharedExpressions } from "../../src/firewall/custom-rules-replay.js"
import { planRateLimitMigration } from "../../src/firewall/rate-limit-plan.js"
import { makeRateLimitReplayer, rateLimitSide } from "../../src/firewall/rate-limit-replay.js"
import { HTTP_SCHEME, RequestContext, type Request } from "../../src/rules/index.js"

const rateLimit = (more: Partial<RateLimit> = {}): RateLimit => ({
  id: "rl1",
  disabled: false,
  description: "login",
  match: {
    request: { methods: ["_ALL_"], schemes: ["_ALL_"], url: "example.com/login" },
    response: { origin_traffic: false }
  },
  bypass: [],
  threshold: 2,
  period: 10,
  action: { mode: "ban", timeout: 60 },
  ...more
})

const login = (ip = "192.0.2.1", more: Request = {}): Request => ({
  "http.host": "example.com",
  "http.request.uri.path": "/login",
  "ip.src": ip,
  ...more
})

/** The actions of one side on `requests` at their times (seconds). */
const actions = (rl: RateLimit, requests: ReadonlyArray<readonly [number, Request]>) => {
  const side = rateLimitSide({ rateLimits: [rl], rules: [] }, sharedExpressions())
  return requests.map(([t, r]) => side(new RequestContext(r, HTTP_SCHEME), r, t * 1000).action)
}

describe("the rate limit replay's counters", () => {
  it("a ban: the request over the threshold and every one for the timeout, then counting starts again", () => {
    expect(
      actions(rateLimit(), [
        [0, login()],
        [1, login()],
        [2, login()],
        [3, login("192.0.2.2")],
        [30, login()],
        [63, login()],
        [64, login()]
      ])
    ).toEqual([null, null, "block", null, "block", null, null])
  })

  it("a challenge acts only on the requests over the rate (throttle); the IPv6 key is the /64", () => {
    const rl = rateLimit({ action: { mode: "managed_challenge" } })
    expect(
      actions(rl, [
        [0, login("2001:db8::1")],
        [1, login("2001:db8::2")],
        [2, login("2001:db8::3")],
        [3, login("2001:db8:0:1::1")],
        [20, login("2001:db8::4")]
      ])
    ).toEqual([null, null, "managed_challenge", null, null])
  })

  it("counting on response codes: the request that trips the rule was answered, the next ones are banned", () => {
    const rl = rateLimit({
      threshold: 1,
      match: {
        request: { methods: ["POST"], schemes: ["_ALL_"], url: "example.com/login" },
        response: { status: [401], origin_traffic: false }
      }
    })
    const post = (code: number) => login("192.0.2.1", { "http.request.method": "POST", "http.response.code": code })
    expect(
      actions(rl, [
        [0, post(200)],
        [1, post(401)],
        [2, post(401)],
        [3, post(200)],
        [4, login("192.0.2.1", { "http.request.method": "GET", "http.response.code": 401 })]
      ])
    ).toEqual([null, null, null, "block", null])
  })

  it("a period the plan rounds (600 s -> 60 s on Pro) shows as a difference its note explains", () => {
    const plan = planRateLimitMigration({
      zone: { id: "z", name: "example.com" },
      plan: "pro",
      before: {
        rateLimits: [rateLimit({ threshold: 3, period: 600, action: { mode: "ban", timeout: 600 } })],
        rules: []
      },
      deleteOld: false
    })
    expect(plan.notes.map((n) => n.code)).toContain("period-rounded")
    const replayer = makeRateLimitReplayer(plan.before, plan.expected, plan.notes)
    const lines = [0, 30, 60, 90].map((s, i) => JSON.stringify({ id: `r${i}`, at: s * 1000, request: login() }))
    lines.forEach((l, i) => replayer.line(l, i + 1))
    const r = replayer.report()
    expect(
      r.disagreements.map((d) => [d.id, d.before.action, d.after.action, d.explainedBy.map((e) => e.code)])
    ).toEqual([["r3", "block", null, ["period-rounded"]]])
    expect(r.explained).toBe(1)
  })
})
