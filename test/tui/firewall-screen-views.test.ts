/**
 * The Firewall screen (3) offers what the zone's Firewall tab offers: `m` the custom-rules
 * migration, `c` the custom rules, `l` the Zone Lockdown / UA migration and `R` the rate limits',
 * each esc back to the firewall rules, and esc there back to the zone picker. Before, the screen
 * showed the firewall rules alone: the migrations were only on the Zones screen's zone detail.
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
] as const

describe.each(sizes)("the Firewall screen's views at $columns x $rows", (size) => {
  it("m, c, l and R open the zone's migrations and custom rules; esc comes back to the rules, then to the picker", async () => {
    const t = (tui = await PtyTui.start(size))
    // One read: the screen, the filter kept with enter, the zone opened.
    t.write(`3/mail${PtyKeys.enter}`)
    await t.waitFor((s) => s.includes("filter: mail") && s.includes("› acme-mail.com"))
    t.write(PtyKeys.enter)
    // The footer names the migration on this screen too.
    await t.waitFor((s) => s.includes("Firewall rules of acme-mail.com") && / m migrate /.test(s))
    for (const [key, title] of [
      ["m", "Migrate acme-mail.com to custom rules"],
      ["c", "Custom rules of acme-mail.com"],
      ["l", "Zone Lockdown and UA rules → custom rules"],
      ["R", "Rate limits (previous version) → rate limiting rules"]
    ] as const) {
      t.write(key)
      const view = await t.waitFor((s) => !s.includes("Firewall rules of acme-mail.com") && s.includes(title))
      expect(view).toContain("Firewall rules · zone acme-mail.com")
      t.write(PtyKeys.escape)
      await t.waitFor("Firewall rules of acme-mail.com")
    }
    t.write(PtyKeys.escape)
    await t.waitFor("Pick a zone")
  })
})
