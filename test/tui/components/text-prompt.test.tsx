import { render } from "ink-testing-library"
import { useState } from "react"
import { afterEach, describe, expect, it } from "vitest"
import { KeypressProvider } from "../../../tui/keys.js"
import { Keys, waitFor } from "../../helpers/ink.js"
import { bullets, TextPrompt } from "../../../tui/components/text-prompt.js"

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

describe("TextPrompt editing", () => {
  const Left = "\u001B[D"
  const Home = "\u001B[H"
  const Delete = "\u001B[3~"

  it("several backspaces in one write each delete, and a pasted line ending in CR submits", async () => {
    const submitted: Array<string> = []
    const app = await mount(submitted)
    app.stdin.write("abcxyz")
    await waitFor(() => (app.lastFrame() ?? "").includes("› abcxyz"))
    app.stdin.write("\u007F\u007F\u007F")
    await waitFor(() => (app.lastFrame() ?? "").includes("› abc ") && !(app.lastFrame() ?? "").includes("xyz"))
    app.stdin.write("def\r")
    await waitFor(() => submitted.length === 1)
    expect(submitted).toEqual(["abcdef"])
  })

  it("edits in the middle: ←, Home, Delete, ctrl+w, ctrl+u, ctrl+k, with the cursor drawn where it is", async () => {
    const submitted: Array<string> = []
    const app = await mount(submitted)
    app.stdin.write(`helo world${Left.repeat(7)}`)
    await waitFor(() => (app.lastFrame() ?? "").includes("› helo world"))
    app.stdin.write("l")
    await waitFor(() => (app.lastFrame() ?? "").includes("› hello world"))
    app.stdin.write(`${Home}X${Left}${Delete}\u0005 again\u0017\u0017there\r`)
    await waitFor(() => submitted.length === 1)
    expect(submitted).toEqual(["hello there"])
    // ctrl+u and ctrl+k in the next prompt.
    app.stdin.write(`one two${Left.repeat(3)}\u000B`)
    await waitFor(() => (app.lastFrame() ?? "").includes("› one  "))
    app.stdin.write(`\u0015three\r`)
    await waitFor(() => submitted.length === 2)
    expect(submitted).toEqual(["hello there", "three"])
  })

  it("a secret stays bullets, with the cursor among them", async () => {
    const app = render(
      <KeypressProvider onQuit={() => {}}>
        <TextPrompt title="Secret" display={bullets} submitLabel="save" onSubmit={() => {}} onCancel={() => {}} />
      </KeypressProvider>
    )
    mounted.push(app.unmount)
    await waitFor(() => (app.lastFrame() ?? "").includes("Secret"))
    app.stdin.write(`hunter2${Left}${Left}`)
    await waitFor(() => (app.lastFrame() ?? "").includes("› •••••••"))
    expect(app.lastFrame()).not.toContain("hunter")
  })

  it("an initial text (an edit) is there to change, the cursor at its end; enter alone keeps it", async () => {
    const submitted: Array<string> = []
    const step = (title: string) => (
      <KeypressProvider onQuit={() => {}}>
        <TextPrompt
          title={title}
          initial="http.host eq"
          submitLabel="save"
          onSubmit={(t) => submitted.push(t)}
          onCancel={() => {}}
        />
      </KeypressProvider>
    )
    const app = render(step("Edit"))
    mounted.push(app.unmount)
    await waitFor(() => (app.lastFrame() ?? "").includes("http.host eq"))
    app.stdin.write(' "a"')
    await waitFor(() => (app.lastFrame() ?? "").includes('http.host eq "a"'))
    app.stdin.write(Keys.enter)
    await waitFor(() => submitted.length === 1)
    app.rerender(step("Edit again"))
    await waitFor(() => (app.lastFrame() ?? "").includes("Edit again"))
    app.stdin.write(Keys.enter)
    await waitFor(() => submitted.length === 2)
    expect(submitted).toEqual(['http.host eq "a"', "http.host eq"])
  })
})
