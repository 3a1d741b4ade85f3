/**
 * The session log (`L`, issue 29): a write on another screen than DNS (a KV key put, then deleted)
 * is listed with its time, its namespace, what and its result after the footer's notice is gone; the
 * log is empty before any write, and esc gives the screen back as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat } from "../helpers/tui-screen.js"

/** A dialog's lines joined with nothing between them: a request line cut at the dialog's width reads whole. */
const joined = (screen: string): string =>
  screen
    .split("\n")
    .map((l) => /│ │ (.*?)\s*│ │\s*$/.exec(l)?.[1] ?? "")
    .join("")

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
] as const

describe.each(sizes)("the session log at $columns x $rows", (size) => {
  let tui: PtyTui
  let state: string
  beforeAll(async () => {
    state = tempDir("edgectl-session-log-")
    tui = await PtyTui.start({ ...size, persistTo: state })
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("says no writes yet, and esc closes it", async () => {
    tui.write("L")
    await tui.waitFor("Session log: no writes yet")
    tui.write(PtyKeys.escape)
    await tui.waitFor((s) => !s.includes("Session log"))
  })

  it("lists a KV put and a delete, newest first, each read back through the CLI", async () => {
    tui.write("5")
    await tui.waitFor("acme-feature-flags")
    const title = tui.screen().match(/›\s+(\S+)/)![1]!
    const ns = await edgectlAsync(["kv", "namespace", "list", "--persist-to", state])
    const id = (JSON.parse(ns.stdout) as ReadonlyArray<{ id: string; title: string }>).find(
      (n) => n.title === title
    )!.id
    await tui.type(PtyKeys.enter)
    await tui.waitFor("new key")
    // One read: n opens the form, the key, tab, the value, enter saves.
    tui.write(`nlogged-key\tv1${PtyKeys.enter}`)
    await tui.waitFor((s) => !s.includes("New key in") && s.includes("logged-key"))
    const got = await edgectlAsync(["kv", "key", "get", "--persist-to", state, "--namespace-id", id, "logged-key"])
    expect(got.stdout).toBe("v1")
    tui.write("L")
    const one = flat(await tui.waitFor("Session log: 1 write(s)"))
    expect(one).toMatch(new RegExp(`\\d\\d:\\d\\d:\\d\\d ✓ ${title} put key "logged-key" \\(2 bytes\\)`))
    tui.write(PtyKeys.escape)
    await tui.waitFor((s) => !s.includes("Session log") && s.includes("logged-key"))
    // The form left the new key's value shown: d and y delete it from there.
    expect(tui.screen()).toContain("2 bytes")
    // v first: the exact request, the key encoded in the path as the client sends it.
    tui.write("dv")
    await tui.waitFor((s) => joined(s).includes(`/storage/kv/namespaces/${id}/values/logged-key`))
    expect(joined(tui.screen())).toMatch(
      new RegExp(`DELETE /accounts/[0-9a-f]{32}/storage/kv/namespaces/${id}/values/logged-key`)
    )
    tui.write("y")
    await tui.waitFor('Deleted key "logged-key"')
    const left = await edgectlAsync(["kv", "key", "list", "--json", "--persist-to", state, "--namespace-id", id])
    expect(left.status, left.stderr).toBe(0)
    expect((JSON.parse(left.stdout) as ReadonlyArray<{ name: string }>).map((k) => k.name)).not.toContain("logged-key")
    tui.write("L")
    const two = flat(await tui.waitFor("Session log: 2 write(s)"))
    expect(two.indexOf('deleted key "logged-key"')).toBeGreaterThan(-1)
    expect(two.indexOf('deleted key "logged-key"')).toBeLessThan(two.indexOf('put key "logged-key"'))
    tui.write(PtyKeys.escape)
    await tui.waitFor((s) => !s.includes("Session log"))
  })
})
