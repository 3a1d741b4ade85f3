import { Text } from "ink"
import { render } from "ink-testing-library"
import { afterEach, describe, expect, it } from "vitest"
import { Footer } from "../../tui/components/footer.js"
import { KeyLayer, KeypressProvider, useKeys } from "../../tui/keys.js"
import { NoticeProvider, useNotify } from "../../tui/notices.js"
import { waitFor } from "../helpers/ink.js"

/** The filter id at the end of a message longer than a footer line: it must stay in view. */
const FilterId = "6f0c6f2b2a4e4f6b9d3c1a2b3c4d5e6f"
const Duplicate = `a filter with the expression (http.request.uri.path eq "/login" and ip.src in {192.0.2.0/24}) already exists: ${FilterId}`

/** A file a result names, longer than a footer line. */
const LongPath = "/home/someone/projects/edgectl-exports/2026-11-28/globex-translations-before-migration.json"

/** d: a result; x: a result naming a long path; e: an API error; l: a long one with a hint; w: a refusal; j: a key that only moves. */
function Actions({ log = [] }: { log?: Array<string> }) {
  const notify = useNotify()
  useKeys(
    (press) => {
      log.push(press.name)
      if (press.name === "d") notify.done('Saved key "a".')
      else if (press.name === "x") notify.done(`Exported 4 keys of globex-translations to ${LongPath}.`)
      else if (press.name === "e")
        notify.error('could not delete "a"', { message: "key not found", code: 10009, hint: "" })
      else if (press.name === "l")
        notify.error("could not create the rule", {
          message: Duplicate,
          code: 10102,
          hint: "reuse the filter: press u"
        })
      else if (press.name === "w") notify.warn("nothing to clear")
      else return press.name === "j"
      return true
    },
    { priority: KeyLayer.screen, hints: [{ keys: "d/e/w", label: "act" }] }
  )
  return <Text>screen</Text>
}

const mounted: Array<() => void> = []
afterEach(() => mounted.splice(0).forEach((unmount) => unmount()))

/** Long enough that a result is still there after the few keys a test presses. */
const DoneMillis = 1000

const mount = async (log: Array<string> = []) => {
  const app = render(
    <KeypressProvider onQuit={() => {}}>
      <NoticeProvider doneMillis={DoneMillis}>
        <Actions log={log} />
        <Footer />
      </NoticeProvider>
    </KeypressProvider>
  )
  mounted.push(app.unmount)
  await new Promise((r) => setTimeout(r, 50))
  const frame = () => app.lastFrame() ?? ""
  const press = async (keys: string) => {
    app.stdin.write(keys)
    await new Promise((r) => setTimeout(r, 20))
  }
  return { frame, press }
}

describe("footer notices", () => {
  it("a result shows in the footer with a tick and goes after a few seconds", async () => {
    const app = await mount()
    await app.press("d")
    expect(app.frame()).toContain('✓ Saved key "a".')
    await app.press("j")
    expect(app.frame()).toContain('✓ Saved key "a".')
    await waitFor(() => !app.frame().includes("Saved key"))
  })

  it("a result longer than the line is shown whole, wrapped (the file it names is not cut), then goes", async () => {
    const app = await mount()
    await app.press("x")
    const lines = app.frame().split("\n")
    const at = lines.findIndex((l) => l.trim().startsWith("✓ Exported 4 keys"))
    expect(at).toBeGreaterThan(0)
    // ink-testing-library draws 100 columns: the result takes two lines, the path whole on them.
    expect(lines.slice(at).map((l) => l.trim())).toEqual([
      "✓ Exported 4 keys of globex-translations to",
      `${LongPath}.`
    ])
    await waitFor(() => !app.frame().includes("Exported"))
    expect(app.frame().split("\n").at(-1)?.trim()).toBe("")
  })

  it("an error keeps its code until a key is pressed, and that key only dismisses it", async () => {
    const log: Array<string> = []
    const app = await mount(log)
    await app.press("e")
    expect(app.frame()).toContain('error: could not delete "a": key not found [code 10009]')
    expect(app.frame()).toContain("any key dismisses")
    await new Promise((r) => setTimeout(r, DoneMillis * 1.5))
    expect(app.frame()).toContain("[code 10009]")
    await app.press("d")
    expect(app.frame()).not.toContain("10009")
    expect(app.frame()).not.toContain("✓ Saved")
    expect(log).toEqual(["e"])
    await app.press("w")
    expect(app.frame()).toContain("nothing to clear")
    await app.press("d")
    expect(app.frame()).not.toContain("nothing to clear")
    await app.press("d")
    expect(app.frame()).toContain("✓ Saved")
    expect(log).toEqual(["e", "w", "d"])
  })

  it("a long error shows whole, wrapped over the lines it needs, with its code and its hint", async () => {
    const app = await mount()
    await app.press("l")
    const lines = app.frame().split("\n")
    // The test terminal is 100 columns: no line is cut, none is wider.
    expect(lines.every((l) => [...l].length <= 100)).toBe(true)
    expect(app.frame()).not.toContain("…")
    const text = lines.map((l) => l.replace(/^\s*┃\s?/, "").trimEnd()).join(" ")
    expect(text).toContain(`error: could not create the rule: ${Duplicate} [code 10102]`)
    expect(text).toContain("hint: reuse the filter: press u")
    expect(text).toContain("any key dismisses")
    await app.press("j")
    expect(app.frame()).not.toContain(FilterId)
  })

  it("keys read in one chunk: the first dismisses the error, the others act", async () => {
    const log: Array<string> = []
    const app = await mount(log)
    await app.press("e")
    await app.press("jd")
    expect(log).toEqual(["e", "d"])
    expect(app.frame()).toContain("✓ Saved")
  })
})
