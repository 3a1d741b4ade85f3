/**
 * The bottom lines: the keys that work right now (from the keypress hub), then the notice line: a
 * key handler's fault, else the last action's notice (see notices.tsx). An error's code stays in
 * view when a long message is cut to the width.
 */
import { Box, Text } from "ink"
import { useKeyHints } from "../keys.js"
import { useNotice } from "../notices.js"
import { codeSuffix } from "./states.js"

export function Footer() {
  const { hints, fault } = useKeyHints()
  const notice = useNotice()
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
      {fault !== undefined ? (
        <Text color="red" wrap="truncate-end">{`error: ${fault.message}${codeSuffix(fault)}`}</Text>
      ) : notice !== undefined ? (
        <Box>
          <Box flexShrink={1}>
            <Text color={notice.kind === "done" ? "green" : "red"} wrap="truncate-end">
              {notice.kind === "done" ? `✓ ${notice.text}` : notice.text}
            </Text>
          </Box>
          {notice.code !== undefined ? (
            <Box flexShrink={0}>
              <Text color="red">{` [code ${notice.code}]`}</Text>
            </Box>
          ) : null}
        </Box>
      ) : (
        <Text> </Text>
      )}
    </Box>
  )
}
