/**
 * What Ink's incremental rendering writes to bring the terminal from one frame to the next of the
 * same height (build/patches/ink.mjs puts it into Ink's log-update). Ink rewrote every changed line
 * whole; a list that scrolls by one row changes every row, so a cursor move on a long list cost
 * the whole pane. Here:
 * - rows that moved up or down together are moved on the terminal (delete lines, then insert lines:
 *   VT102, relative to the cursor, so no absolute position is needed and nothing below the frame
 *   moves);
 * - a changed line is written from its first changed cell to its last (the parts before and after
 *   stay on the terminal, when they hold no escape sequence and keep their columns);
 * - the cursor moves straight to the next changed line.
 *
 * The cursor starts where Ink leaves it after a frame (below the last line at column 0 when the
 * frame ends with a newline, else on the last line) and ends there again. Every line is Ink's:
 * it starts and ends with no style set (Ink closes the styles at the end of each line).
 */

const Csi = "\u001b["
/** What a line costs besides its text (a cursor move, an erase). */
const LineCost = 8

export type TextWidth = (text: string) => number

/**
 * Characters one column wide whatever the terminal (ASCII, Latin, general punctuation, the arrows
 * and the box drawing the TUI draws with): a text of only these is as wide as it is long, without
 * string-width's segmenting and emoji test (most of a frame's diff when every line starts with a
 * border). Ink's output grid uses it too (build/patches/ink.mjs).
 * @public (for knip: imported by the patched Ink, which it cannot see)
 */
export const narrow = (code: number) =>
  (code >= 0x20 && code < 0x7f) ||
  (code >= 0xa0 && code < 0x300 && code !== 0xad) ||
  (code >= 0x2010 && code <= 0x2027) ||
  (code >= 0x2030 && code <= 0x205e) ||
  (code >= 0x2190 && code <= 0x2193) ||
  (code >= 0x2500 && code <= 0x259f)

const columnsOf = (text: string, width: TextWidth): number => {
  for (let i = 0; i < text.length; i++) if (!narrow(text.charCodeAt(i))) return width(text)
  return text.length
}

/**
 * The bytes that turn `previous` (on the terminal) into `next`: both `count` lines (plus the empty
 * string after a trailing newline, when `trailing`). `columns`: the terminal's width, `width` the
 * visible width of a text (Ink's string-width).
 */
export const frameDiff = (
  previous: ReadonlyArray<string>,
  next: ReadonlyArray<string>,
  count: number,
  trailing: boolean,
  columns: number,
  width: TextWidth
): string => {
  const screen = previous.slice(0, count)
  const out: Array<string> = []
  let row = trailing ? count : count - 1
  const moveTo = (r: number) => {
    if (r > row) out.push(`${Csi}${r - row}B`)
    else if (r < row) out.push(`${Csi}${row - r}A`)
    row = r
  }

  const shift = bestShift(screen, next, count)
  if (shift !== undefined) {
    const { top, bottom, by } = shift
    // Deleting first and inserting second (or the other way round when moving down) loses nothing
    // below the frame: the lines pushed off the terminal's bottom are the blank ones just made.
    if (by > 0) {
      moveTo(top)
      out.push(`${Csi}${by}M`)
      moveTo(bottom - by + 1)
      out.push(`${Csi}${by}L`)
      for (let i = top; i <= bottom; i++) screen[i] = i <= bottom - by ? previous[i + by]! : ""
    } else {
      const k = -by
      moveTo(bottom - k + 1)
      out.push(`${Csi}${k}M`)
      moveTo(top)
      out.push(`${Csi}${k}L`)
      for (let i = bottom; i >= top; i--) screen[i] = i >= top + k ? previous[i - k]! : ""
    }
  }

  for (let i = 0; i < count; i++) {
    const want = next[i] ?? ""
    const have = screen[i] ?? ""
    if (want === have) continue
    const span = lineSpan(have, want, width)
    moveTo(i)
    out.push(span.column === 0 ? "\r" : `${Csi}${span.column + 1}G`, span.text)
    // A line as wide as the terminal has nothing after it to erase (and the cursor waits on its last
    // cell, where an erase would take that cell too on some terminals).
    if (!span.keepsEnd && span.column + columnsOf(span.text, width) < columns) out.push(`${Csi}K`)
  }
  moveTo(trailing ? count : count - 1)
  if (trailing) out.push("\r")
  return out.join("")
}

/** A line's changed part: where it starts (a column) and what to write there. */
interface Span {
  readonly column: number
  readonly text: string
  /** The line after `text` is already on the terminal. */
  readonly keepsEnd: boolean
}

/** Whether a cut before `text[i]` is between two cells: nothing from 0x300 up joins the one before. */
const cellStart = (text: string, i: number) => i >= text.length || text.charCodeAt(i) < 0x300

/** Where the escape sequence starting at `i` ends (exclusive). */
const sequenceEnd = (text: string, i: number): number => {
  const kind = text[i + 1]
  if (kind === "[") {
    let j = i + 2
    while (j < text.length && !(text.charCodeAt(j) >= 0x40 && text.charCodeAt(j) <= 0x7e)) j++
    return j + 1
  }
  if (kind === "]") {
    for (let j = i + 2; j < text.length; j++) {
      if (text[j] === "\u0007") return j + 1
      if (text[j] === "\u001b" && text[j + 1] === "\\") return j + 2
    }
    return text.length
  }
  return i + 2
}

/** Whether the cut at `at` falls inside an escape sequence of `text`. */
const insideSequence = (text: string, at: number): boolean => {
  const e = text.lastIndexOf("\u001b", at - 1)
  return e >= 0 && sequenceEnd(text, e) > at
}

/**
 * The part of `want` that differs from `have`. The kept start holds no escape sequence (so no style
 * is open where the written part begins); the kept end holds none either (Ink closes every style
 * before a line ends, so it is unstyled) and stays only where it keeps its columns.
 */
export const lineSpan = (have: string, want: string, width: TextWidth): Span => {
  const n = Math.min(have.length, want.length)
  let p = 0
  while (p < n && have.charCodeAt(p) === want.charCodeAt(p) && want.charCodeAt(p) !== 0x1b) p++
  while (p > 0 && !cellStart(want, p)) p--
  let s = 0
  while (
    s < n - p &&
    have.charCodeAt(have.length - 1 - s) === want.charCodeAt(want.length - 1 - s) &&
    want.charCodeAt(want.length - 1 - s) !== 0x1b
  )
    s++
  while (
    s > 0 &&
    (!cellStart(want, want.length - s) ||
      insideSequence(want, want.length - s) ||
      insideSequence(have, have.length - s))
  )
    s--
  const column = p === 0 ? 0 : columnsOf(want.slice(0, p), width)
  if (s > 0 && columnsOf(want.slice(p, want.length - s), width) !== columnsOf(have.slice(p, have.length - s), width))
    s = 0
  return { column, text: want.slice(p, want.length - s), keepsEnd: s > 0 }
}

/** Lines `top`..`bottom` moved by `by` rows (up when positive) as one block. */
interface Shift {
  readonly top: number
  readonly bottom: number
  readonly by: number
}

/** What writing `want` over `have` costs, roughly: nothing when equal, else the line. */
const cost = (have: string | undefined, want: string) => (have === want ? 0 : want.length + LineCost)

/**
 * The block move that saves the most bytes, if any saves more than the move itself costs. For each
 * distance, the best block is a maximum-sum run (Kadane) of what each line gains from the move,
 * less the lines the move blanks at the block's end.
 */
const bestShift = (screen: ReadonlyArray<string>, next: ReadonlyArray<string>, count: number): Shift | undefined => {
  let best: Shift | undefined
  let bestGain = 4 * LineCost
  const up = (have: ReadonlyArray<string>, want: ReadonlyArray<string>, flip: boolean) => {
    const plain = want.map((w, i) => cost(have[i], w))
    // What blanking line i loses against leaving it (<= 0), summed: blanked[i] is over lines < i.
    const blanked = [0]
    for (let i = 0; i < count; i++) blanked.push(blanked[i]! + plain[i]! - cost("", want[i]!))
    for (let by = 1; by < count; by++) {
      let run = 0
      let start = 0
      for (let e = 0; e + by < count; e++) {
        const gain = plain[e]! - cost(have[e + by], want[e]!)
        if (run <= 0) {
          run = gain
          start = e
        } else run += gain
        const total = run + blanked[e + by + 1]! - blanked[e + 1]!
        if (total > bestGain) {
          bestGain = total
          best = flip
            ? { top: count - 1 - (e + by), bottom: count - 1 - start, by: -by }
            : { top: start, bottom: e + by, by }
        }
      }
    }
  }
  const want = next.slice(0, count)
  up(screen, want, false)
  up([...screen].reverse(), [...want].reverse(), true)
  return best
}

/**
 * The next frame is drawn whole: the screen cleared and the frame written from its top-left corner,
 * whatever the last frame was. Set by ctrl+l (tui/keys.tsx) and by a resize (tui/terminal.ts): a
 * diff is written relative to where the last frame left the cursor, and issue 29 saw rapid resizes
 * under load leave a frame shifted by a row (2 in ~45 bursts), which every later diff kept. Read
 * and cleared by Ink's log-update and ink.js as patched (build/patches/ink.mjs).
 */
export const WholeRedraw = { pending: false }
