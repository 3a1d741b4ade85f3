/**
 * DNS writes in the TUI (issue 29, "What is missing"): a record created, edited and deleted on a
 * zone's DNS tab, each confirmation showing on `v` the exact request it sends, each write read back
 * through the CLI and listed in the session log (`L`); `/` narrows by type and content. Keys are sent
 * in one read; the content goes in as a paste, bracketed and not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, json, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat } from "../helpers/tui-screen.js"

const sizes = [
  { columns: 80, rows: 24, bracketed: true },
  { columns: 120, rows: 40, bracketed: false }
] as const

const Zone = "acme-shop.com"

interface Row {
  readonly id: string
  readonly type: string
  readonly name: string
  readonly content: string
  readonly ttl: number
}

/** The dialog's lines joined with nothing between them: a request line cut at the dialog's width reads whole. */
const joined = (screen: string): string =>
  screen
    .split("\n")
    .map((l) => /│ │ (.*?)\s*│ │\s*$/.exec(l)?.[1] ?? "")
    .join("")

const pasted = (text: string, bracketed: boolean) => (bracketed ? `\u001b[200~${text}\u001b[201~` : text)

describe.each(sizes)("DNS writes at $columns x $rows", ({ bracketed, ...size }) => {
  let tui: PtyTui
  let dir: string
  let zoneId: string
  const records = async (): Promise<ReadonlyArray<Row>> => {
    const r = await edgectlAsync(["dns", "list", Zone, "--json", "--persist-to", dir])
    expect(r.status, r.stderr).toBe(0)
    return json<Array<Row>>(r)
  }
  const host = `tui-${size.columns}`
  const fqdn = `${host}.${Zone}`

  beforeAll(async () => {
    dir = tempDir("edgectl-dns-writes-")
    const z = await edgectlAsync(["zones", "get", Zone, "--json", "--persist-to", dir])
    expect(z.status, z.stderr).toBe(0)
    zoneId = json<{ id: string }>(z).id
    tui = await PtyTui.start({ ...size, persistTo: dir })
    tui.write(":")
    await tui.waitFor("screen or zone name")
    await tui.type(Zone)
    await tui.waitFor(new RegExp(`› zone\\s+${Zone.replace(/\./g, "\\.")}`))
    tui.write(PtyKeys.enter)
    await tui.waitFor("[DNS records]")
    await tui.waitFor(/\d+\/\d+/)
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("n creates a record: the form, the confirmation, v shows the POST and its body, y sends it", async () => {
    // Keys in one read: the form opens on the type (A), tab to the name, the content pasted.
    tui.write(`n\t${host}\t`)
    await tui.waitFor(`New DNS record in ${Zone}`)
    tui.write(pasted("192.0.2.7", bracketed))
    await tui.waitFor("192.0.2.7")
    tui.write(PtyKeys.enter)
    await tui.waitFor(`Create A ${host} → 192.0.2.7?`)
    tui.write("v")
    const shown = flat(await tui.waitFor((s) => joined(s).includes(`POST /zones/${zoneId}/dns_records{`)))
    expect(shown).toContain('"content": "192.0.2.7"')
    expect(shown).toContain(`"name": "${host}"`)
    expect(shown).toContain('"ttl": 1')
    expect(await records()).not.toContainEqual(expect.objectContaining({ name: fqdn }))
    tui.write("y")
    await tui.waitFor(`Created A ${fqdn}`)
    expect(await records()).toContainEqual(expect.objectContaining({ type: "A", name: fqdn, content: "192.0.2.7" }))
  })

  it("/ with type: and content: words finds the record; e edits it and sends only the changed field", async () => {
    tui.write(`/type:a content:192.0.2.7${PtyKeys.enter}`)
    await tui.waitFor((s) => s.includes("1/1") && s.includes(fqdn) && s.includes("filter: "))
    tui.write(`e${PtyKeys.ctrlU}`)
    await tui.waitFor(`Edit A ${fqdn}`)
    tui.write(pasted("192.0.2.8", bracketed))
    tui.write(`\t${PtyKeys.ctrlU}3600${PtyKeys.enter}`)
    await tui.waitFor(`Save A ${fqdn}?`)
    tui.write("v")
    const shown = flat(await tui.waitFor((s) => joined(s).includes(`PATCH /zones/${zoneId}/dns_records/`)))
    expect(shown).toContain('"content": "192.0.2.8"')
    expect(shown).toContain('"ttl": 3600')
    expect(shown).not.toContain('"name"')
    tui.write("y")
    await tui.waitFor(`Saved A ${fqdn}`)
    const after = (await records()).find((r) => r.name === fqdn)
    expect(after).toMatchObject({ content: "192.0.2.8", ttl: 3600 })
  })

  it("a refusal of the platform names the field and keeps the form as it was", async () => {
    // esc alone (an esc and a key in one read are alt+key, as in every terminal).
    tui.write(PtyKeys.escape)
    await tui.waitFor("/ to filter by")
    tui.write(`/${host}${PtyKeys.enter}`)
    await tui.waitFor((s) => s.includes("1/1") && s.includes(fqdn) && s.includes("filter: "))
    tui.write(`e\t${PtyKeys.ctrlU}7${PtyKeys.enter}`)
    await tui.waitFor(`Save A ${fqdn}?`)
    tui.write("y")
    const refused = flat(await tui.waitFor((s) => flat(s).includes("nothing was written: fix the field it names")))
    expect(refused).toContain("error: could not save A")
    // The form is back as it was, the platform's words under the field they name.
    expect(refused).toContain(`Edit A ${fqdn}`)
    expect(refused).toContain("› TTL: 7 ttl: must be 1 (automatic) or from 60 to 86400")
    expect((await records()).find((r) => r.name === fqdn)).toMatchObject({ ttl: 3600 })
    // The key that dismisses the error only does that; esc then leaves the form.
    tui.write(" ")
    tui.write(PtyKeys.escape)
    await tui.waitFor((s) => !s.includes(`Edit A ${fqdn}`) && s.includes("1/1"))
  })

  it("d asks in red, v shows the DELETE, y deletes; the CLI no longer lists it", async () => {
    const id = (await records()).find((r) => r.name === fqdn)!.id
    tui.write("dv")
    const shown = flat(await tui.waitFor((s) => joined(s).includes(`DELETE /zones/${zoneId}/dns_records/${id}`)))
    expect(shown).toContain(`Delete A ${fqdn}?`)
    tui.write("y")
    await tui.waitFor(`Deleted A ${fqdn}`)
    expect((await records()).find((r) => r.name === fqdn)).toBeUndefined()
  })

  it("L lists every write of the session with its time, zone, what and result", async () => {
    tui.write("L")
    const log = flat(await tui.waitFor("Session log: 4 write(s)"))
    expect(log).toMatch(new RegExp(`\\d\\d:\\d\\d:\\d\\d ✓ ${Zone} created A ${host} → 192.0.2.7`))
    expect(log).toContain(`edited A ${fqdn}: content: 192.0.2.8, ttl: 3600`)
    expect(log).toContain(`✗ ${Zone} edited A ${fqdn}: ttl: 7 — failed: ttl: must be 1`)
    expect(log).toContain(`deleted A ${fqdn}`)
    // The newest first.
    expect(log.indexOf("deleted")).toBeLessThan(log.indexOf("created"))
    tui.write(PtyKeys.escape)
    await tui.waitFor((s) => !s.includes("Session log"))
  })
})
