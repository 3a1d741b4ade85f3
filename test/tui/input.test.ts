/**
 * Keys that reach the TUI in one read (a paste, a held key, a laggy link) each act, in order, in
 * every text input, and every input edits like a readline prompt. Each burst below is ONE write to
 * the pty, so the TUI reads it in one chunk.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, json } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

const { left, right, home, end, delete: del, backspace, ctrlU, ctrlW, escape, enter } = PtyKeys

/** The zone whose detail is open (its title line above the tabs), if one is. */
const openZone = (screen: string) =>
  screen.includes("[DNS records]") ? /^│.*│ ([a-z0-9.-]+\.[a-z]+)  active/m.exec(screen)?.[1] : undefined

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("typing in bursts at $columns x $rows", (size) => {
  let tui: PtyTui
  beforeAll(async () => {
    tui = await PtyTui.start(size)
  }, 30_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("several backspaces in one read each delete a character of the zone filter", async () => {
    tui.write("/")
    await tui.waitFor("filter by name")
    tui.write("globexzzz")
    await tui.waitFor('No zones match "globexzzz"')
    tui.write(backspace.repeat(3))
    const screen = await tui.waitFor((s) => s.includes("globex.com") && !s.includes("globexz"))
    expect(screen).toMatch(/\/ globex\s/)
    expect(screen).not.toContain("acme-api.com")
  })

  it("the filter edits in the middle (←, Home, ctrl+w, Delete, End) and a line ending in CR is kept", async () => {
    tui.write(escape)
    await tui.waitFor((s) => s.includes("acme-api.com") && !s.includes("/ globex"))
    tui.write("/")
    await tui.waitFor("filter by name")
    // "acme-shop.cm", ← then "o" → acme-shop.com; Home, "foo " then ctrl+w deletes it; "X", ← and
    // Delete take it out again; End and enter keep the filter.
    tui.write(`acme-shop.cm${left}o${home}foo ${ctrlW}X${left}${del}${end}${enter}`)
    // The filter line shows at once; the list follows when the platform answers the new filter.
    const screen = await tui.waitFor(
      (s) => s.includes("filter: acme-shop.com") && !s.includes("acme-api.com") && /› [a-z]/.test(s)
    )
    expect(screen).toMatch(/› acme-shop\.com/)
    tui.write(escape)
    await tui.waitFor((s) => s.includes("acme-api.com") && !s.includes("filter: "))
  })

  it("`:`, a zone name and enter in one read open that zone, not the first match of an older query", async () => {
    tui.write(`:acme.com${enter}`)
    // Wait for the palette to close on an open zone (a frame drawn while it closes may still list its
    // matches), then read which zone opened from its title line.
    let screen = await tui.waitFor((s) => openZone(s) !== undefined && !s.includes("screen or zone name"))
    expect(openZone(screen)).toBe("acme.com")
    // Typed at human speed, the list shows acme-api.com first; the rest of the name and enter in
    // one read must not pick it.
    tui.write(":")
    await tui.waitFor("screen or zone name")
    await tui.type("acme")
    await tui.waitFor((s) => /› zone\s+acme-api\.com/.test(s))
    tui.write(`-shop.com${enter}`)
    screen = await tui.waitFor(
      (s) => openZone(s) !== "acme.com" && openZone(s) !== undefined && !s.includes("screen or zone name")
    )
    expect(openZone(screen)).toBe("acme-shop.com")
  })

  it("a prompt: backspaces in one read, ctrl+u, edits in the middle, and a pasted line ending in CR submits", async () => {
    // Three tabs in one read: DNS records → Certificate packs → ESC → Firewall.
    tui.write("\t\t\t")
    await tui.waitFor("[Firewall]")
    await tui.waitFor("n new")
    tui.write("n")
    await tui.waitFor("its filter")
    tui.write("ip.src eq 10.0.0.1zzz")
    await tui.waitFor("› ip.src eq 10.0.0.1zzz")
    tui.write(backspace.repeat(3))
    await tui.waitFor((s) => s.includes("› ip.src eq 10.0.0.1 ") && !s.includes("zzz"))
    tui.write(ctrlU)
    await tui.waitFor((s) => !s.includes("› ip.src"))
    // A field name missing a letter, mended in the middle, then submitted in the same read.
    tui.write(`ip.sr eq 10.0.0.1${home}${right.repeat(5)}c${enter}`)
    await tui.waitFor((s) => s.includes("Action") && s.includes("managed_challenge,"))
    // "bloxx yy": ctrl+w takes "yy", backspace the space, ← Delete twice the two x, then "ck".
    tui.write(`bloxx yy${ctrlW}${backspace}${left}${del}${left}${del}ck${enter}`)
    await tui.waitFor("Priority (lower runs first)")
    // No priority, no description: two enters in one read take the two prompts that follow.
    tui.write(`${enter}${enter}`)
    await tui.waitFor(
      (s) =>
        !s.includes("Description (names the rule") && !s.includes("Priority (lower") && s.includes("ip.src eq 10.0.0.1")
    )
    const rules = json<ReadonlyArray<{ action: string; filter: { expression: string } }>>(
      await edgectlAsync([
        "firewall",
        "rules",
        "list",
        "--zone",
        "acme-shop.com",
        "--persist-to",
        tui.persistTo,
        "--json"
      ])
    )
    expect(rules.map((r) => `${r.action} ${r.filter.expression}`)).toContain("block ip.src eq 10.0.0.1")
  })

  it("the KV form: tab and typing in one read, each field edited in the middle, enter saves what is shown", async () => {
    // A screen named exactly opens at once from the palette.
    tui.write(`:kv${enter}`)
    await tui.waitFor("› acme-feature-fl")
    tui.write(enter)
    await tui.waitFor("n new key")
    tui.write("n")
    await tui.waitFor("New key in acme-feature-flags")
    tui.write(
      `greting${left.repeat(4)}e${end}\thelo wrld${left.repeat(3)}o${home}${right.repeat(3)}l\u0005!!${backspace}`
    )
    await tui.waitFor((s) => s.includes("key: greeting") && s.includes("value: hello world! "))
    tui.write(enter)
    await tui.waitFor((s) => !s.includes("New key in"))
    const namespaces = json<ReadonlyArray<{ id: string; title: string }>>(
      await edgectlAsync(["kv", "namespace", "list", "--persist-to", tui.persistTo, "--json"])
    )
    const ns = namespaces.find((n) => n.title === "acme-feature-flags")!
    const value = await edgectlAsync([
      "kv",
      "key",
      "get",
      "greeting",
      "--namespace-id",
      ns.id,
      "--text",
      "--persist-to",
      tui.persistTo
    ])
    expect(value.stdout.replace(/\n$/, "")).toBe("hello world!")

    // Saved, the key's value is shown; a dialog opened by one key of a read takes the next: `d`
    // then `y` in one write deletes it.
    await tui.waitFor((s) => s.includes("d delete") && /^│.*│ hello world!\s/m.test(s))
    tui.write("dy")
    await tui.waitFor((s) => !s.includes("hello world!"))
    const gone = await edgectlAsync([
      "kv",
      "key",
      "get",
      "greeting",
      "--namespace-id",
      ns.id,
      "--persist-to",
      tui.persistTo
    ])
    expect(`${gone.stdout}${gone.stderr}`).toContain("Value not found")
  })
})
