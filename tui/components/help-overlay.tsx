/** `?`: every key of the app in one place. It takes the keys while open; esc or ? closes it. */
import { Box, Text } from "ink"
import { KeyLayer, useKeys } from "../keys.js"

export const AllKeys: ReadonlyArray<readonly [string, string]> = [
  ["↑↓ / j k", "move the cursor"],
  ["pgup / pgdn", "move a page"],
  ["g / G", "first / last row loaded"],
  ["enter", "open"],
  ["esc / backspace", "go back (clears the filter first)"],
  ["tab / shift+tab", "switch tabs"],
  ["/", "filter the list in place"],
  ["a", "choose the account (Zones, KV, ESC)"],
  ["n / e / d", "new key, edit, delete (KV; delete asks first)"],
  ["r", "refresh"],
  ["t s x c", "ESC: always on/off, set / clear the secret, test a request"],
  ["1–6", "switch screen"],
  [":", "go to a screen or zone by name"],
  ["?", "show or hide this help"],
  ["q", "quit"],
  ["ctrl+c", "quit, from anywhere"]
]

export function HelpOverlay({ onClose, onQuit }: { onClose: () => void; onQuit: () => void }) {
  useKeys(
    (press) => {
      if (press.name === "escape" || press.name === "?" || press.name === "backspace" || press.name === "enter") onClose()
      else if (press.name === "q") onQuit()
      return true
    },
    {
      priority: KeyLayer.overlay,
      modal: true,
      hints: [
        { keys: "esc/?", label: "close help" },
        { keys: "q", label: "quit" }
      ]
    }
  )
  return (
    <Box flexDirection="column">
      <Text bold>Keys</Text>
      <Text> </Text>
      {AllKeys.map(([keys, what]) => (
        <Text key={keys}>
          <Text color="cyan">{keys.padEnd(18)}</Text>
          {what}
        </Text>
      ))}
    </Box>
  )
}
