import { Text } from "ink"
import { render } from "ink-testing-library"
import { afterEach, describe, expect, it } from "vitest"
import { KeypressProvider } from "../../../tui/keys.js"
import { UiProvider } from "../../../tui/state.js"
import { Keys, waitFor } from "../../helpers/ink.js"
import { ErrorBoundary } from "../../../tui/components/error-boundary.js"
import { Footer } from "../../../tui/components/footer.js"

let broken = true
function Fragile() {
  if (broken) throw new Error("boom")
  return <Text>drawn</Text>
}

const mounted: Array<() => void> = []
afterEach(() => mounted.splice(0).forEach((unmount) => unmount()))

describe("ErrorBoundary", () => {
  it("replaces a component that throws with an error state, and r tries again", async () => {
    let quits = 0
    const app = render(
      <KeypressProvider onQuit={() => quits++}>
        <UiProvider onQuit={() => quits++}>
          <ErrorBoundary what="the screen failed to draw">
            <Fragile />
          </ErrorBoundary>
          <Footer />
        </UiProvider>
      </KeypressProvider>
    )
    mounted.push(app.unmount)
    const frame = () => app.lastFrame() ?? ""
    expect(frame()).toContain("error: the screen failed to draw: boom")
    expect(frame()).toContain("r try again")
    await new Promise((r) => setTimeout(r, 50))
    broken = false
    app.stdin.write("r")
    await waitFor(() => frame().includes("drawn"), frame)
    broken = true
    app.stdin.write(Keys.ctrlC)
    await waitFor(() => quits === 1)
  })
})
