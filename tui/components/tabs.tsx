/** A row of tabs; the active one is bracketed (readable without colour) and highlighted. */
import { Box, Text } from "ink"

export function Tabs({ titles, active }: { titles: ReadonlyArray<string>; active: number }) {
  return (
    <Box gap={2}>
      {titles.map((title, i) =>
        i === active ? (
          <Text key={title} bold color="cyan">
            [{title}]
          </Text>
        ) : (
          <Text key={title} dimColor>
            {" "}
            {title}{" "}
          </Text>
        )
      )}
    </Box>
  )
}
