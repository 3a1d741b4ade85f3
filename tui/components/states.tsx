/** The loading, empty and error states every list draws, each saying what the user can do next. */
import { Box, Text } from "ink"
import type { UiError } from "../errors.js"

export function Loading({ what }: { what: string }) {
  return <Text color="cyan">… loading {what}</Text>
}

export function Empty({ what, next }: { what: string; next: string }) {
  return (
    <Box flexDirection="column">
      <Text>{what}</Text>
      <Text dimColor>{next}</Text>
    </Box>
  )
}

export const codeSuffix = (e: UiError) => (e.code === undefined ? "" : ` [code ${e.code}]`)

/** `error: <what failed>: <why> [code N]` and one `hint:` line, as the CLI prints them. */
export function ErrorView({ what, error }: { what: string; error: UiError }) {
  return (
    <Box flexDirection="column">
      <Text color="red">
        error: {what}: {error.message}
        {codeSuffix(error)}
      </Text>
      <Text dimColor>hint: {error.hint}</Text>
    </Box>
  )
}
