/** The left list of screens; the number before each is the key that opens it. */
import { Box, Text } from "ink"
import { Screens } from "../screens/registry.js"
import type { ScreenId } from "../state.js"

export const SidebarWidth = 16

export function Sidebar({ current }: { current: ScreenId }) {
  return (
    <Box flexDirection="column" width={SidebarWidth} flexShrink={0} borderStyle="round" borderDimColor paddingX={1}>
      {Screens.map((s) => {
        const here = s.id === current
        return (
          <Text key={s.id} bold={here} {...(here ? { color: "cyan" } : {})}>
            {here ? "›" : " "}
            {s.key} {s.title}
          </Text>
        )
      })}
    </Box>
  )
}
