/**
 * The Firewall tab's migration on the engine (ink-testing-library over a real embedded platform):
 * enter reads a rule's notes whole (the preview's box cuts them at three lines); a journal left
 * unfinished (a kill during the third request) is shown with `f`, which finishes it, and `u`, which
 * undoes the migration after a confirmation; both go through the service the CLI uses.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { edgectl, json } from "../../helpers/cli.js"
import { Fixture, Keys } from "../../helpers/ink.js"

const fixture = new Fixture()
afterEach(async () => {
  await fixture.dispose()
})

const openFirewallTab = async (zone: string, before?: (stateDir: string) => void) => {
  const { app } = await fixture.openZone(zone, ["Certificate packs", "ESC", "Firewall"], before)
  await app.waitForText(`Firewall rules of ${zone}`)
  return app
}

/** The frame's text without borders, on one line: a wrapped note reads whole. */
const flat = (frame: string) => frame.replace(/[│╭╮╰╯─]/g, " ").replace(/\s+/g, " ")

describe("the migration's journal and notes on the Firewall tab", () => {
  it("enter reads a rule's notes whole, scrolled with ↑↓, esc returns", async () => {
    const app = await openFirewallTab("acme-mail.com")
    await app.press("m", "CUSTOM RULE")
    for (let i = 0; i < 5; i++) await app.press(Keys.down)
    await app.press(Keys.enter, "Notes of rule")
    const text = flat(app.frame())
    expect(text).toContain("becomes: block (disabled)")
    expect(text).toContain(
      "the custom rule is written disabled to keep that (the platform's own conversion enabled such rules)"
    )
    expect(text).toContain("recreate a custom 1020 page as the zone's WAF block page or as the rule's response)")
    await app.press(Keys.escape, "CUSTOM RULE")
  })

  it("an unfinished journal: f finishes it, u undoes the migration after a confirmation", async () => {
    const z = ["--zone", "globex.com"]
    let dir = ""
    const app = await openFirewallTab("globex.com", (stateDir) => {
      dir = stateDir
      const run = (args: ReadonlyArray<string>) => edgectl([...args, "--persist-to", stateDir])
      expect(run(["firewall", "migrate", ...z, "--yes"]).status).toBe(0)
      // As if killed during the third request (the second pause), before it reached the platform.
      const migrations = path.join(stateDir, "migrations")
      const log = path.join(
        migrations,
        fs.readdirSync(migrations).find((f) => f.endsWith(".log"))!
      )
      const events = fs.readFileSync(log, "utf8").trim().split("\n")
      const third = events.findIndex(
        (e, i) =>
          JSON.parse(e).event === "sent" &&
          events.slice(0, i).filter((x) => JSON.parse(x).event === "sent").length === 2
      )
      fs.writeFileSync(log, `${events.slice(0, third + 1).join("\n")}\n`)
      const key = JSON.parse(events[third]!).key as string
      expect(run(["firewall", "rules", "update", key.split(":")[1]!, ...z, "--resume"]).status).toBe(0)
    })
    await app.press("m", "CUSTOM RULE")
    expect(app.frame()).toContain("unfinished migrate: 2 of 4 steps written, 1 sent with no answer · f finishes it")
    expect(app.frame()).toMatch(/f finish\s+u undo/)
    await app.press("f", "Finished the migration of globex.com")
    const rules = () =>
      json<Array<{ paused: boolean }>>(edgectl(["firewall", "rules", "list", ...z, "--json", "--persist-to", dir]))
    expect(rules().map((r) => r.paused)).toEqual([true, true, true])

    await app.press("m", "CUSTOM RULE")
    await app.press("u", "Undo the migration of globex.com?")
    await app.press("y", "Rolled back the migration of globex.com")
    expect(rules().map((r) => r.paused)).toEqual([false, false, false])
    expect(json(edgectl(["custom-rules", "list", ...z, "--json", "--persist-to", dir]))).toEqual([])
  })
})
