/** The zone's WAF tab as a wizard, over a real embedded platform: each step, override edits, replay, and the deploy flows of the state table. */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import * as Waf from "../../../src/services/waf-migration-service.js"
import { owaspSettings } from "../../../src/waf/edit.js"
import { resolveZone } from "../../../src/services/zones-service.js"
import { Fixture, Keys, shownWrapped } from "../../helpers/ink.js"
import { WafWizard } from "../../../tui/screens/waf-wizard.js"
import { WizardSteps } from "../../../tui/screens/waf-wizard-steps.js"
import { zoneCounter } from "../../helpers/demo-world.js"

const fixture = new Fixture()
afterEach(() => fixture.dispose())

const Home = "\u001B[H"
const End = "\u001B[F"

const open = async (name: string) => {
  const runtime = fixture.local()
  const zone = await runtime.runPromise(resolveZone(name))
  const app = await fixture.within(runtime, <WafWizard zone={zone} active height={14} />)
  await app.waitForText("state:")
  return Object.assign(app, { runtime, zone })
}

describe("WAF wizard", () => {
  it("walks status, check, preview (previous | new) and what is not migrated", async () => {
    const app = await open("globex.com")
    expect(app.frame()).toMatch(/state:\s+start/)
    expect(app.frame()).toContain("[Status]")
    await app.press("n", "Compatible: the zone can migrate")
    await app.press("n", "-> new equivalent")
    // Too long for a table at this width: each setting on its own lines, scrolled, nothing cut.
    // The keys of one write act one after another (each sees the frame of the one before).
    await app.press("jjjjjjjjjjjj", "-> Low -> PL1, threshold 40 (Medium)")
    expect(app.frame()).toContain("OWASP sensitivity: Low")
    await app.press("n", "OWASP group OWASP Bad Robots off")
    expect(app.frame()).toContain("OWASP group overrides are not migrated")
    await app.press("p", "-> new equivalent")
  })

  it("check shows the reasons of an incompatible zone, and the deploy step offers no deploy there (issue 29)", async () => {
    const app = await open("acme.net")
    await app.press("n", "Not compatible")
    expect(app.frame()).toContain("URI-based WAF override")
    await app.press(End, "cannot be migrated as it is")
    expect(app.frame()).not.toContain("d deploy")
    await app.press("d")
    expect(app.frame()).not.toContain("Deploy the new WAF on acme.net")
  })

  it("edits rule overrides and the OWASP threshold of the proposed configuration, then replays traffic with it", async () => {
    const app = await open("globex.com")
    await app.press("nnnn", "RULE")
    expect(app.frame()).toMatch(/OWASP: PL1, threshold 40, action challenge/)
    await app.press(Keys.down, (f) => /› cc632ba4/.test(f))
    await app.press(" ", "(edited")
    expect(app.frame()).toMatch(/› \w{8}\s+no\s+block/)
    await app.press("t", "threshold 60")
    await app.press("u", "Drop your edits to the overrides")
    await app.press("y", "threshold 40")
    await app.press("n", "f picks a JSONL traffic file")
    await app.press(Keys.enter, "32 request(s):")
    expect(app.frame()).toMatch(/32 request\(s\): \d+ agree, \d+ disagree/)
    // Under the file and the counts: scrolled to.
    await app.press("jjjjjj", "spring4shell")
  })

  it("replay names the file, counts its bad lines with the first reasons (the words of waf replay), and fails on a file of no request", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-waf-tui-"))
    const sample = fs.readFileSync(path.resolve("fixtures/waf/traffic-sample.jsonl"), "utf8")
    const n = sample.split("\n").length
    const bad = path.join(dir, "some-bad.jsonl")
    fs.writeFileSync(bad, `${sample}{nope\n[1]\n"x"\n{\n`)
    const app = await open("globex.com")
    await app.press("nnnnn", "f picks a JSONL traffic file")
    await app.press("f", "Traffic file")
    await app.press(`${bad}\r`, "32 request(s):")
    const frame = app.frame().replace(/\s+/g, " ")
    expect(frame).toContain(`Replay of ${bad}: the previous WAF against the new configuration`)
    expect(frame).toContain("4 lines not read")
    expect(frame).toContain(`line ${n}: not JSON:`)
    expect(frame).toContain(`line ${n + 2}: expected a JSON object`)
    expect(frame).not.toContain(`line ${n + 3}:`)
    const empty = path.join(dir, "empty.jsonl")
    fs.writeFileSync(empty, "")
    await app.press("f", "Traffic file")
    await app.press(`${empty}\r`, shownWrapped("no request to replay"))
    expect(app.frame().replace(/\s+/g, " ")).toContain(`error: replay: ${empty}: no request to replay (0 lines)`)
  })

  it("business: Deploy finishes the migration after the zone name is typed (irreversible)", async () => {
    const app = await open("globex.net")
    await app.press(End, "d deploys the new WAF and turns off the previous one")
    await app.press("d", "type the zone name (globex.net) to confirm")
    await app.press("globex.ne", "globex.ne")
    await app.press(Keys.enter, "type globex.net exactly")
    await app.press("t", "› globex.net")
    await app.press(Keys.enter, "Migration finished: globex.net runs WAF Managed Rules")
    await app.press(Home, (f) => /state:\s+finished/.test(f))
    expect(app.frame()).toMatch(/previous WAF:\s+disabled/)
  })

  it("enterprise: Deploy goes to validation mode; Turn off previous version finishes", async () => {
    const app = await open("acme-assets.net")
    await app.press(End, "d deploys to validation mode")
    await app.press("d", "in validation mode?")
    await app.press("y", "Validation mode: both versions run on acme-assets.net")
    await app.press(Home, (f) => /state:\s+validation/.test(f))
    expect(app.frame()).toMatch(/new WAF:\s+enabled/)
    await app.press(End, "d turns off the previous")
    await app.press("d", "type the zone name (acme-assets.net) to confirm")
    await app.press("acme-assets.net", "› acme-assets.net")
    await app.press(Keys.enter, "Migration finished: acme-assets.net")
    await app.press(Keys.escape)
  })

  it("digits are not step keys (they are the app's screen keys); home and end go to the first and last step", async () => {
    const app = await open("globex.com")
    await app.press("5")
    await app.press("7")
    expect(app.frame()).toContain("[Status]")
    expect(app.frame()).toMatch(/state:\s+start/)
    await app.press(End, "[Deploy]")
    await app.press(Home, "[Status]")
  })

  it("the deploy confirmation says an edited configuration is sent and how it differs; after the deploy it shows what the platform has", async () => {
    const app = await open("acme-assets.net")
    await app.press("nnnn", "OWASP: PL2, threshold 40, action challenge")
    await app.press("L", "OWASP: PL3")
    await app.press("j ", "(edited")
    await app.press(End, "d deploys to validation mode")
    await app.press("d", "in validation mode?")
    expect(app.frame()).toContain(
      "Sends your EDITED configuration, not the platform's proposed configuration. It differs in:"
    )
    expect(app.frame()).toContain("- OWASP paranoia level: PL2 -> PL3")
    // 80 columns: rules by id (their descriptions show from 100 columns on).
    expect(app.frame()).toContain("- rule cc632ba4: enabled on -> off")
    await app.press("y", "Sent to acme-assets.net (now validation)")
    expect(app.frame()).toContain("OWASP: PL3, threshold 40, action challenge")
    expect(app.frame()).toMatch(/1 rule overrides \(cc632ba4 off\)/)
    const entrypoint = await app.runtime.runPromise(Waf.deployed(Waf.wafZoneOf(app.zone)))
    expect(owaspSettings({ name: entrypoint.name, rules: entrypoint.rules })?.paranoia).toBe(3)
    // The edits went out: the draft is gone, and finishing would send what runs in validation.
    await app.press("ppp", "OWASP: PL3")
    expect(app.frame()).not.toContain("(edited")
    await app.press(End, "d turns off the previous")
    await app.press("d", "type the zone name")
    expect(app.frame()).toContain("Sends the configuration running in validation, unedited.")
  })

  it("a replay is marked out of date once the configuration is edited or the zone reloaded", async () => {
    const app = await open("globex.com")
    await app.press("nnnnn", "f picks a JSONL traffic file")
    await app.press(Keys.enter, "32 request(s):")
    expect(app.frame()).not.toContain("Out of date")
    await app.press("p", "RULE")
    await app.press("t", "threshold 60")
    await app.press("n", "Out of date: the configuration was edited since this replay")
    await app.press("p", "threshold 60")
    await app.press("u", "Drop your edits to the overrides")
    await app.press("y", "threshold 40")
    await app.press("n", "32 request(s):")
    expect(app.frame()).not.toContain("Out of date")
    await app.press("r", "Out of date: the zone was refreshed or deployed")
    await app.press(Keys.enter, (f) => f.includes("32 request(s):") && !f.includes("Out of date"))
  })

  it("a traffic file that does not exist is one clear error naming it", async () => {
    const app = await open("globex.com")
    await app.press("nnnnn", "f picks a JSONL traffic file")
    await app.press("f", "Traffic file")
    await app.press("/nonexistent/traffic.jsonl\r", "error: replay:")
    expect(app.frame()).toContain("error: replay: traffic file /nonexistent/traffic.jsonl does not exist")
    expect(app.frame()).not.toContain("ENOENT")
    // A relative path says where it was looked for.
    await app.press("f", "Traffic file")
    await app.press("no-such-traffic.jsonl\r", "no-such-traffic.jsonl does not exist")
    const text = app
      .frame()
      .replace(/\u001B\[[0-9;]*m/g, "")
      .replace(/\s+/g, " ")
    expect(text).toContain(`(looked for ${process.cwd()}/no-such-traffic.jsonl)`)
  })

  it("a finished zone has nothing to preview", async () => {
    const app = await open("acme-labs.org")
    expect(app.frame()).toMatch(/state:\s+finished/)
    await app.press("nn", "nothing to preview")
    await app.press(End, "The migration is finished")
  })

  it("n walks the step table in its order and stops at the last, p walks back; on a finished zone every step of the preview says there is nothing to preview", async () => {
    const app = await open("acme-labs.org")
    const [first, ...rest] = WizardSteps
    for (const s of rest) {
      await app.press("n", `[${s.title}]`)
      if (s.ofPreview) expect(app.frame()).toContain("nothing to preview")
      else expect(app.frame()).not.toContain("nothing to preview")
    }
    await app.press("n")
    expect(app.frame()).toContain(`[${rest[rest.length - 1]!.title}]`)
    for (const s of [...rest].reverse().slice(1)) await app.press("p", `[${s.title}]`)
    await app.press("p", `[${first!.title}]`)
  })
})

describe("WAF screen", () => {
  it("lists the zones with their migration state; enter opens the wizard, esc comes back", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText(zoneCounter(1))
    await app.press("4", "to migrate")
    await app.waitForText("acme-labs.org")
    expect(app.frame()).toMatch(/WAF migration · 44 to migrate · 1 in validation · 1 finished/)
    expect(app.frame()).toMatch(/ZONE\s+PLAN\s+STATE\s+OLD\s+NEW/)
    expect(app.frame()).toMatch(/› acme-api\.com\s+enterprise\s+start\s+on\s+off/)
    expect(app.frame()).toMatch(/acme-media\.com\s+enterprise\s+validation\s+on\s+on/)
    await app.press(Keys.enter, "WAF migration · acme-api.com")
    await app.waitForText("state:")
    await app.press(Keys.escape, "to migrate")
  })
})
