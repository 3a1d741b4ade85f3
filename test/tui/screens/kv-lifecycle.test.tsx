/**
 * The KV screen's lifecycle keys: export (`x`), the selected namespace to a file named in a prompt,
 * the same bytes as `edgectl kv export` writes (the CLI's own tests check that those are `import`
 * input); import (`i`) of such a file, copy (`c`) into another namespace; clear (`C`), after a
 * confirmation naming the namespace and the count.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { demoNamespaceId } from "../../../src/demo/kv-namespaces.js"
import { Fixture, Keys, shownWrapped } from "../../helpers/ink.js"
import { zoneCounter } from "../../helpers/demo-world.js"

const fixture = new Fixture()
afterEach(async () => {
  await fixture.dispose()
})

/** The app on the KV screen, filtered to the one namespace globex-translations (4 keys). */
const globexTranslations = async () => {
  const app = await fixture.render(fixture.local())
  await app.waitForText(zoneCounter(1))
  await app.press("5", "globex-translations")
  await app.press("/", "type filter by title")
  await app.press("globex", "1/1 ")
  await app.press(Keys.enter, "filter: globex")
  return app
}

describe("KV screen: export, import, copy and clear", () => {
  it("x asks for a file (the title by default), writes every key there and says how many", async () => {
    const app = await globexTranslations()
    await app.press("x", "Export globex-translations to file")
    expect(app.frame()).toContain("globex-translations.json")
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-tui-export-")), "out.json")
    await app.press("\u0015", "Export globex-translations to file")
    await app.press(file)
    await app.press(Keys.enter, shownWrapped(`✓ Exported 4 keys of globex-translations to ${file}.`))
    const entries = JSON.parse(fs.readFileSync(file, "utf8")) as Array<{ key: string; value: string }>
    expect(entries.map((e) => e.key)).toEqual(["de/hello", "en/hello", "fr/hello", "ja/hello"])
    expect(entries.find((e) => e.key === "ja/hello")?.value).toBe("こんにちは")
  })

  it("x to a directory that is not there says so, with the way out (it said: this is a bug in edgectl)", async () => {
    const app = await globexTranslations()
    await app.press("x", "Export globex-translations to file")
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-tui-export-"))
    const missing = path.join(base, "no", "such")
    await app.press("\u0015", "Export globex-translations to file")
    await app.press(path.join(missing, "out.json"))
    await app.press(
      Keys.enter,
      shownWrapped(`cannot write ${path.join(missing, "out.json")}: no such directory: ${missing}`)
    )
    expect(app.frame()).toContain("change what was typed and try again")
    expect(app.frame()).not.toContain("bug")
    // Nothing made: no directory, no file.
    expect(fs.readdirSync(base)).toEqual([])
  })

  it("C asks, naming the namespace and its key count; n keeps the keys, y deletes them all", async () => {
    const app = await globexTranslations()
    await app.press("C", "Delete all 4 keys of namespace globex-translations")
    await app.press("n", "1/1 ")
    await app.press("C", "Delete all 4 keys of namespace globex-translations")
    await app.press("y", "Deleted 4 keys of globex-translations.")
    await app.press(Keys.enter, "/ to filter by prefix")
    await app.waitForText("No keys")
  })

  it("i imports a file into the selected namespace; c copies it into another namespace of its account", async () => {
    const app = await globexTranslations()
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-tui-import-")), "translations.json")
    await app.press("x", "Export globex-translations to file")
    await app.press("\u0015", "Export globex-translations to file")
    await app.press(file)
    await app.press(Keys.enter, "Exported 4 keys")
    await app.press(Keys.escape)
    await app.press("/", "type filter by title")
    await app.press("acme-web", "1/1 ")
    await app.press(Keys.enter, "filter: acme-web")
    await app.press("i", "Import into acme-web-config from file")
    await app.press(file)
    await app.press(Keys.enter, "Imported 4 entries into acme-web-config.")
    const flags = demoNamespaceId("Acme Corp", "acme-feature-flags")
    await app.press("c", "Copy every key of acme-web-config to namespace (id)")
    await app.press(flags)
    await app.press(Keys.enter, `keys of acme-web-config to namespace ${flags}.`)
    await app.press(Keys.escape)
    await app.press("/", "type filter by title")
    await app.press("acme-feature", "1/1 ")
    await app.press(Keys.enter, "filter: acme-feature")
    await app.press(Keys.enter, "/ to filter by prefix")
    await app.press("/", "type filter by prefix")
    await app.press("ja/", "ja/hello")
  })
})
