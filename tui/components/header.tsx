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
      <Field label="target" value={target} shrink={3} wrap="truncate-middle" />
      <Field label="account" value={account} shrink={2} wrap="truncate-end" />
      <Field label="zone" value={zone ?? "—"} shrink={1} wrap="truncate-end" />
    </Box>
  )
}

/** A dim label and its value; `shrink`: how much sooner than the others it gives up columns. */
function Field(props: { label: string; value: string; shrink: number; wrap: "truncate-middle" | "truncate-end" }) {
  return (
    <Box flexShrink={props.shrink}>
      <Text wrap={props.wrap}>
        <Text dimColor>{`${props.label} `}</Text>
        {props.value}
      </Text>
    </Box>
  )
}
