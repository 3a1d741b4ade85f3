/** A screen that has not arrived yet says so in one line, and where to go instead. */
import { Box, Text } from "ink"
import type { ScreenInfo } from "./registry.js"

export function PlaceholderScreen({ screen }: { screen: ScreenInfo }) {
  return (
    <Box flexDirection="column">
      <Text bold>{screen.title}</Text>
      <Text>
        Not built yet: {screen.about} arrives with its issue. <Text dimColor>Press 1 for Zones.</Text>
      </Text>
    </Box>
  )
}
