/**
 * Keys typed while the KV key form saves act once the save is done, on the screen that follows (the
 * key's value), in order: none is dropped, esc included. The TUI runs `--remote` against a served
 * platform behind a proxy that holds the first save until the test has sent its keys (one burst,
 * one read, no gap) and the TUI has read them all; at 80x24 and 120x40.
 */
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy.js"
import { startPlatform, World, type Platform } from "../helpers/platform.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

let tui: PtyTui | undefined
let platform: Platform | undefined
let proxy: FaultProxy | undefined
afterEach(async () => {
  await tui?.close()
  await proxy?.close()
  await platform?.close()
  tui = undefined
  proxy = undefined
  platform = undefined
})

const remoteEnv = (baseUrl: string, home: string) => ({
  CLOUDFLARE_API_BASE_URL: baseUrl,
  CLOUDFLARE_API_TOKEN: World.allToken,
  CLOUDFLARE_API_KEY: undefined,
  CLOUDFLARE_EMAIL: undefined,
  XDG_STATE_HOME: `${home}/state`,
  HOME: home
})

/**
 * A served platform behind a proxy holding its first PUT (the form's save) until `release` (then
 * forwarded, or failed with `answer`); the TUI
 * on it (`--remote`), on the KV screen's first namespace; `value` reads a key of it past the proxy.
 */
const heldSave = async (size: { columns: number; rows: number }, answer?: { status: number; message: string }) => {
  const home = tempDir("edgectl-kv-held-")
  platform = await startPlatform()
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  proxy = await startFaultProxy(platform.baseUrl, {
    methods: ["PUT"],
    at: 1,
    fault: { kind: "meanwhile", run: () => released, ...(answer !== undefined ? { answer } : {}) }
  })
  const t = (tui = await PtyTui.start({ ...size, args: ["--remote"], cwd: home, env: remoteEnv(proxy.baseUrl, home) }))
  t.write("5")
  await t.waitFor("acme-feature-flags")
  t.write(PtyKeys.enter)
  const opened = await t.waitFor("n new key")
  // The namespace's header: its title, then `<id> · <account name>` (cut with … at 80 columns).
  const [, id, accountName] = /\b([0-9a-f]{32}) · (.+?)\s*│/.exec(opened)!
  const direct = remoteEnv(platform.baseUrl, home)
  const accounts = await edgectlAsync(["accounts", "list", "--remote", "--json"], { env: direct, cwd: home })
  expect(accounts.status, accounts.stderr).toBe(0)
  const account = (JSON.parse(accounts.stdout) as ReadonlyArray<{ id: string; name: string }>).find((a) =>
    a.name.startsWith(accountName!.replace(/…$/, ""))
  )!.id
  const value = async (key: string) => {
    const r = await edgectlAsync(["kv", "key", "get", "--remote", "--namespace-id", id!, key], {
      env: { ...direct, CLOUDFLARE_ACCOUNT_ID: account },
      cwd: home
    })
    expect(r.status, r.stderr).toBe(0)
    return r.stdout
  }
  /** Waits until the save is held and every key sent is read and handled, then lets the save go. */
  const letSaveGo = async () => {
    await t.waitFor("… saving")
    await t.settle()
    expect(proxy!.seen.filter((r) => r.method === "PUT")).toHaveLength(1)
    release()
  }
  return { t, value, letSaveGo }
}

/** The key list again (its footer), with `key` in it, and no value view. */
const backOnList = (t: PtyTui, key: string) =>
  t.waitFor((s) => s.includes("n new key") && s.includes(key) && !s.includes("esc back"))

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the KV key form's keys while it saves, at $columns x $rows", (size) => {
  it("enter, then e, more text, enter and esc in the same burst: both saves land, esc returns to the list", async () => {
    const { t, value, letSaveGo } = await heldSave(size)
    t.write(`nburst-key${PtyKeys.tab}value-one${PtyKeys.enter}e-two${PtyKeys.enter}${PtyKeys.escape}`)
    await letSaveGo()
    const screen = await backOnList(t, "burst-key")
    expect(screen).not.toContain("New key in")
    expect(screen).not.toContain('Edit "burst-key"')
    expect(await value("burst-key")).toBe("value-one-two")
  })

  it("esc right after enter in the same burst: saved, then back on the list (not left on the value)", async () => {
    const { t, value, letSaveGo } = await heldSave(size)
    t.write(`nquick-esc${PtyKeys.tab}v${PtyKeys.enter}${PtyKeys.escape}`)
    await letSaveGo()
    await backOnList(t, "quick-esc")
    await t.settle()
    expect(t.screen()).not.toContain("esc back")
    expect(await value("quick-esc")).toBe("v")
  })

  it("a save that fails: the keys typed during it edit the form again, save it and leave", async () => {
    const { t, value, letSaveGo } = await heldSave(size, { status: 403, message: "held and refused" })
    t.write(`nfail-key${PtyKeys.tab}v${PtyKeys.enter}x${PtyKeys.enter}${PtyKeys.escape}`)
    await letSaveGo()
    await backOnList(t, "fail-key")
    expect(await value("fail-key")).toBe("vx")
  })
})
