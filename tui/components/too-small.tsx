/**
 * Below the size every screen is drawn for, the app says so instead of drawing a garbled frame; the
 * screens stay mounted underneath (hidden, taking no keys) and come back as they were when the
 * terminal grows again.
 */
import { Box, Text } from "ink"
import { KeyLayer, useKeys } from "../keys.js"

/** The smallest terminal every screen is complete at (docs/tui.md). */
export const MinSize = { columns: 80, rows: 24 } as const

export function TooSmall({ columns, rows, onQuit }: { columns: number; rows: number; onQuit: () => void }) {
  useKeys(
    (press) => {
      if (press.name === "q") onQuit()
      return true
    },
    // Above help and the palette, which may be open underneath.
    { priority: KeyLayer.overlay + 10, modal: true }
  )
  return (
    <Box flexDirection="column" height={Math.max(1, rows - 1)} overflow="hidden" paddingX={columns >= 30 ? 1 : 0}>
      <Text bold color="cyan">
        edgectl
      </Text>
      <Text wrap="wrap">
        The terminal is too small: {columns}x{rows}.
      </Text>
      <Text wrap="wrap">
        edgectl needs at least {MinSize.columns}x{MinSize.rows}: make the window larger (q quits).
      </Text>
    </Box>
  )
}
