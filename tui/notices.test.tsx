import { Text } from "ink"
import { render } from "ink-testing-library"
import { afterEach, describe, expect, it } from "vitest"
import { Footer } from "./components/footer.js"
import { KeyLayer, KeypressProvider, useKeys } from "./keys.js"
import { NoticeProvider, useNotify } from "./notices.js"
import { waitFor } from "./test-support.js"

/** d: a result; e: an API error; w: a refusal; j: a key that only moves. */
function Actions() {
  const notify = useNotify()
  useKeys(
    (press) => {
      if (press.name === "d") notify.done("Saved key \"a\".")
      else if (press.name === "e") notify.error("could not delete \"a\"", { message: "key not found", code: 10009, hint: "" })
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

const mount = async () => {
  const app = render(
    <KeypressProvider onQuit={() => {}}>
      <NoticeProvider doneMillis={DoneMillis}>
        <Actions />
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

  it("an error keeps its code until a key is pressed, and that key still acts", async () => {
    const app = await mount()
    await app.press("e")
    expect(app.frame()).toContain('error: could not delete "a": key not found [code 10009]')
    await new Promise((r) => setTimeout(r, DoneMillis * 1.5))
    expect(app.frame()).toContain("[code 10009]")
    await app.press("j")
    expect(app.frame()).not.toContain("10009")
    await app.press("w")
    expect(app.frame()).toContain("nothing to clear")
    await app.press("d")
    expect(app.frame()).not.toContain("nothing to clear")
    expect(app.frame()).toContain("✓ Saved")
  })
})
