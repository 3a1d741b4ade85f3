import { useEffect, useState } from "react"

/**
 * How far a key scrolls a view of text `page` rows high (↑↓ j k a row, page up/down a page, g/home
 * and G/end to either end), or undefined for a key that does not scroll. The value views, the
 * note boxes and the session log scroll by it (`useScroll`), so a key means the same on each.
 */
const scrollBy = (name: string, page: number): number | undefined => {
  switch (name) {
    case "down":
    case "j":
      return 1
    case "up":
    case "k":
      return -1
    case "pagedown":
      return page
    case "pageup":
      return -page
    case "g":
    case "home":
      return -Infinity
    case "G":
    case "end":
      return Infinity
    default:
      return undefined
  }
}

/** The first row shown after scrolling `delta` from `top`, kept within 0..`last`. */
const scrolled = (top: number, delta: number, last: number): number =>
  Math.max(0, Math.min(last, Math.min(top, last) + delta))

/**
 * A view's scroll: the first row shown (within 0..`last`, the last first row there is, however the
 * pane has changed) and `scroll`, which moves it by a key of `scrollBy` (`page` rows a page) and
 * answers whether the key was one. Back at the top when `resetOn` changes (another value opened).
 */
export const useScroll = (last: number, page: number, resetOn?: unknown) => {
  const [top, setTop] = useState(0)
  useEffect(() => setTop(0), [resetOn])
  return {
    first: Math.min(top, last),
    scroll: (name: string): boolean => {
      const delta = scrollBy(name, page)
      if (delta === undefined) return false
      setTop((t) => scrolled(t, delta, last))
      return true
    }
  }
}
