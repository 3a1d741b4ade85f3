import { Text } from "ink"
import { render } from "ink-testing-library"
import { useState } from "react"
import { describe, expect, it } from "vitest"
import type { Keypress } from "../../../tui/keys.js"
import { List, useListCursor, windowStart, type ListCursor } from "../../../tui/components/list.js"

describe("List", () => {
  it("keeps the cursor in view, centred once the list scrolls", () => {
    expect(windowStart(0, 10, 100)).toBe(0)
    expect(windowStart(4, 10, 100)).toBe(0)
    expect(windowStart(50, 10, 100)).toBe(45)
    expect(windowStart(99, 10, 100)).toBe(90)
    expect(windowStart(3, 10, 4)).toBe(0)
  })

  it("draws only the rows in view of a 10,000 item list", () => {
    const items = Array.from({ length: 10_000 }, (_, i) => `item-${i}`)
    const app = render(<List items={items} index={5000} height={5} row={(s) => s} rowKey={(s) => s} header="NAME" />)
    const lines = (app.lastFrame() ?? "").split("\n")
    expect(lines).toEqual(["  NAME", "  item-4998", "  item-4999", "› item-5000", "  item-5001", "  item-5002"])
    app.unmount()
  })
})

/** A list fed a page at a time (a timer stands for the API), its cursor driven by `act`. */
function Fed(props: {
  all: ReadonlyArray<string>
  perPage: number
  grab: (c: ListCursor, setAll: (a: ReadonlyArray<string>) => void) => void
}) {
  const [all, setAll] = useState(props.all)
  const [loaded, setLoaded] = useState(props.perPage)
  const items = all.slice(0, loaded)
  const cursor = useListCursor(items.length, 5, [], {
    items,
    key: (s) => s,
    hasMore: loaded < all.length,
    loadTo: (i) =>
      void setTimeout(
        () => setLoaded((n) => Math.max(n, Math.min(all.length, Math.ceil((i + 1) / props.perPage) * props.perPage))),
        5
      )
  })
  props.grab(cursor, setAll)
  return <Text>{`${cursor.index}:${items[cursor.index]} of ${items.length}`}</Text>
}

const press = (name: string) => ({ input: name.length === 1 ? name : "", key: {} as Keypress["key"], name })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe("useListCursor", () => {
  const rows = Array.from({ length: 95 }, (_, i) => `r${i}`)
  const mount = () => {
    let cursor: ListCursor | undefined
    let setAll: ((a: ReadonlyArray<string>) => void) | undefined
    const app = render(<Fed all={rows} perPage={20} grab={(c, s) => ((cursor = c), (setAll = s))} />)
    // The frame once it shows `expected`, or the last frame after 3 s: the "API"'s timers and React's
    // effects fire late on a loaded machine, so a fixed wait read a frame from before the load.
    const frameFor = async (expected: string) => {
      for (let i = 0; i < 300 && app.lastFrame() !== expected; i++) await sleep(10)
      return app.lastFrame()
    }
    const act = async (expected: string, ...names: Array<string>) => {
      for (const n of names) cursor!.move(press(n))
      return frameFor(expected)
    }
    return {
      app,
      act,
      replace: async (expected: string, a: ReadonlyArray<string>) => (setAll!(a), await frameFor(expected))
    }
  }

  it("G aims at the real end: the rows are read and the cursor lands on the last one", async () => {
    const { app, act } = mount()
    expect(await act("94:r94 of 95", "G")).toBe("94:r94 of 95")
    // A move up starts from the row shown, not from the aim.
    expect(await act("93:r93 of 95", "k")).toBe("93:r93 of 95")
    app.unmount()
  })

  it("page downs past the loaded rows, in one burst, all count", async () => {
    const { app, act } = mount()
    expect(await act("30:r30 of 60", "pagedown", "pagedown", "pagedown", "pagedown", "pagedown", "pagedown")).toBe(
      "30:r30 of 60"
    )
    // Past the end of a complete list, it stops at the last row; up moves from there.
    expect(await act("94:r94 of 95", ...Array<string>(30).fill("pagedown"))).toBe("94:r94 of 95")
    expect(await act("89:r89 of 95", "pageup")).toBe("89:r89 of 95")
    app.unmount()
  })

  it("keeps its row when the rows change (by key); at the same position when the row is gone", async () => {
    const { app, act, replace } = mount()
    expect(await act("3:r3 of 20", "j", "j", "j")).toBe("3:r3 of 20")
    expect(
      await replace(
        "2:r3 of 20",
        rows.filter((r) => r !== "r1")
      )
    ).toBe("2:r3 of 20")
    expect(
      await replace(
        "2:r4 of 20",
        rows.filter((r) => r !== "r1" && r !== "r3")
      )
    ).toBe("2:r4 of 20")
    app.unmount()
  })
})
