/**
 * `:` the command palette: type part of a screen's or a zone's name, move with ↑↓, enter jumps
 * there. Screens match locally; zones are asked of the platform (name contains the text) as the
 * user types, so it works the same for 46 zones or 10,000.
 */
import { Box, Text } from "ink"
import { useState } from "react"
import type { Zone } from "../../src/domain/zone.js"
import { listZonesPage } from "../../src/services/zones.js"
import { isText, KeyLayer, useKeys } from "../keys.js"
import { useEffectQuery } from "../runtime.js"
import { Screens, type ScreenInfo } from "../screens/registry.js"
import { List, useListCursor } from "./list.js"
import { codeSuffix } from "./states.js"

export type PaletteChoice =
  | { readonly kind: "screen"; readonly screen: ScreenInfo }
  | { readonly kind: "zone"; readonly zone: Zone }

/** Zones asked for per keystroke: enough to choose from, small enough to stay instant remotely. */
const ZoneMatches = 10

const label = (c: PaletteChoice) =>
  c.kind === "screen"
    ? `screen  ${c.screen.title}${c.screen.ready ? "" : " (not built yet)"}`
    : `zone    ${c.zone.name}  ${c.zone.account.name ?? c.zone.account.id}`

export function CommandPalette(props: {
  readonly height: number
  /** Zones of this account only (the account chosen in the header), or all when undefined. */
  readonly accountId: string | undefined
  readonly onPick: (choice: PaletteChoice) => void
  readonly onClose: () => void
}) {
  const [text, setText] = useState("")
  const needle = text.trim().toLowerCase()
  const zones = useEffectQuery(
    () =>
      needle === ""
        ? listZonesPage({ accountId: props.accountId, perPage: ZoneMatches })
        : listZonesPage({ accountId: props.accountId, name: `contains:${needle}`, perPage: ZoneMatches }),
    [needle, props.accountId]
  ).query
  const screens: ReadonlyArray<PaletteChoice> = Screens.filter((s) => s.title.toLowerCase().includes(needle)).map((screen) => ({
    kind: "screen",
    screen
  }))
  const choices: ReadonlyArray<PaletteChoice> = [
    ...screens,
    ...(zones._tag === "Success" ? zones.value.items.map((zone): PaletteChoice => ({ kind: "zone", zone })) : [])
  ]
  const listHeight = Math.max(1, props.height - 3)
  const cursor = useListCursor(choices.length, listHeight, [needle])
  useKeys(
    (press) => {
      switch (press.name) {
        case "up":
        case "down":
        case "pageup":
        case "pagedown":
          return cursor.move(press)
        case "enter": {
          const choice = choices[cursor.index]
          if (choice) props.onPick(choice)
          return true
        }
        case "escape":
          props.onClose()
          return true
        case "backspace":
          if (text === "") props.onClose()
          else setText((t) => t.slice(0, -1))
          return true
        default:
          if (isText(press)) setText((t) => t + press.input)
          return true
      }
    },
    {
      priority: KeyLayer.overlay,
      modal: true,
      text: true,
      hints: [
        { keys: "type", label: "screen or zone name" },
        { keys: "↑↓", label: "move" },
        { keys: "enter", label: "go" },
        { keys: "esc", label: "close" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  return (
    <Box flexDirection="column">
      <Text>
        <Text color="yellow">: </Text>
        {text}
        <Text inverse> </Text>
      </Text>
      {zones._tag === "Loading" ? <Text dimColor>… looking for zones</Text> : null}
      {zones._tag === "Failure" ? (
        <Text color="red">
          error: could not look for zones: {zones.error.message}
          {codeSuffix(zones.error)}
        </Text>
      ) : null}
      {choices.length === 0 && zones._tag === "Success" ? (
        <Text dimColor>nothing matches {JSON.stringify(text)}; backspace to edit, esc to close</Text>
      ) : (
        <List
          items={choices}
          index={cursor.index}
          height={listHeight}
          row={label}
          rowKey={(c) => (c.kind === "screen" ? `s:${c.screen.id}` : `z:${c.zone.id}`)}
        />
      )}
    </Box>
  )
}
