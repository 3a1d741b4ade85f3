/**
 * A choice in a custom rule's form (its action, what a skip skips, on or off): the options as a
 * short list in a dialog, `↑↓`/`j k` to move, enter to choose; with `multi`, space ticks options
 * and enter takes the ticked ones (at least one). It takes every key while open (a modal layer),
 * and keeps the cursor in a ref so that keys read in one chunk (a paste, `jj⏎`) act in order.
 */
import { Box, Text } from "ink"
import { useRef, useState } from "react"
import { KeyLayer, useKeys } from "../keys.js"

export interface PickerOption {
  readonly value: string
  readonly label: string
}

export interface PickerProps {
  readonly title: string
  readonly help?: string
  readonly options: ReadonlyArray<PickerOption>
  /** The option the cursor starts on (single) or the ones ticked (multi). */
  readonly initial?: ReadonlyArray<string>
  readonly multi?: boolean
  readonly onSubmit: (values: ReadonlyArray<string>) => void
  readonly onCancel: () => void
}

export function Picker({ title, help, options, initial = [], multi = false, onSubmit, onCancel }: PickerProps) {
  const first = Math.max(
    0,
    options.findIndex((o) => initial.includes(o.value))
  )
  const state = useRef({ title, index: first, ticked: new Set(multi ? initial : []), tried: false })
  if (state.current.title !== title)
    state.current = { title, index: first, ticked: new Set(multi ? initial : []), tried: false }
  const [, render] = useState(0)
  const set = (change: Partial<typeof state.current>) => {
    state.current = { ...state.current, ...change }
    render((n) => n + 1)
  }
  useKeys(
    (press) => {
      const now = state.current
      switch (press.name) {
        case "up":
        case "k":
          set({ index: Math.max(0, now.index - 1) })
          return true
        case "down":
        case "j":
          set({ index: Math.min(options.length - 1, now.index + 1) })
          return true
        case "space":
        case " ": {
          if (!multi) return true
          const value = options[now.index]!.value
          const ticked = new Set(now.ticked)
          if (ticked.has(value)) ticked.delete(value)
          else ticked.add(value)
          set({ ticked })
          return true
        }
        case "enter":
          if (!multi) onSubmit([options[now.index]!.value])
          else if (now.ticked.size === 0) set({ tried: true })
          else onSubmit(options.filter((o) => now.ticked.has(o.value)).map((o) => o.value))
          return true
        case "escape":
          onCancel()
          return true
        default:
          return true
      }
    },
    {
      priority: KeyLayer.input,
      modal: true,
      hints: [
        { keys: "↑↓", label: "choose" },
        ...(multi ? [{ keys: "space", label: "tick" }] : []),
        { keys: "enter", label: multi ? "take the ticked" : "choose" },
        { keys: "esc", label: "cancel" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  const { index, ticked, tried } = state.current
  return (
    <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      {help !== undefined ? (
        <Text dimColor wrap="wrap">
          {help}
        </Text>
      ) : null}
      {options.map((o, i) => (
        <Text key={o.value} inverse={i === index} wrap="truncate-end">
          {i === index ? "› " : "  "}
          {multi ? (ticked.has(o.value) ? "[x] " : "[ ] ") : ""}
          {o.label}
        </Text>
      ))}
      {tried && ticked.size === 0 ? (
        <Text color="red">tick at least one (space), or esc to cancel</Text>
      ) : (
        <Text dimColor>{multi ? "space ticks, enter takes the ticked" : "enter chooses"}, esc cancels</Text>
      )}
    </Box>
  )
}
