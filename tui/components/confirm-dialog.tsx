/**
 * A yes/no dialog for keys that change state: it takes every key while open (a modal layer);
 * y confirms, n or esc cancels. For a change that cannot be undone (`destructive`: a delete) the
 * frame is red and enter does nothing, so a stray enter never loses data; otherwise enter confirms.
 * A dialog given its `requests` shows them on `v`, as the CLI's `--dry-run` prints them.
 */
import { Box, Text } from "ink"
import { useState } from "react"
import { requestsText, type PlannedRequest } from "../../src/domain/request-text.js"
import { KeyLayer, useKeys } from "../keys.js"
import { usePaneSize } from "../terminal.js"
import { wrapText } from "./wrap.js"

const cutLine = (line: string, width: number): Array<string> => {
  const chars = [...line]
  if (chars.length <= width) return [line]
  const out: Array<string> = []
  for (let i = 0; i < chars.length; i += width) out.push(chars.slice(i, i + width).join(""))
  return out
}

export interface ConfirmDialogProps {
  readonly title: string
  readonly lines?: ReadonlyArray<string>
  /** What `y` does, shown in the footer and the dialog. */
  readonly confirmLabel: string
  readonly destructive?: boolean
  /** The exact requests `y` sends, shown on `v`. */
  readonly requests?: ReadonlyArray<PlannedRequest> | undefined
  /** The rows the dialog may take (a tab's content under its headers); the pane's by default. */
  readonly height?: number | undefined
  readonly onConfirm: () => void
  readonly onCancel: () => void
}

export function ConfirmDialog({
  title,
  lines = [],
  confirmLabel,
  destructive = false,
  requests,
  height,
  onConfirm,
  onCancel
}: ConfirmDialogProps) {
  const pane = usePaneSize()
  const [shown, setShown] = useState(false)
  const [top, setTop] = useState(0)
  // Cut at the dialog's width, not by words: the JSON's indentation and a long value stay exact.
  const width = Math.max(10, pane.columns - 4)
  const text = shown && requests !== undefined ? requestsText(requests).flatMap((l) => cutLine(l, width)) : []
  // Border, title, the lines as wrapped, the count and the last line: the rest shows the requests
  // (counted by their wrapped rows: a migration's long lines at 80 columns pushed the requests'
  // last rows, and the keys' line, out of the pane).
  const rowsOf = (text: string) => wrapText(text, width).length
  const used = 4 + rowsOf(title) + lines.reduce((n, l) => n + rowsOf(l), 0)
  const room = Math.max(3, (height ?? pane.rows) - used)
  const last = Math.max(0, text.length - room)
  const first = Math.min(top, last)
  useKeys(
    (press) => {
      if (press.name === "y" || press.name === "Y" || (!destructive && press.name === "enter")) onConfirm()
      else if (press.name === "n" || press.name === "N" || press.name === "escape") onCancel()
      else if (press.name === "v" && requests !== undefined) setShown((s) => !s)
      else if (shown && (press.name === "down" || press.name === "j")) setTop(Math.min(first + 1, last))
      else if (shown && (press.name === "up" || press.name === "k")) setTop(Math.max(0, first - 1))
      return true
    },
    {
      priority: KeyLayer.dialog,
      modal: true,
      hints: [
        { keys: destructive ? "y" : "y/enter", label: confirmLabel },
        { keys: "n/esc", label: "cancel" },
        ...(requests !== undefined ? [{ keys: "v", label: shown ? "hide requests" : "requests" }] : []),
        ...(last > 0 ? [{ keys: "↑↓", label: "scroll" }] : []),
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  const color = destructive ? "red" : "yellow"
  return (
    <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor={color} paddingX={1}>
      <Text bold {...(destructive ? { color: "red" } : {})}>
        {title}
      </Text>
      {lines.map((l, i) => (
        <Text key={i} wrap="wrap">
          {l}
        </Text>
      ))}
      {shown && requests !== undefined ? (
        <>
          <Text dimColor wrap="truncate-end">
            {`${requests.length} request(s) y sends${last > 0 ? `, lines ${first + 1}-${Math.min(first + room, text.length)} of ${text.length}` : ""}:`}
          </Text>
          {text.slice(first, first + room).map((l, i) => (
            <Text key={first + i} wrap="truncate-end">
              {l === "" ? " " : l}
            </Text>
          ))}
        </>
      ) : null}
      <Text dimColor>
        y {confirmLabel} · n or esc cancels{requests !== undefined && !shown ? " · v shows the requests" : ""}
      </Text>
    </Box>
  )
}
