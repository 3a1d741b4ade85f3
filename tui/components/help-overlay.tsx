/** `?`: every key of the app in one place. It takes the keys while open; esc or ? closes it. */
import { Box, Text } from "ink"
import { useState } from "react"
import { KeyLayer, useKeys } from "../keys.js"
import { usePaneSize } from "../terminal.js"

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

const Lines: ReadonlyArray<readonly [string, string]> = [
  ...AllKeys,
  ["any key", "dismisses an error in the footer (results there go by themselves)"]
]

export function HelpOverlay({ onClose, onQuit }: { onClose: () => void; onQuit: () => void }) {
  const pane = usePaneSize()
  // The title line and a line saying more is above or below: the rest shows keys.
  const rows = Math.max(3, pane.rows - 2)
  const last = Math.max(0, Lines.length - rows)
  const [top, setTop] = useState(0)
  useKeys(
    (press) => {
      if (press.name === "escape" || press.name === "?" || press.name === "backspace" || press.name === "enter") onClose()
      else if (press.name === "q") onQuit()
      else if (press.name === "down" || press.name === "j" || press.name === "pagedown") setTop((t) => Math.min(last, t + (press.name === "pagedown" ? rows : 1)))
      else if (press.name === "up" || press.name === "k" || press.name === "pageup") setTop((t) => Math.max(0, t - (press.name === "pageup" ? rows : 1)))
      return true
    },
    {
      priority: KeyLayer.overlay,
      modal: true,
      hints: [
        ...(last > 0 ? [{ keys: "↑↓", label: "scroll" }] : []),
        { keys: "esc/?", label: "close help" },
        { keys: "q", label: "quit" }
      ]
    }
  )
  const from = Math.min(top, last)
  const shown = Lines.slice(from, from + rows)
  const more = [from > 0 ? `↑ ${from} more` : "", from + rows < Lines.length ? `↓ ${Lines.length - from - rows} more` : ""].filter((m) => m !== "")
  return (
    <Box flexDirection="column">
      <Text bold>Keys</Text>
      {shown.map(([keys, what]) => (
        <Text key={keys} wrap="truncate-end">
          <Text color="cyan">{keys.padEnd(18)}</Text>
          {what}
        </Text>
      ))}
      <Text dimColor>{more.join("  ") || " "}</Text>
    </Box>
  )
}
