import { Text } from "ink"
import { render } from "ink-testing-library"
import { afterEach, describe, expect, it } from "vitest"
import { KeepAlways, KeyLayer, KeypressProvider, useKeys, type KeyHint } from "../../../tui/keys.js"
import { NoticeProvider } from "../../../tui/notices.js"
import { waitFor } from "../../helpers/ink.js"
import { Footer, fitHints } from "../../../tui/components/footer.js"

const mounted: Array<() => void> = []
afterEach(() => mounted.splice(0).forEach((unmount) => unmount()))

const Layer = ({
  priority,
  hints,
  onKey = () => false
}: {
  priority: number
  hints: ReadonlyArray<KeyHint>
  onKey?: (name: string) => boolean
}) => {
  useKeys((press) => onKey(press.name), { priority, hints })
  return null
}

const ScreenHints: ReadonlyArray<KeyHint> = [
  { keys: "↑↓/jk", label: "move" },
  { keys: "enter", label: "open" },
  { keys: "/", label: "filter" },
  { keys: "n", label: "new rule" },
  { keys: "t", label: "test request" },
  { keys: "p", label: "pause or resume the selected rule" },
  { keys: "d", label: "delete the selected rule" },
  { keys: "r", label: "refresh" }
]
const AppHints: ReadonlyArray<KeyHint> = [
  { keys: "1-6", label: "screens", keep: -1 },
  { keys: ":", label: "go to", keep: -1 },
  { keys: "?", label: "help", keep: KeepAlways },
  { keys: "q", label: "quit", keep: KeepAlways }
]

describe("the footer's key line", () => {
  it("drops the lowest-ranked hints first and keeps ? help and q quit, on one line", async () => {
    const app = render(
      <KeypressProvider onQuit={() => {}}>
        <Layer priority={KeyLayer.app} hints={AppHints} />
        <Layer priority={KeyLayer.screen} hints={ScreenHints} />
        <Footer />
      </KeypressProvider>
    )
    mounted.push(app.unmount)
    const frame = () => app.lastFrame() ?? ""
    await waitFor(() => frame().includes("move"), frame)
    const line = frame().split("\n")[0]!
    // ink-testing-library's terminal is 100 columns.
    expect([...line].length).toBeLessThanOrEqual(100)
    expect(line).not.toContain("…")
    expect(line).toMatch(/^ ↑↓\/jk move\s+enter open\s+\/ filter\s+n new rule/)
    expect(line).toMatch(/\? help\s+q quit\s*$/)
    expect(line).not.toContain("1-6 screens")
  })

  it("keeps ? help and q quit at any width, in the order the layers list them", () => {
    const all = [...ScreenHints, ...AppHints]
    for (const width of [20, 40, 60, 80, 120]) {
      const kept = fitHints(all, width)
      expect(kept.map((h) => h.keys)).toEqual(expect.arrayContaining(["?", "q"]))
      expect(kept.map((h) => all.indexOf(h))).toEqual([...kept.map((h) => all.indexOf(h))].sort((a, b) => a - b))
      expect(
        kept.reduce((w, h, i) => w + (i > 0 ? 2 : 0) + [...h.keys].length + 1 + [...h.label].length, 0)
      ).toBeLessThanOrEqual(Math.max(width, 13))
    }
    expect(fitHints(all, 200)).toEqual(all)
    // A key two layers list shows once, where the higher-ranked one is.
    const twice = fitHints([{ keys: "r", label: "try again" }, { keys: "q", label: "quit" }, ...AppHints], 200)
    expect(twice.map((h) => `${h.keys} ${h.label}`)).toEqual([
      "r try again",
      "1-6 screens",
      ": go to",
      "? help",
      "q quit"
    ])
  })

  it("a handler's fault shows whole with its hint, and the key that dismisses it does nothing else", async () => {
    const log: Array<string> = []
    const app = render(
      <KeypressProvider onQuit={() => {}}>
        <NoticeProvider>
          <Layer
            priority={KeyLayer.screen}
            hints={[{ keys: "j", label: "move" }]}
            onKey={(name) => {
              log.push(name)
              if (name === "!")
                throw new Error(`the handler broke while reading ${"a long value ".repeat(8)}at its end`)
              return true
            }}
          />
          <Text>screen</Text>
          <Footer />
        </NoticeProvider>
      </KeypressProvider>
    )
    mounted.push(app.unmount)
    const frame = () => app.lastFrame() ?? ""
    await new Promise((r) => setTimeout(r, 50))
    app.stdin.write("!")
    await waitFor(() => frame().includes("any key dismisses"), frame)
    const text = frame().replace(/┃/g, " ").replace(/\s+/g, " ")
    expect(text).toContain("at its end")
    expect(text).toContain("hint: this is a bug in edgectl")
    app.stdin.write("j")
    await waitFor(() => !frame().includes("any key dismisses"), frame)
    expect(log).toEqual(["!"])
    app.stdin.write("j")
    await waitFor(
      () => log.length === 2,
      () => log.join(",")
    )
  })
})
