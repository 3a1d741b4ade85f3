/**
 * A virtualised list: only the rows in view are drawn, so a list of 10,000 items costs what a
 * screenful costs. The cursor hook maps the movement keys; the screen decides what enter does.
 */
import { Box, Text } from "ink"
import { useEffect, useRef, useState, type DependencyList } from "react"
import type { KeyHint, Keypress } from "../keys.js"

export const moveHints: ReadonlyArray<KeyHint> = [{ keys: "↑↓/jk", label: "move" }]

export interface ListCursor {
  readonly index: number
  /** Moves for ↑↓ j k, page up/down, home/g, end/G; false for any other key. */
  readonly move: (press: Keypress) => boolean
  readonly moveBy: (delta: number) => void
}

export function useListCursor(count: number, pageSize: number, resetOn: DependencyList): ListCursor {
  const [index, setIndex] = useState(0)
  const countRef = useRef(count)
  countRef.current = count
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setIndex(0), resetOn)
  // When the list shrinks (a refresh), keep the cursor on the last row rather than beyond it.
  useEffect(() => {
    if (count > 0) setIndex((i) => Math.min(i, count - 1))
  }, [count])
  const clamp = (i: number) => Math.max(0, Math.min(i, countRef.current - 1))
  const moveBy = (delta: number) => setIndex((i) => clamp(clamp(i) + delta))
  const move = (press: Keypress): boolean => {
    const far = 1e9
    const steps: Record<string, number> = {
      up: -1, k: -1, down: 1, j: 1, pageup: -pageSize, pagedown: pageSize, home: -far, g: -far, end: far, G: far
    }
    if (!Object.hasOwn(steps, press.name)) return false
    moveBy(steps[press.name] ?? 0)
    return true
  }
  return { index: clamp(index), move, moveBy }
}

/** The first row to draw so that the cursor stays in view, centred once the list scrolls. */
export const windowStart = (index: number, height: number, count: number): number =>
  Math.max(0, Math.min(index - Math.floor(height / 2), count - height))

export interface ListProps<A> {
  readonly items: ReadonlyArray<A>
  readonly index: number
  readonly height: number
  readonly row: (item: A) => string
  readonly rowKey: (item: A) => string
  /** The column titles, aligned with the rows. */
  readonly header?: string
  /** Whether the cursor is shown (the list has the keys). */
  readonly focused?: boolean
}

export function List<A>({ items, index, height, row, rowKey, header, focused = true }: ListProps<A>) {
  const rows = Math.max(1, height)
  const start = windowStart(index, rows, items.length)
  return (
    <Box flexDirection="column">
      {header !== undefined ? (
        <Text bold wrap="truncate-end">
          {"  "}
          {header}
        </Text>
      ) : null}
      {items.slice(start, start + rows).map((item, i) => {
        const selected = focused && start + i === index
        return (
          <Text key={rowKey(item)} inverse={selected} wrap="truncate-end">
            {selected ? "› " : "  "}
            {row(item)}
          </Text>
        )
      })}
    </Box>
  )
}

/** `12/1250`, plus what is going on with the next page. */
export function ListStatus(props: { index: number; loaded: number; total: number | undefined; loading: boolean; refreshing?: boolean }) {
  const { index, loaded, loading } = props
  const of = props.total ?? loaded
  const doing = props.refreshing ? " · refreshing…" : loading && loaded > 0 ? " · loading more…" : ""
  return (
    <Text dimColor>
      {loaded === 0 ? "" : `${index + 1}/${of}`}
      {doing !== "" ? doing : loaded < of ? ` · ${loaded} loaded` : ""}
    </Text>
  )
}
