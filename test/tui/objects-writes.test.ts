/**
 * The Objects screen's writes (issue 29): a key's value shown whole (enter), a key put (n, its
 * value typed, in one read, or pasted with and without bracketed paste: a paste keeps its lines
 * and nothing is stored until enter), edited (e), deleted (d, after a confirmation), the alarm set
 * (a: ISO or +DURATION, a wrong one refused naming the field and the value) and deleted (x). Each
 * write is read back with the CLI's `objects` commands, at 80x24 and 120x40.
 */
import { afterEach, describe, expect, it } from "vitest"
import { edgectl, edgectlAsync, json, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const pasted = (text: string, bracketed: boolean): string => {
  const sent = text.replace(/\n/g, "\r")
  return bracketed ? `\u001b[200~${sent}\u001b[201~` : sent
}

const objects = (state: string, ...args: Array<string>) => edgectl(["objects", ...args, "--persist-to", state])

/** A state with object Counter "a" holding `keys`; the TUI opened on that object's keys. */
const openObject = async (size: { columns: number; rows: number }, keys: Record<string, string>) => {
  const state = tempDir("edgectl-objw-")
  for (const [k, v] of Object.entries(keys)) {
    const r = await edgectlAsync(["objects", "kv", "Counter", "a", "put", k, v, "--persist-to", state])
    expect(r.status, r.stderr).toBe(0)
  }
  const t = (tui = await PtyTui.start({ ...size, persistTo: state }))
  t.write("6")
  await t.waitFor(/›.*Counter\s+a\b/)
  t.write(PtyKeys.enter)
  await t.waitFor("Counter a  alarm")
  return { t, state }
}

const get = (state: string, key: string) =>
  json<{ found: boolean; value: unknown }>(objects(state, "kv", "Counter", "a", "get", key, "--json"))

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
]

describe.each(sizes)("Objects writes at $columns x $rows", (size) => {
  it.each([
    { how: "typed", mode: "typed" },
    { how: "in one read", mode: "one read" },
    { how: "as a bracketed paste", mode: "bracketed" },
    { how: "as a paste without brackets", mode: "unbracketed" }
  ] as const)("n puts a key, its value $how; read back with objects kv get", async ({ mode }) => {
    const { t, state } = await openObject(size, { seed: "1" })
    t.write("n")
    await t.waitFor("its name")
    if (mode === "typed") await t.type("note")
    else t.write("note")
    await t.waitFor("› note")
    t.write(PtyKeys.enter)
    await t.waitFor('the value of "note"')
    const value = mode === "typed" || mode === "one read" ? "hello world" : "first line\nsecond day d y q 1"
    if (mode === "typed") await t.type(value)
    else t.write(mode === "one read" ? value : pasted(value, mode === "bracketed"))
    if (value.includes("\n")) {
      // The paste is text: kept whole in the field, which says how to submit; nothing stored yet.
      const shown = await t.waitFor("2 lines")
      expect(flat(shown)).toContain("enter to store all of it")
      expect(get(state, "note").found).toBe(false)
    } else await t.waitFor(`› ${value}`)
    t.write(PtyKeys.enter)
    await t.waitFor('✓ Stored key "note"')
    expect(get(state, "note")).toEqual({ key: "note", found: true, value })
    // Still on the object, the key listed (a pasted `q` or `1` acted as no key).
    const listed = await t.waitFor(/note\s+(hello world|first line⏎second day)/)
    expect(listed).toContain("Counter a  alarm")
    expect(get(state, "seed").found).toBe(true)
  })

  it("enter shows a long value whole: wrapped to the pane, scrolled to its end", async () => {
    const long = `${"0123456789".repeat(500)}END`
    const { t } = await openObject(size, { big: long })
    t.write(PtyKeys.enter)
    const first = await t.waitFor("string · 5003 characters")
    expect(first).toMatch(/rows 1-\d+ of \d+/)
    const width = size.columns - 18 - 2
    // Rows cut at the pane's width, no indent: copied rows give the value back.
    expect(first).toContain(`│ ${"0123456789".repeat(10).slice(0, width)}`)
    t.write("G")
    await t.waitFor(/│ \d*END\s+│/)
    t.write(PtyKeys.escape)
    await t.waitFor("KEY")
  })

  it("e edits a value and d deletes a key after asking (in one read); both read back", async () => {
    const { t, state } = await openObject(size, { a1: "old", b2: "keep" })
    t.write("e")
    await t.waitFor('Edit the value of "a1"')
    t.write(`${PtyKeys.ctrlU}new${PtyKeys.enter}`)
    await t.waitFor('✓ Stored key "a1"')
    expect(get(state, "a1").value).toBe("new")
    t.write("dy")
    await t.waitFor('✓ Deleted key "a1"')
    expect(get(state, "a1").found).toBe(false)
    expect(get(state, "b2").value).toBe("keep")
    // From a value's view too: enter, d, then y.
    t.write(PtyKeys.enter)
    await t.waitFor("string · 4 characters")
    t.write("d")
    await t.waitFor('Delete key "b2"')
    t.write("y")
    await t.waitFor('✓ Deleted key "b2"')
    expect(get(state, "b2").found).toBe(false)
    // A put whose keys all come in one read, then the session log: each write, with its object.
    t.write(`nc3${PtyKeys.enter}v3${PtyKeys.enter}L`)
    const log = flat(await t.waitFor("Session log: 4 write(s)"))
    expect(get(state, "c3").value).toBe("v3")
    for (const w of ['put key "a1"', 'delete key "a1"', 'delete key "b2"', 'put key "c3"'])
      expect(log).toContain(`✓ Counter a ${w}`)
  })

  it.each([
    { how: "typed", oneRead: false },
    { how: "pasted", oneRead: true }
  ])("a sets the alarm (+DURATION, $how), refuses a wrong time, x deletes it", async ({ oneRead }) => {
    const { t, state } = await openObject(size, { k: "v" })
    t.write("a")
    await t.waitFor("Set the alarm of Counter a")
    if (oneRead) t.write(pasted("+2x", true))
    else await t.type("+2x")
    const refused = await t.waitFor('not a duration: "+2x"')
    expect(flat(refused)).toContain('alarm time: not a duration: "+2x" (ISO 8601 like')
    t.write(PtyKeys.enter)
    await t.settle()
    expect(json<{ alarm: string | null }>(objects(state, "alarm", "Counter", "a", "--json")).alarm).toBeNull()
    t.write(PtyKeys.ctrlU)
    const before = Date.now()
    if (oneRead) t.write(pasted("+2h", true))
    else await t.type("+2h")
    await t.waitFor("› +2h")
    t.write(PtyKeys.enter)
    await t.waitFor("✓ Alarm set to")
    const at = Date.parse(json<{ alarm: string }>(objects(state, "alarm", "Counter", "a", "--json")).alarm)
    expect(at).toBeGreaterThanOrEqual(before + 2 * 3600_000 - 1000)
    expect(at).toBeLessThanOrEqual(Date.now() + 2 * 3600_000)
    await t.waitFor(/alarm \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in 1h 59m|alarm \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in 2h/)
    t.write("x")
    await t.waitFor("Delete the alarm of Counter a?")
    t.write("y")
    await t.waitFor("✓ Alarm deleted.")
    expect(json<{ alarm: string | null }>(objects(state, "alarm", "Counter", "a", "--json")).alarm).toBeNull()
    await t.waitFor("alarm none")
  })
})
