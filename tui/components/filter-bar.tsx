/**
 * `/` filters a list in place: while the field is open it takes every typed key (a modal layer),
 * the list below follows each keystroke, enter keeps the filter and esc clears it.
 */
import { Text } from "ink"
import { useState } from "react"
import { isText, KeyLayer, useKeys, type Keypress } from "../keys.js"

export interface FilterInput {
  readonly text: string
  readonly editing: boolean
  readonly start: () => void
  readonly clear: () => void
}

export function useFilterInput(options: { readonly active: boolean; readonly onMove: (press: Keypress) => boolean; readonly what?: string }): FilterInput {
  const [text, setText] = useState("")
  const [editing, setEditing] = useState(false)
  useKeys(
    (press) => {
      if (isText(press)) {
        setText((t) => t + press.input)
        return true
      }
      switch (press.name) {
        case "backspace":
          setText((t) => t.slice(0, -1))
          return true
        case "enter":
          setEditing(false)
          return true
        case "escape":
          setText("")
          setEditing(false)
          return true
        default:
          return press.name === "up" || press.name === "down" ? options.onMove(press) : false
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
    text,
    editing,
    start: () => setEditing(true),
    clear: () => {
      setText("")
      setEditing(false)
    }
  }
}

export function FilterBar({ filter, what = "name" }: { filter: FilterInput; what?: string }) {
  if (filter.editing) {
    return (
      <Text>
        <Text color="yellow">/ </Text>
        {filter.text}
        <Text inverse> </Text>
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
