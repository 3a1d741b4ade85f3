/**
 * The bottom lines: the keys that work right now (from the keypress hub), then the notice: a key
 * handler's fault or an error, drawn whole (wrapped, with its hint) until a key dismisses it, else
 * the last action's result, wrapped too (a file it wrote is named whole: cut at the line's end, the
 * path was lost), for a few seconds (see notices.tsx).
 *
 * The key line never wraps: when it is too narrow, the hints the layers rank lowest go first, and
 * `? help` and `q quit` (KeepAlways) stay at any width, so every other key can still be found.
 */
import { Box, Text } from "ink"
import { useKeyHints, type KeyHint } from "../keys.js"
import { useNotice, type Notice } from "../notices.js"
import { useTerminalSize } from "../terminal.js"
import { codeSuffix } from "./states.js"
import { wrapText } from "./wrap.js"

/** The footer's side padding, and the error box's bar and space. */
const Padding = 2
const Bar = 2
const Gap = 2

const hintWidth = (h: KeyHint) => [...h.keys].length + 1 + [...h.label].length

/** The hints that fit in `width`, in their order: the highest `keep` (then the first listed) first. */
export const fitHints = (hints: ReadonlyArray<KeyHint>, width: number): ReadonlyArray<KeyHint> => {
  const ranked = hints.map((h, i) => ({ h, i })).sort((a, b) => (b.h.keep ?? 0) - (a.h.keep ?? 0) || a.i - b.i)
  const kept = new Set<number>()
  // Two layers may list the same key (an error state's `q quit` and the app's): once is enough.
  const shown = new Set<string>()
  let used = 0
  for (const { h, i } of ranked) {
    const id = `${h.keys} ${h.label}`
    if (shown.has(id)) continue
    const w = hintWidth(h) + (kept.size > 0 ? Gap : 0)
    if (used + w > width) continue
    kept.add(i)
    shown.add(id)
    used += w
  }
  return hints.filter((_, i) => kept.has(i))
}

interface ErrorBox {
  readonly message: ReadonlyArray<string>
  readonly hint: ReadonlyArray<string>
}

/** An error's lines at `columns`, at most `maxLines` of them (a longer one says how much is left out). */
const errorBox = (text: string, hint: string | undefined, columns: number, maxLines: number): ErrorBox => {
  const width = columns - Padding - Bar
  const message = wrapText(text, width)
  const hints = hint === undefined || hint === "" ? [] : wrapText(`hint: ${hint}`, width)
  const room = Math.max(2, maxLines)
  if (message.length + hints.length <= room) return { message, hint: hints }
  const shownHint = hints.slice(0, Math.max(0, Math.min(hints.length, room - 2)))
  const shown = Math.max(1, room - shownHint.length - 1)
  return { message: [...message.slice(0, shown), `… ${message.length - shown} more lines`], hint: shownHint }
}

/** What the notice line holds now: a handler's fault first, else the notice. */
const errorOf = (notice: Notice | undefined, fault: ReturnType<typeof useKeyHints>["fault"]) =>
  fault !== undefined
    ? { text: `error: ${fault.message}${codeSuffix(fault)}`, hint: fault.hint }
    : notice?.kind === "error"
      ? { text: `${notice.text}${notice.code === undefined ? "" : ` [code ${notice.code}]`}`, hint: notice.hint }
      : undefined

/** The error box may take the rows the pane can spare down to a few. */
const maxErrorLines = (rows: number) => Math.max(3, rows - 14)

/** A result's lines at `columns`: whole, within the rows an error box may take. */
const resultLines = (text: string, columns: number, rows: number): ReadonlyArray<string> => {
  const lines = wrapText(`✓ ${text}`, columns - Padding)
  const room = maxErrorLines(rows)
  return lines.length <= room ? lines : [...lines.slice(0, room - 1), `… ${lines.length - room + 1} more lines`]
}

/**
 * The rows the footer takes at this size: the key line, then a result's lines (or one blank), or
 * the error box and its "any key dismisses" line. The shell sizes the main pane from it.
 */
export function useFooterRows(columns: number, rows: number): number {
  const { fault } = useKeyHints()
  const notice = useNotice()
  const error = errorOf(notice, fault)
  if (error === undefined) return 1 + (notice === undefined ? 1 : resultLines(notice.text, columns, rows).length)
  const box = errorBox(error.text, error.hint, columns, maxErrorLines(rows))
  return 1 + box.message.length + box.hint.length + 1
}

export function Footer() {
  const { hints, fault } = useKeyHints()
  const notice = useNotice()
  const { columns, rows } = useTerminalSize()
  const shown = fitHints(hints, columns - Padding)
  const error = errorOf(notice, fault)
  const box = error === undefined ? undefined : errorBox(error.text, error.hint, columns, maxErrorLines(rows))
  return (
    <Box flexDirection="column" paddingX={1}>
      {/* A line even with no keys yet (the first frames, while the platform opens): an empty Text
        takes no row, and the frame jumped by one when the keys came (issue 29). */}
      <Text wrap="truncate-end">
        {shown.length === 0 ? " " : null}
        {shown.map((h, i) => (
          <Text key={`${h.keys}-${h.label}`}>
            {i > 0 ? "  " : null}
            <Text bold>{h.keys}</Text> <Text dimColor>{h.label}</Text>
          </Text>
        ))}
      </Text>
      {box !== undefined ? (
        <Box
          flexDirection="column"
          borderStyle="bold"
          borderColor="red"
          borderTop={false}
          borderRight={false}
          borderBottom={false}
          paddingLeft={1}
        >
          {box.message.map((line, i) => (
            <Text key={`m${i}`} color="red" wrap="truncate-end">
              {line}
            </Text>
          ))}
          {box.hint.map((line, i) => (
            <Text key={`h${i}`} wrap="truncate-end">
              {line}
            </Text>
          ))}
          <Text dimColor>any key dismisses</Text>
        </Box>
      ) : notice !== undefined ? (
        resultLines(notice.text, columns, rows).map((line, i) => (
          <Text key={`r${i}`} color="green" wrap="truncate-end">
            {line}
          </Text>
        ))
      ) : (
        <Text> </Text>
      )}
    </Box>
  )
}
