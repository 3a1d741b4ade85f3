/**
 * A yes/no dialog for keys that change state: it takes every key while open (a modal layer);
 * y confirms, n or esc cancels. For a change that cannot be undone (`destructive`: a delete) the
 * frame is red and enter does nothing, so a stray enter never loses data; otherwise enter confirms.
 */
import { Box, Text } from "ink"
import { KeyLayer, useKeys } from "../keys.js"

export interface ConfirmDialogProps {
  readonly title: string
  readonly lines?: ReadonlyArray<string>
  /** What `y` does, shown in the footer and the dialog. */
  readonly confirmLabel: string
  readonly destructive?: boolean
  readonly onConfirm: () => void
  readonly onCancel: () => void
}

export function ConfirmDialog({
  title,
  lines = [],
  confirmLabel,
  destructive = false,
  onConfirm,
  onCancel
}: ConfirmDialogProps) {
  useKeys(
    (press) => {
      if (press.name === "y" || press.name === "Y" || (!destructive && press.name === "enter")) onConfirm()
      else if (press.name === "n" || press.name === "N" || press.name === "escape") onCancel()
      return true
    },
    {
      priority: KeyLayer.dialog,
      modal: true,
      hints: [
        { keys: destructive ? "y" : "y/enter", label: confirmLabel },
        { keys: "n/esc", label: "cancel" },
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
      <Text dimColor>y {confirmLabel} · n or esc cancels</Text>
    </Box>
  )
}
