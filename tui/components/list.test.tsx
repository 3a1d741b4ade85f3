import { render } from "ink-testing-library"
import { describe, expect, it } from "vitest"
import { List, windowStart } from "./list.js"

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
