/**
 * The migration replay's whole list of differences (tui/screens/custom-rules-replay.tsx) with
 * ink-testing-library: the file and what was compared named, every request decided differently a
 * row, reached with the list keys, with the two decisions and the rules responsible under the list;
 * none is said in words; the lines not read are counted, the first reasons shown (the CLI's words).
 */
import { afterEach, describe, expect, it } from "vitest"
import type { ReplayDisagreement } from "../../../src/firewall/custom-rules-replay.js"
import type { MigrationReplay } from "../../../src/services/migration-replay-service.js"
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
  before: {
    action: "block",
    rule: { kind: "firewall", id: `fw${n}`, description: `old rule ${n}` },
    skipped: [],
    skippedBy: [],
    logged: []
  },
  after: {
    action: null,
    rule: null,
    skipped: ["waf"],
    skippedBy: [{ kind: "custom", id: `cr${n}` }],
    logged: [{ kind: "custom", id: `lg${n}`, description: `logger ${n}` }]
  }
})

const report = (n: number, problems: MigrationReplay["problems"] = []): MigrationReplay => ({
  file: "/tmp/traffic.jsonl",
  compared: "planned",
  lines: 100 + problems.length,
  requests: 100,
  agreed: 100 - n,
  disagreements: Array.from({ length: n }, (_, i) => disagreement(i + 1)),
  counts: { action: n, skipped: 0, logged: 0 },
  decided: { before: n > 0 ? { block: n, none: 100 - n } : { none: 100 }, after: { none: 100 } },
  problems
})

const show = (r: MigrationReplay, closed: Array<true> = [], height = 15) =>
  fixture.within(
    fixture.local(),
    <CustomRulesReplayView replay={r} active height={height} onClose={() => closed.push(true)} />
  )

describe("the replay's differences", () => {
  it("lists every one: the last of 60 is reached with G, its two decisions and their rules shown", async () => {
    const closed: Array<true> = []
    const app = await show(report(60), closed)
    await app.waitForText("60 differently")
    expect(app.frame()).toContain("Replay of traffic.jsonl: the zone now (before)")
    expect(app.frame()).toContain("100 request(s): 40 decided alike, 60 differently (action 60, skipped 0, logged 0)")
    expect(app.frame()).toMatch(/› 2\s+action\s+req-1: GET example\.com\/path\/1/)
    expect(app.frame()).toContain('before block by firewall rule "old rule 1" (fw1)')
    await app.press("G", "60/60")
    const frame = app.frame()
    expect(frame).toMatch(/› 120\s+action\s+req-60: GET example\.com\/path\/60/)
    expect(frame).toContain('before block by firewall rule "old rule 60" (fw60)')
    expect(frame).toContain(
      'after nothing decides; skips waf (by custom rule cr60); logged by custom rule "logger 60" (lg60)'
    )
    await app.press("k", "59/60")
    expect(app.frame()).toMatch(/› 118\s+action\s+req-59/)
    await app.press("\u001B")
    await new Promise((r) => setTimeout(r, 100))
    expect(closed).toEqual([true])
  })

  it("says so when the zone before and after decide every request alike", async () => {
    const app = await show(report(0))
    await app.waitForText("No difference")
    expect(app.frame()).toContain("✓ No difference: 100 request(s): 100 decided alike")
    expect(app.frame()).toContain("decided: before: 100 none; after: 100 none")
    expect(app.frame()).not.toContain("LINE")
  })

  it("counts the lines not read and shows the first three with their reason", async () => {
    const problems = [2, 5, 9, 11].map((line) => ({ line, message: `not JSON: bad ${line}` }))
    const app = await show(report(1, problems), [], 20)
    await app.waitForText("4 lines not read")
    const frame = app.frame()
    expect(frame).toContain("line 2: not JSON: bad 2")
    expect(frame).toContain("line 9: not JSON: bad 9")
    expect(frame).not.toContain("line 11:")
    expect(frame).toMatch(/› 2\s+action\s+req-1/)
  })
})
