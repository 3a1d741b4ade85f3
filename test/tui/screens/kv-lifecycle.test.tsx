/**
 * The KV screen's lifecycle keys: export (`x`), the selected namespace to a file named in a prompt,
 * the same bytes as `edgectl kv export` writes (the CLI's own tests check that those are `import`
 * input); clear (`C`), after a confirmation naming the namespace and the count.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { Fixture, Keys } from "../../helpers/ink.js"

const fixture = new Fixture()
afterEach(async () => {
  await fixture.dispose()
})

describe("KV screen: export and clear", () => {
  it("x asks for a file (the title by default), writes every key there and says how many", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText("1/46")
    await app.press("5", "globex-translations")
    await app.press("/", "type filter by title")
    await app.press("globex", "1/1 ")
    await app.press(Keys.enter, "filter: globex")
    await app.press("x", "Export globex-translations to file")
    expect(app.frame()).toContain("globex-translations.json")
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-tui-export-")), "out.json")
    await app.press("\u0015", "Export globex-translations to file")
    await app.press(file)
    await app.press(Keys.enter, `Exported 4 keys of globex-translations to ${file}.`)
    const entries = JSON.parse(fs.readFileSync(file, "utf8")) as Array<{ key: string; value: string }>
    expect(entries.map((e) => e.key)).toEqual(["de/hello", "en/hello", "fr/hello", "ja/hello"])
    expect(entries.find((e) => e.key === "ja/hello")?.value).toBe("こんにちは")
  })

  it("C asks, naming the namespace and its key count; n keeps the keys, y deletes them all", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText("1/46")
    await app.press("5", "globex-translations")
    await app.press("/", "type filter by title")
    await app.press("globex", "1/1 ")
    await app.press(Keys.enter, "filter: globex")
    await app.press("C", "Delete all 4 keys of namespace globex-translations")
    await app.press("n", "1/1 ")
    await app.press("C", "Delete all 4 keys of namespace globex-translations")
    await app.press("y", "Deleted 4 keys of globex-translations.")
    await app.press(Keys.enter, "/ to filter by prefix")
    await app.waitForText("No keys")
  })
})
