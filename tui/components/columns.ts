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
