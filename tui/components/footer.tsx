/** The bottom lines: the keys that work right now (from the keypress hub), and the last fault. */
import { Box, Text } from "ink"
import { useKeyHints } from "../keys.js"
import { codeSuffix } from "./states.js"

export function Footer() {
  const { hints, fault } = useKeyHints()
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text wrap="truncate-end">
        {hints.map((h, i) => (
          <Text key={`${h.keys}-${h.label}`}>
            {i > 0 ? "  " : null}
            <Text bold>{h.keys}</Text> <Text dimColor>{h.label}</Text>
          </Text>
        ))}
      </Text>
      <Text color="red" wrap="truncate-end">
        {fault ? `error: ${fault.message}${codeSuffix(fault)}` : " "}
      </Text>
    </Box>
  )
}
