/**
 * `?`: the keys of the screen the user is on (read from the key layers registered under the help
 * when it opened, with the labels the footer uses, plus the extras a layer lists only here), then
 * the keys that work everywhere. It takes the keys while open; esc or ? closes it.
 */
import { Box, Text } from "ink"
import { useState } from "react"
import { KeepAlways, KeyLayer, useKeys, type KeyHint, type LayerKeys } from "../keys.js"
import { usePaneSize } from "../terminal.js"

/** Keys no layer lists: they work on every screen. */
const Everywhere: ReadonlyArray<KeyHint> = [
  { keys: "ctrl+c", label: "quit, from anywhere (even in a field)" },
  { keys: "any key", label: "dismisses an error in the footer, nothing else" }
]

type Line = { readonly kind: "title"; readonly text: string } | { readonly kind: "key"; readonly hint: KeyHint }

/** The screen's keys (layers above the app's), then the app's and the ones that work everywhere. */
const helpLines = (layers: ReadonlyArray<LayerKeys>, screen: string): ReadonlyArray<Line> => {
  // A key goes to the highest layer that lists it (as the footer says): a lower layer's line for it
  // would not be true (issue 29: `esc` twice in the custom rules' help, with two meanings).
  const seen = new Set<string>()
  const unique = (hints: ReadonlyArray<KeyHint>) =>
    hints.filter((h) => {
      if (seen.has(h.keys)) return false
      seen.add(h.keys)
      return true
    })
  const own = unique(layers.filter((l) => l.priority > KeyLayer.app).flatMap((l) => l.hints))
  const global = unique([...layers.filter((l) => l.priority <= KeyLayer.app).flatMap((l) => l.hints), ...Everywhere])
  return [
    { kind: "title", text: `${screen === "" ? "This screen" : screen}: keys here` },
    ...(own.length > 0 ? own : [{ keys: "—", label: "none beyond the global keys" }]).map((hint): Line => ({
      kind: "key",
      hint
    })),
    { kind: "title", text: "Everywhere" },
    ...global.map((hint): Line => ({ kind: "key", hint }))
  ]
}

export function HelpOverlay({
  layers,
  screen,
  active = true,
  onClose,
  onQuit
}: {
  layers: ReadonlyArray<LayerKeys>
  screen: string
  active?: boolean
  onClose: () => void
  onQuit: () => void
}) {
  const pane = usePaneSize()
  const lines = helpLines(layers, screen)
  // A line saying more is above or below: the rest shows keys.
  const rows = Math.max(3, pane.rows - 1)
  const last = Math.max(0, lines.length - rows)
  const [top, setTop] = useState(0)
  useKeys(
    (press) => {
      if (press.name === "escape" || press.name === "?" || press.name === "backspace" || press.name === "enter")
        onClose()
      else if (press.name === "q") onQuit()
      else if (press.name === "down" || press.name === "j" || press.name === "pagedown")
        setTop((t) => Math.min(last, t + (press.name === "pagedown" ? rows : 1)))
      else if (press.name === "up" || press.name === "k" || press.name === "pageup")
        setTop((t) => Math.max(0, t - (press.name === "pageup" ? rows : 1)))
      return true
    },
    {
      priority: KeyLayer.overlay,
      modal: true,
      active,
      hints: [
        ...(last > 0 ? [{ keys: "↑↓", label: "scroll" }] : []),
        { keys: "esc/?", label: "close help", keep: KeepAlways },
        { keys: "q", label: "quit", keep: KeepAlways }
      ]
    }
  )
  const from = Math.min(top, last)
  const shown = lines.slice(from, from + rows)
  const more = [
    from > 0 ? `↑ ${from} more` : "",
    from + rows < lines.length ? `↓ ${lines.length - from - rows} more` : ""
  ].filter((m) => m !== "")
  const keysWidth = Math.min(18, Math.max(8, ...lines.map((l) => (l.kind === "key" ? [...l.hint.keys].length + 2 : 0))))
  return (
    <Box flexDirection="column">
      {shown.map((line, i) =>
        line.kind === "title" ? (
          <Text key={`t${from + i}`} bold wrap="truncate-end">
            {line.text}
          </Text>
        ) : (
          <Text key={`k${from + i}`} wrap="truncate-end">
            <Text color="cyan">{line.hint.keys.padEnd(keysWidth)}</Text>
            {line.hint.label}
          </Text>
        )
      )}
      <Text dimColor>{more.join("  ") || " "}</Text>
    </Box>
  )
}
