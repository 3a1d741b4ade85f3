/**
 * `/` filters a list in place: while the field is open it takes every typed key (a modal layer),
 * the list below follows each keystroke, enter keeps the filter and esc clears it.
 */
import { Text } from "ink"
import { useState } from "react"
import { KeyLayer, useKeys, type Keypress } from "../keys.js"
import { emptyLine, type Line } from "../line-editor.js"
import { usePaneSize } from "../terminal.js"
import { LineText, useLineEditor } from "./line-input.js"

export interface FilterInput {
  readonly text: string
  /** The text with the cursor, for drawing. */
  readonly line: Line
  readonly editing: boolean
  readonly start: () => void
  readonly clear: () => void
}

export function useFilterInput(options: {
  readonly active: boolean
  readonly onMove: (press: Keypress) => boolean
  readonly what?: string
}): FilterInput {
  const editor = useLineEditor()
  const [editing, setEditing] = useState(false)
  useKeys(
    (press) => {
      switch (press.name) {
        case "enter":
          setEditing(false)
          return true
        case "escape":
          editor.set(emptyLine)
          setEditing(false)
          return true
        case "up":
        case "down":
          return options.onMove(press)
        default:
          return editor.edit(press)
      }
    },
    {
      priority: KeyLayer.input,
      active: options.active && editing,
      modal: true,
      text: true,
      hints: [
        { keys: "type", label: `filter by ${options.what ?? "name"}` },
        { keys: "↑↓", label: "move" },
        { keys: "enter", label: "keep" },
        { keys: "esc", label: "clear" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  return {
    text: editor.line.text,
    line: editor.line,
    editing,
    start: () => setEditing(true),
    clear: () => {
      editor.set(emptyLine)
      setEditing(false)
    }
  }
}

export function FilterBar({ filter, what = "name" }: { filter: FilterInput; what?: string }) {
  const pane = usePaneSize()
  if (filter.editing) {
    return (
      <Text wrap="truncate-end">
        <Text color="yellow">/ </Text>
        <LineText line={filter.line} width={pane.columns - 2} />
      </Text>
    )
  }
  if (filter.text !== "") {
    return (
      <Text>
        <Text color="yellow">filter: </Text>
        {filter.text}
        <Text dimColor> (esc clears)</Text>
      </Text>
    )
  }
  return <Text dimColor>/ to filter by {what}</Text>
}

/**
 * A list's own keys for its filter, the same on every list filtered in place: `/` opens the field;
 * esc (or backspace) clears a kept filter, and with none it is not taken (the screen's "back").
 */
export const filterListKey = (filter: FilterInput, press: Keypress): boolean => {
  if (press.name === "/") {
    filter.start()
    return true
  }
  if ((press.name === "escape" || press.name === "backspace") && filter.text !== "") {
    filter.clear()
    return true
  }
  return false
}

/** The footer's hints for `filterListKey`. */
export const filterListHints = (filter: FilterInput) => [
  { keys: "/", label: "filter" },
  ...(filter.text !== "" ? [{ keys: "esc", label: "clear filter" }] : [])
]

/** Whether any of `fields` contains the filter's text, ignoring case (an empty filter keeps all). */
export const filterMatches = (filter: FilterInput, ...fields: ReadonlyArray<string | undefined>): boolean => {
  const needle = filter.text.trim().toLowerCase()
  return needle === "" || fields.some((f) => f !== undefined && f.toLowerCase().includes(needle))
}
