// The lists' columns: fixed-width cells, and tables fitted to the pane's width.

/** Fixed-width table cells: each cell padded or cut to its width, so rows line up. */
export const cell = (text: string, width: number): string =>
  text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text.padEnd(width)

export const cells = (parts: ReadonlyArray<readonly [string, number]>, gap = 2): string =>
  parts
    .map(([text, width], i) =>
      i === parts.length - 1 ? cell(text, width).trimEnd() : cell(text, width) + " ".repeat(gap)
    )
    .join("")

/** The width left for a flexible column once the fixed ones (and the cursor mark) are placed. */
export const flexWidth = (paneColumns: number, fixed: ReadonlyArray<number>, gap = 2, min = 16): number =>
  Math.max(min, paneColumns - 2 - fixed.reduce((a, b) => a + b + gap, 0))

export interface Column<A> {
  readonly title: string
  readonly text: (row: A) => string
  /** Its width, or as wide as its longest cell (or its title) up to `fit`; neither: the flexible column. */
  readonly width?: number
  readonly fit?: number
  /** Where it goes when the pane is narrow: the lowest first; undefined for a column always shown. */
  readonly drop?: number
}

/**
 * A table for `rows` whose one flexible column gets the room its longest cell wants (up to `want`)
 * where it can: the droppable columns are left out one by one, lowest `drop` first, until it has it
 * (as k9s keeps its wide-only columns for wide terminals); they all show where the pane has room.
 * Widths follow the cells: for a short list loaded whole, never one paged as the cursor moves.
 */
export const fitTable = <A>(
  paneColumns: number,
  rows: ReadonlyArray<A>,
  columns: ReadonlyArray<Column<A>>,
  want: number,
  min = 16
) => {
  const longest = (c: Pick<Column<A>, "title" | "text">) =>
    Math.max(c.title.length, ...rows.map((r) => c.text(r).length))
  const sized = columns.map((c) => ({
    ...c,
    width: c.width ?? (c.fit === undefined ? undefined : Math.min(c.fit, longest(c)))
  }))
  const flexible = sized.find((c) => c.width === undefined)
  const wanted = flexible === undefined ? 0 : Math.min(want, longest(flexible))
  const room = (shown: typeof sized) =>
    flexWidth(
      paneColumns,
      shown.flatMap((c) => (c.width === undefined ? [] : [c.width])),
      2,
      0
    )
  let shown = sized
  for (const column of sized.filter((c) => c.drop !== undefined).sort((a, b) => (a.drop ?? 0) - (b.drop ?? 0))) {
    if (room(shown) >= wanted) break
    shown = shown.filter((c) => c !== column)
  }
  const flex = Math.max(min, room(shown))
  return {
    header: cells(shown.map((c) => [c.title, c.width ?? flex] as const)),
    row: (a: A) => cells(shown.map((c) => [c.text(a), c.width ?? flex] as const))
  }
}
