/**
 * A one-line text field in a dialog: it takes every typed key while open (a modal layer), edits
 * like a readline prompt (tui/line-editor.ts), shows what is typed through `display` (a secret as
 * bullets, the cursor with it), checks it on every key, and hands it over on enter once `check`
 * accepts it; esc cancels. A paste is text: its line ends are kept (`newlines="keep"`, drawn as ⏎,
 * and the field says enter submits all of it) or joined with spaces. Given a `history` (oldest
 * first), up and down bring back an earlier text, as a shell does; down past the newest gives back
 * what was being typed.
 */
import { Box, Text } from "ink"
import { useRef, useState } from "react"
import { KeyLayer, useKeys } from "../keys.js"
import { editLine, emptyLine, lineCount, lineOf, type Line, type Newlines } from "../line-editor.js"
import { usePaneSize } from "../terminal.js"
import { LineText } from "./line-input.js"

export interface TextPromptProps {
  readonly title: string
  readonly help?: string
  /** The text the field starts with (an edit), the cursor at its end. */
  readonly initial?: string
  /** How the text is drawn; the default shows it as typed. */
  readonly display?: (text: string) => string
  /** A message when the text cannot be submitted as it is, else undefined. */
  readonly check?: (text: string) => string | undefined
  /** Shown after the field, e.g. a character count. */
  readonly counter?: (text: string) => string
  readonly submitLabel: string
  /** How a pasted line end is taken: kept in a field of multi-line text (SQL), else joined (default). */
  readonly newlines?: Newlines
  /** Texts submitted before, oldest first: up/down recall them. */
  readonly history?: ReadonlyArray<string>
  readonly onSubmit: (text: string) => void
  readonly onCancel: () => void
}

export const bullets = (text: string) => "•".repeat([...text].length)

export function TextPrompt({
  title,
  help,
  initial,
  display,
  check,
  counter,
  submitLabel,
  newlines = "join",
  history = [],
  onSubmit,
  onCancel
}: TextPromptProps) {
  // The line lives in a ref, so that keys that arrive before the next render (typing, then enter)
  // all see what was typed before them; the state only re-renders. A prompt with another title in
  // the same place (the next step of a dialog) starts again, empty or with its initial text.
  const start = initial === undefined ? emptyLine : lineOf(initial)
  const typed = useRef({ title, line: start, tried: false })
  if (typed.current.title !== title) typed.current = { title, line: start, tried: false }
  const [, render] = useState(0)
  const update = (line: Line, tried = typed.current.tried) => {
    typed.current = { title, line, tried }
    render((n) => n + 1)
  }
  // Where up/down are in `history` (its length: the text being typed, kept in `draft`).
  const recall = useRef({ at: history.length, draft: start })
  const pane = usePaneSize()
  const { line, tried } = typed.current
  const text = line.text
  const problem = check?.(text)
  const count = counter?.(text)
  const lines = lineCount(text)
  useKeys(
    (press) => {
      const now = typed.current.line
      switch (press.name) {
        case "enter":
          if (check?.(now.text) === undefined) onSubmit(now.text)
          else update(now, true)
          return true
        case "escape":
          onCancel()
          return true
        case "up":
        case "down": {
          const r = recall.current
          const to = Math.max(0, Math.min(history.length, r.at + (press.name === "up" ? -1 : 1)))
          if (to === r.at) return true
          if (r.at === history.length) r.draft = now
          r.at = to
          update(to === history.length ? r.draft : lineOf(history[to]!))
          return true
        }
        default: {
          const next = editLine(now, press, newlines)
          if (next !== undefined) update(next)
          return true
        }
      }
    },
    {
      priority: KeyLayer.input,
      modal: true,
      text: true,
      hints: [
        { keys: "type", label: "text" },
        { keys: "enter", label: submitLabel },
        ...(history.length > 0 ? [{ keys: "↑↓", label: "history" }] : []),
        { keys: "esc", label: "cancel" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>{title}</Text>
      {help !== undefined ? <Text dimColor>{help}</Text> : null}
      <Text wrap="truncate-end">
        <Text color="yellow">› </Text>
        <LineText
          line={line}
          width={Math.max(8, pane.columns - 6 - (count === undefined ? 0 : count.length + 1))}
          display={display}
        />
        {count !== undefined ? <Text dimColor> {count}</Text> : null}
      </Text>
      {problem !== undefined && (tried || text !== "") ? (
        <Text color="red" wrap="wrap">
          {problem}
        </Text>
      ) : (
        // Wrapped, not cut: at 80 columns the way to submit a pasted text was cut off (issue 29).
        <Text dimColor wrap="wrap">
          {lines > 1
            ? `${lines} lines (⏎ marks a line break): enter to ${submitLabel} all of it, esc to cancel`
            : "enter to continue, esc to cancel"}
        </Text>
      )}
    </Box>
  )
}
