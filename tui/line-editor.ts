/**
 * The one-line editor every text input shares (prompts, filters, the palette, form fields), with
 * readline's keys. Pure: a line is its text and a cursor, and a keypress makes a new line. The
 * cursor counts codepoints, so an emoji or an accented letter is one step.
 *
 * Words: ctrl+w deletes back to the previous whitespace (readline's unix-word-rubout, so
 * `http.request.uri.path` goes at once); alt+b/f, ctrl+←/→, alt+backspace and alt+d stop at
 * anything that is not a letter or digit (readline's backward-word and friends).
 */
import { isText, type Keypress } from "./key-decoder.js"

export interface Line {
  readonly text: string
  /** Where the next character goes, in codepoints from the start (0..length). */
  readonly cursor: number
}

export const emptyLine: Line = { text: "", cursor: 0 }

/** `text` with the cursor at its end. */
export const lineOf = (text: string): Line => ({ text, cursor: [...text].length })

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c)
const isSpace = (c: string | undefined) => c !== undefined && /\s/u.test(c)

/** The start of the word before `at`: skip what is not a word, then the word. */
const wordStartBefore = (
  chars: ReadonlyArray<string>,
  at: number,
  inWord: (c: string | undefined) => boolean
): number => {
  let i = at
  while (i > 0 && !inWord(chars[i - 1])) i--
  while (i > 0 && inWord(chars[i - 1])) i--
  return i
}

/** The end of the word after `at`. */
const wordEndAfter = (chars: ReadonlyArray<string>, at: number): number => {
  let i = at
  while (i < chars.length && !isWordChar(chars[i])) i++
  while (i < chars.length && isWordChar(chars[i])) i++
  return i
}

const notSpace = (c: string | undefined) => c !== undefined && !isSpace(c)

/**
 * How a field takes the line ends of a paste: `keep` (a field of multi-line text: SQL, a KV value,
 * an expression; drawn as `⏎`, see `lineBreaks`), or `join` (a one-line field: the lines joined with
 * a space, a tab as a space, a final line end dropped).
 */
export type Newlines = "keep" | "join"

/** The text a paste adds to a field that takes its line ends as `newlines` says. */
const pasteInto = (text: string, newlines: Newlines): string =>
  newlines === "keep" ? text : text.replace(/\n+$/, "").replace(/[\n\t]/g, " ")

/** The number of lines in `text` (1 when it has no line end). */
export const lineCount = (text: string): number => text.split("\n").length

/** The text as a one-line field draws it: a line end as `⏎`, a tab as `⇥` (one cell each). */
export const lineBreaks = (text: string): string => text.replace(/\n/g, "⏎").replace(/\t/g, "⇥")

/** The line after `press`, or undefined when the key is not an edit (enter, esc, ↑↓ are the field's). */
export const editLine = (line: Line, press: Keypress, newlines: Newlines = "join"): Line | undefined => {
  const chars = [...line.text]
  const at = Math.max(0, Math.min(line.cursor, chars.length))
  const make = (next: ReadonlyArray<string>, cursor: number): Line => ({ text: next.join(""), cursor })
  const remove = (from: number, to: number): Line => make([...chars.slice(0, from), ...chars.slice(to)], from)
  const moveTo = (cursor: number): Line => ({ text: line.text, cursor })
  if (isText(press) || press.name === "paste") {
    const added = [...(press.name === "paste" ? pasteInto(press.input, newlines) : press.input)]
    return make([...chars.slice(0, at), ...added, ...chars.slice(at)], at + added.length)
  }
  switch (press.name) {
    case "left":
    case "ctrl+b":
      return moveTo(Math.max(0, at - 1))
    case "right":
    case "ctrl+f":
      return moveTo(Math.min(chars.length, at + 1))
    case "home":
    case "ctrl+a":
      return moveTo(0)
    case "end":
    case "ctrl+e":
      return moveTo(chars.length)
    case "ctrl+left":
    case "alt+left":
    case "alt+b":
      return moveTo(wordStartBefore(chars, at, isWordChar))
    case "ctrl+right":
    case "alt+right":
    case "alt+f":
      return moveTo(wordEndAfter(chars, at))
    case "backspace":
      return remove(Math.max(0, at - 1), at)
    case "delete":
    case "ctrl+d":
      return remove(at, Math.min(chars.length, at + 1))
    case "ctrl+u":
      return remove(0, at)
    case "ctrl+k":
      return remove(at, chars.length)
    case "ctrl+w":
      return remove(wordStartBefore(chars, at, notSpace), at)
    case "alt+backspace":
      return remove(wordStartBefore(chars, at, isWordChar), at)
    case "alt+d":
    case "ctrl+delete":
      return remove(at, wordEndAfter(chars, at))
    default:
      return undefined
  }
}

export interface LineWindow {
  /** What is drawn before the cursor cell (with a leading `…` when the start is cut). */
  readonly before: string
  /** The cell under the cursor: a character, or a space at the end of the line. */
  readonly at: string
  /** What is drawn after it (with a trailing `…` when the end is cut). */
  readonly after: string
}

/**
 * The part of a line drawn in a field `width` cells wide, keeping the cursor in view. `shown` is the
 * text as drawn (a secret as bullets); when it is not one character per typed character, the cursor
 * is drawn at its end.
 */
export const lineWindow = (line: Line, width: number, shown: string = line.text): LineWindow => {
  const chars = [...shown]
  const cursor =
    chars.length === [...line.text].length ? Math.max(0, Math.min(line.cursor, chars.length)) : chars.length
  const cells = cursor === chars.length ? [...chars, " "] : chars
  const room = Math.max(3, width)
  let start = 0
  let end = cells.length
  if (cells.length > room) {
    if (cursor < room - 1) end = room - 1
    else if (cells.length - cursor <= room - 1) start = cells.length - (room - 1)
    else {
      start = cursor - Math.floor((room - 2) / 2)
      end = start + room - 2
    }
  }
  return {
    before: (start > 0 ? "…" : "") + cells.slice(start, cursor).join(""),
    at: cells[cursor]!,
    after: cells.slice(cursor + 1, end).join("") + (end < cells.length ? "…" : "")
  }
}
