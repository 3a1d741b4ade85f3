/**
 * The API budget's bookkeeping (src/domain/rate-budget.ts) on vitest's clock: which requests may
 * go and in what order, as the clock moves; the wall-clock behaviour is in test/cli/api-budget.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { makeBudget, parseRateLimit } from "../../src/domain/rate-budget.js"

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** Asks for a slot for each name; `granted` lists them in the order they may go, `done` answers one. */
const asking = (budget: ReturnType<typeof makeBudget>) => {
  const granted: Array<string> = []
  const dones = new Map<string, () => void>()
  const cancels = new Map<string, () => void>()
  return {
    granted,
    ask: (...names: Array<string>) => {
      for (const name of names)
        cancels.set(
          name,
          budget.acquire((done) => {
            granted.push(name)
            dones.set(name, done)
          })
        )
    },
    done: (...names: Array<string>) => names.forEach((n) => dones.get(n)!()),
    cancel: (name: string) => cancels.get(name)!()
  }
}

describe("the API budget", () => {
  it("N at once; the next when a slot comes back, S seconds after its answer, in the order asked", () => {
    const budget = makeBudget({ requests: 2, seconds: 10 })
    const r = asking(budget)
    r.ask("a", "b", "c", "d")
    expect(r.granted).toEqual(["a", "b"])
    vi.advanceTimersByTime(60_000)
    // Nothing answered yet: both slots are still in flight, however long they take.
    expect(r.granted).toEqual(["a", "b"])
    r.done("a")
    vi.advanceTimersByTime(9_999)
    expect(r.granted).toEqual(["a", "b"])
    vi.advanceTimersByTime(1)
    expect(r.granted).toEqual(["a", "b", "c"])
    r.done("b", "b")
    vi.advanceTimersByTime(10_000)
    expect(r.granted).toEqual(["a", "b", "c", "d"])
  })

  it("a pause (a 429's Retry-After) holds every request, free slots or not", () => {
    const budget = makeBudget({ requests: 5, seconds: 10 })
    const r = asking(budget)
    budget.pause(3)
    r.ask("a")
    expect(r.granted).toEqual([])
    expect(budget.nextAt()).toBe(Date.now() + 3000)
    vi.advanceTimersByTime(3000)
    expect(r.granted).toEqual(["a"])
    expect(budget.nextAt()).toBeUndefined()
  })

  it("a request that stops waiting takes no slot; an idle budget keeps no timer", () => {
    const budget = makeBudget({ requests: 1, seconds: 5 })
    const r = asking(budget)
    r.ask("a", "b", "c")
    r.cancel("b")
    r.done("a")
    vi.advanceTimersByTime(5000)
    expect(r.granted).toEqual(["a", "c"])
    r.done("c")
    expect(vi.getTimerCount()).toBe(0)
  })

  it("REQUESTS/SECONDS, or why not", () => {
    expect(parseRateLimit(" 1200 / 300 ")).toEqual({ requests: 1200, seconds: 300 })
    expect(parseRateLimit("20/10s")).toBe('expected REQUESTS/SECONDS (e.g. 1200/300), got "20/10s"')
    expect(parseRateLimit("0/10")).toBe("requests must be from 1 to 1000000, got 0")
    expect(parseRateLimit("10/0")).toBe("seconds must be from 1 to 86400, got 0")
  })
})
