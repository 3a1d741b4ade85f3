import { afterEach, describe, expect, it } from "vitest"
import { demoNamespaceId } from "../../../src/demo/kv-namespaces.js"
import { hexId } from "../../../src/domain/ids.js"
import { startPlatform, World, type Platform } from "../../helpers/platform.js"
import { Fixture, Keys, selectedRow, waitFor } from "../../helpers/ink.js"
import { KvKeys } from "../../../tui/screens/kv-keys.js"
import { CommandTargetContext } from "../../../tui/command-target.js"
import { zoneCounter } from "../../helpers/demo-world.js"

const fixture = new Fixture()
let platform: Platform | undefined
afterEach(async () => {
  await fixture.dispose()
  await platform?.close()
  platform = undefined
})

/** The app on the KV screen, with the demo namespaces listed. */
const openKv = async (requests?: Array<string>) => {
  const app = await fixture.render(fixture.local(requests))
  await app.waitForText(zoneCounter(1))
  await app.press("5", "globex-translations")
  return app
}

/** The keys of a demo namespace, opened from the list. */
const openNamespace = async (title: string, requests?: Array<string>) => {
  const app = await openKv(requests)
  await app.press("/", "type filter by title")
  await app.press(title, "1/1 ")
  await app.press(Keys.enter, `filter: ${title}`)
  await app.press(Keys.enter, "/ to filter by prefix")
  return app
}

describe("KV screen", () => {
  it("lists the namespaces of every account; a picks one account", async () => {
    const app = await openKv()
    const frame = app.frame()
    for (const t of ["acme-feature-flags", "acme-sessions", "acme-web-config", "globex-translations"])
      expect(frame).toContain(t)
    expect(frame).toContain(demoNamespaceId("Acme Corp", "acme-sessions"))
    expect(selectedRow(frame)).toMatch(/^acme-feature-flags\s+[0-9a-f]{32}\s+Acme Corp/)
    await app.press("a", "Choose an account")
    await app.waitForText("Initech")
    await app.press("j")
    await app.press("j", "› Globex")
    await app.press(Keys.enter, "account Globex")
    await app.waitForText("1/1 ")
    expect(app.frame()).toContain("globex-translations")
    expect(app.frame()).not.toContain("acme-sessions")
  })

  it("keys are paged by cursor as the cursor moves; / filters by prefix on the server", async () => {
    const requests: Array<string> = []
    const app = await openNamespace("acme-sessions", requests)
    await app.waitForText("1/100+")
    const ns = demoNamespaceId("Acme Corp", "acme-sessions")
    const keyRequests = () => requests.filter((r) => r.includes(`/${ns}/keys`))
    expect(keyRequests()).toEqual([
      `/accounts/${hexId("account", "Acme Corp")}/storage/kv/namespaces/${ns}/keys?limit=100`
    ])
    expect(selectedRow(app.frame())).toMatch(/^session:0001\s+in \d+y \d+d\s+\{"ip":"203\.0\.113\.1"\}/)
    // G goes to the real end, reading the pages after the cursor one by one.
    await app.press("G", "240/240")
    expect(keyRequests()).toHaveLength(3)
    expect(keyRequests()[1]).toMatch(/limit=100&cursor=[A-Za-z0-9_-]+$/)
    expect(app.frame()).toContain("session:0240")
    await app.press("/", "type filter by prefix")
    await app.press("session:007", "1/10")
    expect(keyRequests().at(-1)).toMatch(/prefix=session:007&limit=100$/)
    expect(app.frame()).not.toContain("session:0080")
    // esc clears the prefix, then goes back to the namespaces (still filtered), then clears that filter
    await app.press(Keys.escape, "1/100+")
    await app.press(Keys.escape, "filter: acme-sessions")
    await app.press(Keys.escape, "globex-translations")
  })

  it("the value viewer: JSON pretty-printed with metadata and expiration, text as it is, binary as hex", async () => {
    const app = await openNamespace("acme-web-config")
    await app.waitForText("config/site")
    await app.press("j")
    await app.press("j", "› config/site")
    await app.press(Keys.enter, "JSON")
    const json = app.frame()
    expect(json).toContain('"theme": "dark"')
    expect(json).toContain('metadata {"owner":"web-team","schema":2}')
    expect(json).toContain("expires never")
    await app.press(Keys.escape, "› config/site")
    await app.press("k")
    await app.press("k", "› banner")
    await app.press(Keys.enter, "text")
    expect(app.frame()).toContain("Spring sale: 20% off everything until Friday!")
    expect(app.frame()).toContain("expires 2030-01-01 00:00:00Z (in ")
    expect(app.frame()).toContain("metadata none")
    await app.press(Keys.escape, "› banner")
    await app.press("j")
    await app.press("j")
    await app.press("j", "› favicon.png")
    await app.press(Keys.enter, "binary (hex)")
    expect(app.frame()).toContain("00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|")
    // a binary value is not edited here, and the screen says how to do it
    await app.press("e", "cannot be edited here")
  })

  it("n puts a new key: each problem shows under its field and nothing is written until it is right", async () => {
    const requests: Array<string> = []
    const app = await openNamespace("acme-feature-flags", requests)
    await app.waitForText("flag:beta-search")
    await app.press("n", "New key in acme-feature-flags")
    await app.press("flag:new key")
    await app.press(Keys.tab)
    await app.press('{"enabled":true}')
    await app.press(Keys.tab)
    await app.press("[1]")
    await app.press(Keys.tab)
    await app.press(Keys.tab)
    await app.press("30")
    await app.press(Keys.enter, "the minimum is 60")
    const frame = app.frame()
    expect(frame).toContain("key has whitespace (U+0020) at character 9")
    expect(frame).toContain("metadata must be a JSON object, got an array")
    expect(frame).toContain("expiration_ttl is 30 seconds, the minimum is 60")
    expect(requests.filter((r) => r.includes("/values/"))).toEqual([])
    // the cursor is on the first field with a problem: the key loses its space, metadata becomes an object, the TTL an hour
    expect(app.frame()).toContain("› key: flag:new key")
    for (let i = 0; i < 4; i++) await app.press(Keys.backspace)
    await app.press("-key", "key: flag:new-key")
    await app.press(Keys.tab)
    await app.press(Keys.tab, "› metadata")
    await app.press("\u0015", "› metadata: ")
    await app.press('{"by":"test"}')
    await app.press(Keys.tab)
    await app.press(Keys.tab, "› TTL seconds")
    await app.press(Keys.backspace)
    await app.press(Keys.backspace)
    await app.press("3600", "TTL seconds: 3600")
    await app.press(Keys.enter, 'Saved key "flag:new-key".')
    await app.waitForText('metadata {"by":"test"}')
    expect(app.frame()).toContain('"enabled": true')
    expect(app.frame()).toMatch(
      /expires \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(in 59m|expires \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(in 1h/
    )
    expect(requests.filter((r) => r.includes("/values/flag%3Anew-key")).length).toBeGreaterThan(0)
    await app.press(Keys.escape, "› flag:beta-search")
    expect(app.frame()).toContain("flag:new-key")
  })

  it("e edits the value; d deletes after a confirmation, n keeps it", async () => {
    const app = await openNamespace("globex-translations")
    await app.waitForText("ja/hello")
    await app.press(Keys.enter, "Hallo")
    await app.press("e", 'Edit "de/hello"')
    await app.press("!", "value: Hallo!")
    await app.press(Keys.enter, 'Saved key "de/hello".')
    await app.waitForText("Hallo!")
    await app.press("d", "Delete key")
    expect(app.frame()).toContain('Delete key "de/hello" from globex-translations? Its value and metadata are')
    await app.press("n", "Hallo!")
    await app.press(Keys.escape, "› de/hello")
    await app.press("d", "Delete key")
    await app.press("y", 'Deleted key "de/hello".')
    await waitFor(
      () => !app.frame().includes("de/hello\n") && selectedRow(app.frame()).startsWith("en/hello"),
      app.frame
    )
    expect(app.frame()).not.toMatch(/de\/hello\s/)
  })
})

describe("commands the KV screens suggest", () => {
  it("are on the TUI's target: a binary value's put names the key, the namespace and the TUI's --persist-to", async () => {
    const runtime = fixture.local()
    const dir = fixture.stateDirOf(runtime)!
    const ns = {
      accountId: hexId("account", "Acme Corp"),
      accountName: "Acme Corp",
      id: demoNamespaceId("Acme Corp", "acme-web-config"),
      title: "acme-web-config"
    }
    const app = await fixture.within(
      runtime,
      <CommandTargetContext.Provider value={{ remote: false, persistTo: dir }}>
        <KvKeys ns={ns} active onBack={() => {}} />
      </CommandTargetContext.Provider>
    )
    await app.waitForText("favicon.png")
    while (!/› favicon\.png/.test(app.frame())) await app.press("j")
    await app.press(Keys.enter, "binary (hex)")
    await app.press("e", "cannot be edited here")
    // The notice wraps inside its bar: read it as one line.
    expect(app.frame().replace(/┃/g, "").replace(/\s+/g, " ")).toContain(
      `edgectl kv key put favicon.png --path FILE --namespace-id ${ns.id} --persist-to ${dir}\``
    )
  })
})

describe("KV screen errors", () => {
  it("a namespace the platform does not know is an error state with its code (remote, as the platform answers)", async () => {
    platform = await startPlatform()
    const runtime = fixture.runtime({
      remote: true,
      env: { CLOUDFLARE_API_TOKEN: World.allToken, CLOUDFLARE_API_BASE_URL: platform.baseUrl }
    })
    const ns = { accountId: hexId("account", "Acme Corp"), accountName: "Acme Corp", id: "0".repeat(32), title: "gone" }
    const app = await fixture.within(runtime, <KvKeys ns={ns} active onBack={() => {}} />)
    await app.waitForText("could not list keys")
    expect(app.frame()).toContain("[code 10013]")
    expect(app.frame()).toContain("hint: it may be gone")
  })
})
