import { render } from "ink-testing-library"
import { useState } from "react"
import { afterEach, describe, expect, it } from "vitest"
import { KeypressProvider } from "../keys.js"
import { Keys, waitFor } from "../test-support.js"
import { TextPrompt } from "./text-prompt.js"

const mounted: Array<() => void> = []
afterEach(() => mounted.splice(0).forEach((unmount) => unmount()))

/** Two prompts in a row at the same place, as a dialog's steps are. */
function TwoSteps({ submitted }: { submitted: Array<string> }) {
  const [step, setStep] = useState(1)
  return step <= 2 ? (
    <TextPrompt
      title={`Step ${step}`}
      check={(t) => (t === "" ? "type something" : undefined)}
      submitLabel="next"
      onSubmit={(t) => {
        submitted.push(t)
        setStep((s) => s + 1)
      }}
      onCancel={() => {}}
    />
  ) : null
}

const mount = async (submitted: Array<string>) => {
  const app = render(
    <KeypressProvider onQuit={() => {}}>
      <TwoSteps submitted={submitted} />
    </KeypressProvider>
  )
  mounted.push(app.unmount)
  await waitFor(() => (app.lastFrame() ?? "").includes("Step 1"))
  return app
}

describe("TextPrompt", () => {
  it("keys that arrive before a render all count: typed text then enter submits all of it", async () => {
    const submitted: Array<string> = []
    const app = await mount(submitted)
    // One write per key, with no render in between.
    for (const key of ["a", "b", "c", Keys.backspace, "d", Keys.enter]) app.stdin.write(key)
    await waitFor(() => submitted.length === 1)
    expect(submitted).toEqual(["abd"])
  })

  it("the next prompt in the same place starts empty and checks its own text", async () => {
    const submitted: Array<string> = []
    const app = await mount(submitted)
    app.stdin.write("first")
    await waitFor(() => (app.lastFrame() ?? "").includes("› first"))
    app.stdin.write(Keys.enter)
    await waitFor(() => (app.lastFrame() ?? "").includes("Step 2"))
    expect(app.lastFrame()).not.toContain("first")
    app.stdin.write(Keys.enter)
    await waitFor(() => (app.lastFrame() ?? "").includes("type something"))
    app.stdin.write("second\r")
    await waitFor(() => submitted.length === 2)
    expect(submitted).toEqual(["first", "second"])
  })
})
