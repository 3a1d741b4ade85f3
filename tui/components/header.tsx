/** The top line: where edgectl talks to, the account and the zone the user is in. */
import { Box, Text } from "ink"

export function Header({ target, account, zone }: { target: string; account: string; zone: string | undefined }) {
  return (
    <Box gap={3} paddingX={1}>
      <Text bold color="cyan">
        edgectl
      </Text>
      <Text>
        <Text dimColor>target </Text>
        {target}
      </Text>
      <Text>
        <Text dimColor>account </Text>
        {account}
      </Text>
      <Text>
        <Text dimColor>zone </Text>
        {zone ?? "—"}
      </Text>
    </Box>
  )
}
