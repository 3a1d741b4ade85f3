/**
 * What a text input needs from the line editor (tui/line-editor.ts): the line kept in a ref, so
 * that every key of one read sees the keys before it even when a handler runs before the next
 * render, and the line drawn with its cursor as an inverse cell, scrolled to keep it in view.
 */
import { Text } from "ink"
import { useRef, useState } from "react"
import type { Keypress } from "../keys.js"
import { editLine, emptyLine, lineBreaks, lineWindow, type Line } from "../line-editor.js"

export interface LineEditor {
  /** The line as of the keys handled so far. */
  readonly line: Line
  /** Applies an editing key; false when the key is not an edit (enter, esc, ↑↓). */
  readonly edit: (press: Keypress) => boolean
  readonly set: (line: Line) => void
}

export function useLineEditor(initial: Line = emptyLine): LineEditor {
  const ref = useRef(initial)
  const [, rendered] = useState(0)
  const set = (line: Line) => {
    ref.current = line
    rendered((n) => n + 1)
  }
  return {
    get line() {
      return ref.current
    },
    edit: (press) => {
      const next = editLine(ref.current, press)
      if (next === undefined) return false
      set(next)
      return true
    },
    set
  }
}

/**
 * The line in a field `width` cells wide, inside a `<Text>`; with `focused` false it is drawn without
 * a cursor. `display` maps the text to what is drawn (a secret as bullets).
 */
export function LineText({
  line,
  width,
  display,
  focused = true
}: {
  readonly line: Line
  readonly width: number
  readonly display?: ((text: string) => string) | undefined
  readonly focused?: boolean
}) {
  const shown = lineBreaks(display === undefined ? line.text : display(line.text))
  const end = { ...line, cursor: [...line.text].length }
  const cut = lineWindow(focused ? line : end, focused ? width : width + 1, shown)
  if (!focused) return <>{cut.before}</>
  return (
    <>
      {cut.before}
      <Text inverse>{cut.at}</Text>
      {cut.after}
    </>
  )
}
