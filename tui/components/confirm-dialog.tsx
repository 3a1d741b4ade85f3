/**
 * A yes/no dialog for keys that change state: it takes every key while open (a modal layer);
 * y or enter confirms, n or esc cancels.
 */
import { Box, Text } from "ink"
import { KeyLayer, useKeys } from "../keys.js"

export interface ConfirmDialogProps {
  readonly title: string
  readonly lines?: ReadonlyArray<string>
  /** What `y` does, shown in the footer. */
  readonly confirmLabel: string
  readonly onConfirm: () => void
  readonly onCancel: () => void
}

export function ConfirmDialog({ title, lines = [], confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  useKeys(
    (press) => {
      if (press.name === "y" || press.name === "Y" || press.name === "enter") onConfirm()
      else if (press.name === "n" || press.name === "N" || press.name === "escape") onCancel()
      return true
    },
    {
      priority: KeyLayer.dialog,
      modal: true,
      hints: [
        { keys: "y/enter", label: confirmLabel },
        { keys: "n/esc", label: "cancel" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold>{title}</Text>
      {lines.map((l, i) => (
        <Text key={i} wrap="wrap">
          {l}
        </Text>
      ))}
      <Text dimColor>y confirms · n cancels</Text>
    </Box>
  )
}
