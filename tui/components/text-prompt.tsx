/**
 * A one-line text field in a dialog: it takes every typed key while open (a modal layer), shows
 * what is typed through `display` (a secret as bullets), checks it on every key, and hands it
 * over on enter once `check` accepts it; esc cancels.
 */
import { Box, Text } from "ink"
import { useRef, useState } from "react"
import { isText, KeyLayer, useKeys } from "../keys.js"

export interface TextPromptProps {
  readonly title: string
  readonly help?: string
  /** How the text is drawn; the default shows it as typed. */
  readonly display?: (text: string) => string
  /** A message when the text cannot be submitted as it is, else undefined. */
  readonly check?: (text: string) => string | undefined
  /** Shown after the field, e.g. a character count. */
  readonly counter?: (text: string) => string
  readonly submitLabel: string
  readonly onSubmit: (text: string) => void
  readonly onCancel: () => void
}

export const bullets = (text: string) => "•".repeat([...text].length)

/** Typed text after a chunk of keys: printable characters append, DEL and BS delete, CR or LF submits. */
export const applyChunk = (text: string, chunk: string): { readonly text: string; readonly submit: boolean } => {
  let chars = [...text]
  for (const ch of chunk) {
    if (ch === "\r" || ch === "\n") return { text: chars.join(""), submit: true }
    if (ch === "\u007f" || ch === "\b") chars = chars.slice(0, -1)
    else if (ch >= " " && ch !== "\u007f") chars.push(ch)
  }
  return { text: chars.join(""), submit: false }
}

export function TextPrompt({ title, help, display = (t) => t, check, counter, submitLabel, onSubmit, onCancel }: TextPromptProps) {
  // The text lives in a ref, so that keys that arrive before the next render (typing, then enter)
  // all see what was typed before them; the state only re-renders. A prompt with another title in
  // the same place (the next step of a dialog) starts empty.
  const typed = useRef({ title, text: "", tried: false })
  if (typed.current.title !== title) typed.current = { title, text: "", tried: false }
  const [, render] = useState(0)
  const update = (text: string, tried = typed.current.tried) => {
    typed.current = { title, text, tried }
    render((n) => n + 1)
  }
  const { text, tried } = typed.current
  const problem = check?.(text)
  useKeys(
    (press) => {
      const now = typed.current.text
      if (isText(press)) {
        update(now + press.input)
        return true
      }
      // A terminal may deliver fast typing in one chunk: "abc\r", or several DELs at once.
      if (press.input.length > 1 && !press.key.ctrl && !press.key.meta) {
        const { text: next, submit } = applyChunk(now, press.input)
        if (submit && check?.(next) === undefined) {
          update(next)
          onSubmit(next)
        } else update(next, typed.current.tried || submit)
        return true
      }
      switch (press.name) {
        case "backspace":
          update([...now].slice(0, -1).join(""))
          return true
        case "enter":
          if (check?.(now) === undefined) onSubmit(now)
          else update(now, true)
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
      text: true,
      hints: [
        { keys: "type", label: "text" },
        { keys: "enter", label: submitLabel },
        { keys: "esc", label: "cancel" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>{title}</Text>
      {help !== undefined ? <Text dimColor>{help}</Text> : null}
      <Text wrap="truncate-start">
        <Text color="yellow">› </Text>
        {display(text)}
        <Text inverse> </Text>
        {counter !== undefined ? <Text dimColor> {counter(text)}</Text> : null}
      </Text>
      {problem !== undefined && (tried || text !== "") ? (
        <Text color="red" wrap="wrap">
          {problem}
        </Text>
      ) : (
        <Text dimColor>enter to continue, esc to cancel</Text>
      )}
    </Box>
  )
}
