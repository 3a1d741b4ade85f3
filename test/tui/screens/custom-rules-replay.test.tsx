/**
 * The migration replay's whole list of differences (tui/screens/custom-rules-replay.tsx) with
 * ink-testing-library: every request decided differently is a row, reached with the list keys,
 * with the two decisions and the rules responsible under the list; none is said in words.
 */
import { afterEach, describe, expect, it } from "vitest"
import type { CustomRulesReplayReport, ReplayDisagreement } from "../../../src/firewall/custom-rules-replay.js"
import { CustomRulesReplayView } from "../../../tui/screens/custom-rules-replay.js"
import { Fixture } from "../../helpers/ink.js"

const fixture = new Fixture()
afterEach(async () => {
  await fixture.dispose()
})

const disagreement = (n: number): ReplayDisagreement => ({
  line: n * 2,
  id: `req-${n}`,
  summary: `GET example.com/path/${n}`,
  differences: ["action"],
  firewall: {
    action: "block",
    rule: { id: `fw${n}`, description: `old rule ${n}` },
    skipped: [],
    skippedBy: [],
    logged: []
  },
  custom: {
    action: null,
    rule: null,
    skipped: ["waf"],
    skippedBy: [{ id: `cr${n}` }],
    logged: [{ id: `lg${n}`, description: `logger ${n}` }]
  }
})

const report = (n: number): CustomRulesReplayReport => ({
  requests: 100,
  agreed: 100 - n,
  disagreements: Array.from({ length: n }, (_, i) => disagreement(i + 1)),
  counts: { action: n, skipped: 0, logged: 0 },
  problems: []
})

const show = (r: CustomRulesReplayReport, closed: Array<true> = []) =>
  fixture.within(
    fixture.local(),
    <CustomRulesReplayView file="/tmp/traffic.jsonl" report={r} active height={15} onClose={() => closed.push(true)} />
  )

describe("the replay's differences", () => {
  it("lists every one: the last of 60 is reached with G, its two decisions and their rules shown", async () => {
    const closed: Array<true> = []
    const app = await show(report(60), closed)
    await app.waitForText("60 decided differently")
    expect(app.frame()).toMatch(/› 2\s+action\s+req-1: GET example\.com\/path\/1/)
    expect(app.frame()).toContain('old block by "old rule 1" (fw1)')
    await app.press("G", "60/60")
    const frame = app.frame()
    expect(frame).toMatch(/› 120\s+action\s+req-60: GET example\.com\/path\/60/)
    expect(frame).toContain('old block by "old rule 60" (fw60)')
    expect(frame).toContain('new nothing decides; skips waf (by cr60); logged by "logger 60" (lg60)')
    await app.press("k", "59/60")
    expect(app.frame()).toMatch(/› 118\s+action\s+req-59/)
    await app.press("\u001B")
    await new Promise((r) => setTimeout(r, 100))
    expect(closed).toEqual([true])
  })

  it("says so when the old and the new rules decide every request alike", async () => {
    const app = await show(report(0))
    await app.waitForText("No difference")
    expect(app.frame()).toContain("decide all 100 requests alike")
    expect(app.frame()).not.toContain("LINE")
  })
})
