import { Text } from "ink"
import { useState, type ReactElement } from "react"
import { render } from "ink-testing-library"
import { afterEach, describe, expect, it } from "vitest"
import { Footer } from "../../tui/components/footer.js"
import { KeyLayer, KeypressProvider, useKeys } from "../../tui/keys.js"
import { Keys, waitFor } from "../helpers/ink.js"

function Layer(props: {
  name: string
  priority: number
  handles: ReadonlyArray<string>
  log: Array<string>
  modal?: boolean
  active?: boolean
  text?: boolean
}) {
  useKeys(
    (press) => {
      if (press.name === "!") throw new Error("the handler broke")
      props.log.push(`${props.name}:${press.name}`)
      return props.handles.includes(press.name)
    },
    {
      priority: props.priority,
      modal: props.modal ?? false,
      text: props.text ?? false,
      active: props.active ?? true,
      hints: [{ keys: props.handles.join("/"), label: props.name }]
    }
  )
  return <Text>{props.name}</Text>
}

const mounted: Array<() => void> = []
afterEach(() => mounted.splice(0).forEach((unmount) => unmount()))

const mount = async (node: ReactElement) => {
  const app = render(node)
  mounted.push(app.unmount)
  await new Promise((r) => setTimeout(r, 50))
  const frame = () => app.lastFrame() ?? ""
  return {
    frame,
    press: async (keys: string) => {
      app.stdin.write(keys)
      await new Promise((r) => setTimeout(r, 20))
    }
  }
}

describe("keypress hub", () => {
  it("gives a key to the highest layer first and lets unhandled keys fall through", async () => {
    const log: Array<string> = []
    const app = await mount(
      <KeypressProvider onQuit={() => {}}>
        <Layer name="app" priority={KeyLayer.app} handles={["q"]} log={log} />
        <Layer name="screen" priority={KeyLayer.screen} handles={["j"]} log={log} />
        <Footer />
      </KeypressProvider>
    )
    await app.press("j")
    await app.press("q")
    expect(log).toEqual(["screen:j", "screen:q", "app:q"])
    expect(app.frame()).toMatch(/j screen\s+q app/)
  })

  it("stops at a modal layer, and the footer shows only the keys that reach", async () => {
    const log: Array<string> = []
    const app = await mount(
      <KeypressProvider onQuit={() => {}}>
        <Layer name="app" priority={KeyLayer.app} handles={["q"]} log={log} />
        <Layer name="field" priority={KeyLayer.input} handles={["enter"]} log={log} modal />
        <Layer name="hidden" priority={KeyLayer.overlay} handles={["x"]} log={log} active={false} />
        <Footer />
      </KeypressProvider>
    )
    await app.press("q")
    await app.press(Keys.enter)
    expect(log).toEqual(["field:q", "field:enter"])
    expect(app.frame()).toContain("enter field")
    expect(app.frame()).not.toContain("q app")
    expect(app.frame()).not.toContain("x hidden")
  })

  it("splits a chunk of typed keys into keypresses unless a text field takes it whole", async () => {
    const log: Array<string> = []
    const app = await mount(
      <KeypressProvider onQuit={() => {}}>
        <Layer name="screen" priority={KeyLayer.screen} handles={["j", "k"]} log={log} />
        <Footer />
      </KeypressProvider>
    )
    await app.press("jjk")
    expect(log).toEqual(["screen:j", "screen:j", "screen:k"])

    const typed: Array<string> = []
    const field = await mount(
      <KeypressProvider onQuit={() => {}}>
        <Layer name="screen" priority={KeyLayer.screen} handles={["j"]} log={typed} />
        <Layer name="field" priority={KeyLayer.input} handles={["jjk"]} log={typed} modal text />
      </KeypressProvider>
    )
    await field.press("jjk")
    expect(typed).toEqual(["field:jjk"])
  })

  it("every key of one read acts, control keys included, in order", async () => {
    const log: Array<string> = []
    const app = await mount(
      <KeypressProvider onQuit={() => {}}>
        <Layer name="field" priority={KeyLayer.input} handles={[]} log={log} modal text />
      </KeypressProvider>
    )
    await app.press("\u007F\u007F\u007F")
    await app.press("ab\u001B[Dc\r")
    await waitFor(() => log.length >= 7)
    expect(log).toEqual([
      "field:backspace",
      "field:backspace",
      "field:backspace",
      "field:ab",
      "field:left",
      "field:c",
      "field:enter"
    ])
  })

  it("a layer opened by one key of a read takes the keys after it in the same read", async () => {
    const log: Array<string> = []
    function Opener() {
      const [open, setOpen] = useState(false)
      useKeys((press) => (press.name === ":" ? (setOpen(true), true) : false), { priority: KeyLayer.app })
      return open ? (
        <Layer name="palette" priority={KeyLayer.overlay} handles={[]} log={log} modal text />
      ) : (
        <Layer name="screen" priority={KeyLayer.screen} handles={[]} log={log} />
      )
    }
    const app = await mount(
      <KeypressProvider onQuit={() => {}}>
        <Opener />
      </KeypressProvider>
    )
    await app.press("j:acme.com\r")
    await waitFor(() => log.length >= 4)
    expect(log).toEqual(["screen:j", "screen::", "palette:acme.com", "palette:enter"])
  })

  it("names keys as the terminal sends them", async () => {
    const log: Array<string> = []
    const app = await mount(
      <KeypressProvider onQuit={() => {}}>
        <Layer name="l" priority={KeyLayer.screen} handles={[]} log={log} />
      </KeypressProvider>
    )
    for (const k of [
      Keys.up,
      Keys.down,
      Keys.enter,
      Keys.tab,
      "\u001B[Z",
      Keys.backspace,
      "\u001B[3~",
      "\u001B[1~",
      Keys.pageDown,
      "G",
      "\u0017"
    ])
      await app.press(k)
    await app.press(Keys.escape)
    await waitFor(() => log.length === 12)
    expect(log.map((l) => l.slice(2))).toEqual([
      "up",
      "down",
      "enter",
      "tab",
      "shift+tab",
      "backspace",
      "delete",
      "home",
      "pagedown",
      "G",
      "ctrl+w",
      "escape"
    ])
  })

  it("ctrl+c quits from anywhere, even under a modal layer", async () => {
    let quits = 0
    const app = await mount(
      <KeypressProvider onQuit={() => quits++}>
        <Layer name="dialog" priority={KeyLayer.dialog} handles={[]} log={[]} modal />
      </KeypressProvider>
    )
    await app.press(Keys.ctrlC)
    expect(quits).toBe(1)
  })

  it("a handler that throws becomes an error line in the footer, and the keys keep working", async () => {
    const log: Array<string> = []
    const app = await mount(
      <KeypressProvider onQuit={() => {}}>
        <Layer name="screen" priority={KeyLayer.screen} handles={["j"]} log={log} />
        <Footer />
      </KeypressProvider>
    )
    await app.press("!")
    await waitFor(() => app.frame().includes("error: the handler broke"))
    await app.press("j")
    expect(log).toEqual(["screen:j"])
    expect(app.frame()).not.toContain("the handler broke")
  })
})
