/**
 * tui/frame-diff.ts, the lines Ink's incremental rendering writes (build/patches/ink.mjs): after
 * any frame followed by any other of the same height, a terminal (headless xterm) shows, cell for
 * cell with its styles, what it shows when the new frame is drawn whole; and a list scrolled by one
 * row costs a row, not the list.
 */
import { Terminal } from "@xterm/headless"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { frameDiff, lineSpan } from "../../tui/frame-diff.js"

/**
 * Columns of a text, for the characters these frames use (Ink passes its string-width): escape
 * sequences none, combining marks none, CJK two.
 */
const stringWidth = (text: string): number => {
  let width = 0
  for (const c of text.replace(/\u001b\[[0-9;]*m/g, "")) {
    const code = c.codePointAt(0)!
    width += code >= 0x300 && code <= 0x36f ? 0 : code >= 0x3000 && code <= 0x9fff ? 2 : 1
  }
  return width
}

const write = (term: Terminal, data: string) => new Promise<void>((resolve) => term.write(data, resolve))

/** Every cell of the screen: its text, width and the styles Ink uses. */
const cells = (term: Terminal): Array<string> => {
  const buffer = term.buffer.active
  const rows: Array<string> = []
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(y)!
    const row: Array<string> = []
    for (let x = 0; x < term.cols; x++) {
      const c = line.getCell(x)!
      row.push(
        `${c.getChars() || " "}${c.getWidth()}${c.isInverse() ? "i" : ""}${c.isBold() ? "b" : ""}${c.isDim() ? "d" : ""}${c.getFgColor()}`
      )
    }
    rows.push(row.join("|"))
  }
  return rows
}

/** A frame drawn whole from the top, as Ink's first frame: the cursor then waits below it (or on its last line). */
const whole = (lines: ReadonlyArray<string>, trailing: boolean) => lines.join("\r\n") + (trailing ? "\r\n" : "")

const screenAfter = async (columns: number, rows: number, ...writes: Array<string>) => {
  const term = new Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 0 })
  for (const w of writes) await write(term, w)
  const shown = cells(term)
  const cursor = [term.buffer.active.cursorX, term.buffer.active.cursorY]
  term.dispose()
  return { shown, cursor }
}

const check = async (
  previous: Array<string>,
  next: Array<string>,
  columns: number,
  trailing: boolean,
  rows: number
) => {
  const count = next.length
  const diff = frameDiff(previous, next, count, trailing, columns, stringWidth)
  const patched = await screenAfter(columns, rows, whole(previous, trailing), diff)
  const redrawn = await screenAfter(columns, rows, whole(next, trailing))
  expect(patched.shown).toEqual(redrawn.shown)
  // The cursor ends where Ink expects it: below the frame at column 0, or on its last line.
  if (trailing) expect(patched.cursor).toEqual([0, count])
  else expect(patched.cursor[1]).toBe(count - 1)
  return diff
}

const Inverse = (s: string) => `\u001b[7m${s}\u001b[27m`
const Bold = (s: string) => `\u001b[1m${s}\u001b[22m`
const Dim = (s: string) => `\u001b[2m${s}\u001b[22m`

/** A line as Ink makes one: cells of text, some styled, at most `columns` wide, no trailing spaces. */
const line = (columns: number) =>
  fc
    .array(
      fc.tuple(
        fc.constantFrom("a", "b", "host-01", "│", "╭─╮", " ", "  ", "›", "203.0.113.", "日本", "é", "x\u0301"),
        fc.constantFrom(undefined, Inverse, Bold, Dim)
      ),
      { maxLength: 12 }
    )
    .map((parts) => {
      let text = ""
      let width = 0
      for (const [t, style] of parts) {
        const w = stringWidth(t)
        if (width + w > columns) break
        text += style === undefined ? t : style(t)
        width += w
      }
      return text.replace(/ +$/, "")
    })

describe("frameDiff", () => {
  it("leaves the screen a whole redraw leaves, for any two frames of the same height", async () => {
    const columns = 24
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10 }).chain((count) =>
          fc.tuple(
            fc.array(line(columns), { minLength: count, maxLength: count }),
            fc.array(line(columns), { minLength: count, maxLength: count }),
            // How the next frame is made: fresh lines, or the previous one scrolled with some lines changed.
            fc.integer({ min: -4, max: 4 }),
            fc.array(fc.nat(count - 1), { maxLength: 3 }),
            fc.boolean(),
            fc.integer({ min: 0, max: 3 })
          )
        ),
        async ([previous, fresh, by, changed, trailing, below]) => {
          const count = previous.length
          const next =
            by === 0
              ? fresh
              : previous.map((_, i) => (changed.includes(i) ? fresh[i]! : (previous[i + by] ?? fresh[i]!)))
          await check(previous, next, columns, trailing, count + (trailing ? 1 : 0) + below)
        }
      ),
      { numRuns: 300 }
    )
  })

  it("moves the rows of a list scrolled by one and writes the new row, the two cursor rows and the status", async () => {
    const columns = 80
    const record = (i: number) => `A       host-${String(i).padStart(4, "0")}.acme.com     203.0.113.${i % 250}`
    const frame = (first: number, selected: number) => [
      "│ [DNS records]",
      ...Array.from({ length: 20 }, (_, i) => {
        const n = first + i
        return `│ ${n === selected ? Inverse(`› ${record(n)}`) : `  ${record(n)}`}`.padEnd(78) + "│"
      }),
      `│ ${selected + 1}/1250`
    ]
    const previous = frame(100, 110)
    const next = frame(101, 111)
    const diff = await check(previous, next, columns, true, 24)
    // Whole lines: 20 rows of ~80 bytes. A move: the new bottom row, the old and new cursor rows, the status.
    expect(diff.length).toBeLessThan(4 * 100)
    expect(diff).toContain("\u001b[1M")
    expect(diff).toContain("\u001b[1L")
  })

  it("writes of a changed line only what changed, when the rest keeps its columns", () => {
    expect(lineSpan("│ 12/1250", "│ 13/1250", stringWidth)).toEqual({ column: 3, text: "3", keepsEnd: true })
    // Escape sequences are never cut, and a style open before the change is written again.
    expect(lineSpan(`│ ${Inverse("ab")} x`, `│ ${Inverse("ac")} x`, stringWidth)).toEqual({
      column: 2,
      text: Inverse("ac"),
      keepsEnd: true
    })
    // A wider middle moves what follows it: the line is written to its end.
    expect(lineSpan("a 日 z", "a xyz z", stringWidth)).toEqual({ column: 2, text: "xyz z", keepsEnd: false })
    // A combining mark stays with its letter.
    expect(lineSpan("ab", "ab\u0301", stringWidth)).toEqual({ column: 1, text: "b\u0301", keepsEnd: false })
  })
})
