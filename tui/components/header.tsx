/**
 * The top line: where edgectl talks to, the account and the zone the user is in. Always one line:
 * at 80 columns a remote base URL is cut in the middle (its host and its end stay), then the
 * account's name, before the zone's.
 */
import { Box, Text } from "ink"

export function Header({ target, account, zone }: { target: string; account: string; zone: string | undefined }) {
  return (
    <Box gap={3} paddingX={1} height={1} overflow="hidden">
      <Box flexShrink={0}>
        <Text bold color="cyan">
          edgectl
        </Text>
      </Box>
      <Box flexShrink={3}>
        <Text wrap="truncate-middle">
          <Text dimColor>target </Text>
          {target}
        </Text>
      </Box>
      <Box flexShrink={2}>
        <Text wrap="truncate-end">
          <Text dimColor>account </Text>
          {account}
        </Text>
      </Box>
      <Box flexShrink={1}>
        <Text wrap="truncate-end">
          <Text dimColor>zone </Text>
          {zone ?? "—"}
        </Text>
      </Box>
    </Box>
  )
}
