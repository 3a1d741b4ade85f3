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

/** What a cursor may know of its rows besides their count. */
export interface ListFeed<A> {
  readonly items: ReadonlyArray<A>
  /** A row's identity: after the rows change (a refresh, a restore) the cursor stays on its row. */
  readonly key: (item: A) => string
  /** Rows past the loaded ones exist (a paged list not read to its end). */
  readonly hasMore?: boolean
  /** Loads the rows up to this index (Infinity: all). */
  readonly loadTo?: (index: number) => void
}

/**
 * The cursor aims at a row that may not be loaded yet: `G` aims at the end and page down past the
 * loaded rows keeps counting, and the cursor lands there as the rows arrive. It shows the nearest
 * loaded row meanwhile; a move up starts from the row shown. A list without a feed may still be
 * paged by its screen (more rows as the cursor nears the end), so its aim is kept until a move up;
 * with a feed the aim is cut to the last row once the list is complete.
 */
export function useListCursor<A = never>(
  count: number,
  pageSize: number,
  resetOn: DependencyList,
  feed?: ListFeed<A>
): ListCursor {
  const [target, setTarget] = useState(0)
  const last = count - 1
  const more = feed === undefined || feed.hasMore === true
  const now = useRef({ last, more })
  now.current = { last, more }
  // After the rows change under a cursor that did not move (a refresh, a restore), it moves to where
  // its row went (the row gone: it stays at its position). Done while rendering, so no frame shows
  // the wrong row. A move made meanwhile wins.
  const seen = useRef<{ items: ReadonlyArray<A> | undefined; index: number; target: number; waiting: boolean }>({
    items: undefined,
    index: 0,
    target: 0,
    waiting: false
  })
  let aim = target
  const before = seen.current
  if (
    feed !== undefined &&
    before.items !== undefined &&
    before.items !== feed.items &&
    !before.waiting &&
    before.target === target
  ) {
    const row = before.items[before.index]
    const key = row === undefined ? undefined : feed.key(row)
    const found = key === undefined ? -1 : feed.items.findIndex((a) => feed.key(a) === key)
    if (found >= 0) aim = found
  }
  if (aim !== target) setTarget(aim)
  const shown = Math.max(0, Math.min(aim, last))
  useEffect(() => {
    seen.current = { items: feed?.items, index: shown, target: aim, waiting: aim > last }
  })

  useEffect(() => {
    setTarget(0)
    seen.current = { items: undefined, index: 0, target: 0, waiting: false }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's list of what starts the cursor again at the top
  }, resetOn)
  // Functional: a key pressed after this render and before its effects (a burst) has already moved
  // the target, and a plain set would put it back.
  useEffect(() => {
    if (!more && target > last) setTarget((t) => (t > last ? Math.max(0, last) : t))
  }, [more, target, last])
  const loadTo = feed?.loadTo
  // Ask for the rows the cursor aims at, and a screenful beyond it, before it gets there.
  useEffect(() => {
    if (loadTo !== undefined && more && target + 2 * pageSize >= count) loadTo(target + 2 * pageSize)
  }, [loadTo, more, target, count, pageSize])

  const moveBy = (delta: number) =>
    setTarget((t) => {
      const { last, more } = now.current
      const from = delta < 0 ? Math.max(0, Math.min(t, last)) : t
      return Math.max(0, Math.min(from + delta, more ? Infinity : last))
    })
  const move = (press: Keypress): boolean => {
    const steps: Record<string, number> = {
      up: -1,
      k: -1,
      down: 1,
      j: 1,
      pageup: -pageSize,
      pagedown: pageSize,
      home: -Infinity,
      g: -Infinity,
      end: Infinity,
      G: Infinity
    }
    if (!Object.hasOwn(steps, press.name)) return false
    moveBy(steps[press.name] ?? 0)
    return true
  }
  return { index: shown, move, moveBy }
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
export function ListStatus(props: {
  index: number
  loaded: number
  total: number | undefined
  loading: boolean
  refreshing?: boolean
}) {
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
