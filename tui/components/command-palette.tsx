/**
 * `:` the command palette: type part of a screen's or a zone's name, move with ↑↓, enter jumps
 * there. Screens match locally; zones are asked of the platform (name contains the text) as the
 * user types, so it works the same for 46 zones or 10,000. Enter acts on the matches for the text
 * as typed: typed faster than the platform answers, it waits for that answer.
 */
import * as Effect from "effect/Effect"
import { Box, Text } from "ink"
import { useEffect, useEffectEvent, useRef, useState } from "react"
import type { Zone } from "../../src/domain/zone.js"
import { listZonesPage } from "../../src/services/zones-service.js"
import { KeyLayer, useHoldKeys, useKeys } from "../keys.js"
import { useEffectQuery } from "../runtime.js"
import { Screens, type ScreenInfo } from "../screens/registry.js"
import { usePaneSize } from "../terminal.js"
import { LineText, useLineEditor } from "./line-input.js"
import { List, useListCursor } from "./list.js"
import { codeSuffix } from "./states.js"

export type PaletteChoice =
  { readonly kind: "screen"; readonly screen: ScreenInfo } | { readonly kind: "zone"; readonly zone: Zone }

/** Zones asked for per keystroke: enough to choose from, small enough to stay instant remotely. */
const ZoneMatches = 10

const label = (c: PaletteChoice) =>
  c.kind === "screen"
    ? `screen  ${c.screen.title}`
    : `zone    ${c.zone.name}  ${c.zone.account.name ?? c.zone.account.id}`

const choiceName = (c: PaletteChoice) => (c.kind === "screen" ? c.screen.title : c.zone.name).toLowerCase()

const screensMatching = (needle: string): ReadonlyArray<PaletteChoice> =>
  Screens.filter((s) => s.title.toLowerCase().includes(needle)).map((screen) => ({ kind: "screen", screen }))

/**
 * What enter opens: the row the user moved to, else a choice named exactly as typed, else the first
 * row. "wait" while the zones for the text are not known yet and no screen is named so.
 */
export const chooseOnEnter = (
  needle: string,
  zones: ReadonlyArray<Zone> | undefined,
  cursor: { readonly index: number; readonly moved: boolean }
): PaletteChoice | undefined | "wait" => {
  const screens = screensMatching(needle)
  const choices = [...screens, ...(zones ?? []).map((zone): PaletteChoice => ({ kind: "zone", zone }))]
  if (cursor.moved) return choices[cursor.index]
  const exact = choices.find((c) => choiceName(c) === needle)
  if (exact !== undefined) return exact
  return zones === undefined ? "wait" : choices[0]
}

export function CommandPalette(props: {
  readonly height: number
  /** Zones of this account only (the account chosen in the header), or all when undefined. */
  readonly accountId: string | undefined
  /** Its name, said above the list: the palette finds no zone of another account (issue 29). */
  readonly accountName?: string | undefined
  readonly onPick: (choice: PaletteChoice) => void
  readonly onClose: () => void
}) {
  const editor = useLineEditor()
  const pane = usePaneSize()
  const text = editor.line.text
  const needle = text.trim().toLowerCase()
  // Each answer carries the text it answers, so a list for an older text is never taken for this one.
  const zones = useEffectQuery(
    () =>
      Effect.map(
        needle === ""
          ? listZonesPage({ accountId: props.accountId, perPage: ZoneMatches })
          : listZonesPage({ accountId: props.accountId, name: `contains:${needle}`, perPage: ZoneMatches }),
        (page) => ({ needle, zones: page.items })
      ),
    [needle, props.accountId]
  ).query
  const answered = zones._tag === "Success" && zones.value.needle === needle ? zones.value.zones : undefined
  const failed = zones._tag === "Failure"
  const choices: ReadonlyArray<PaletteChoice> = [
    ...screensMatching(needle),
    ...(answered ?? []).map((zone): PaletteChoice => ({ kind: "zone", zone }))
  ]
  const listHeight = Math.max(1, props.height - 3 - (props.accountId !== undefined ? 1 : 0))
  const cursor = useListCursor(choices.length, listHeight, [needle])
  // Whether ↑↓ chose a row since the text last changed, and an enter waiting for the zones.
  const moved = useRef(false)
  const [waiting, setWaiting] = useState<string | undefined>(undefined)
  const pickRef = useRef(props.onPick)
  pickRef.current = props.onPick
  // Read from the editor, not from this render: keys of one read may come before the next render.
  const enter = () => {
    const typed = editor.line.text.trim().toLowerCase()
    const zonesNow =
      zones._tag === "Success" && zones.value.needle === typed
        ? zones.value.zones
        : zones._tag === "Failure"
          ? []
          : undefined
    const choice = chooseOnEnter(typed, zonesNow, { index: cursor.index, moved: moved.current })
    if (choice === "wait") return setWaiting(typed)
    setWaiting(undefined)
    if (choice !== undefined) pickRef.current(choice)
  }
  // The enter that waited runs when its zones arrive, not again whenever a render makes a new `enter`.
  const enterWaited = useEffectEvent(enter)
  // The keys after such an enter are for the screen it opens: they wait with it (issue 29: a `tab`
  // typed after `:zone⏎` went to the palette and was lost).
  useHoldKeys(waiting !== undefined)
  useEffect(() => {
    if (waiting !== undefined && waiting === needle && (answered !== undefined || failed)) enterWaited()
  }, [waiting, needle, answered, failed])
  useKeys(
    (press) => {
      switch (press.name) {
        case "up":
        case "down":
        case "pageup":
        case "pagedown":
          moved.current = true
          return cursor.move(press)
        case "enter":
          enter()
          return true
        case "escape":
          props.onClose()
          return true
        case "backspace":
          if (editor.line.text === "") {
            props.onClose()
            return true
          }
      }
      const before = editor.line.text
      if (editor.edit(press) && editor.line.text !== before) {
        moved.current = false
        setWaiting(undefined)
      }
      return true
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
      <Text wrap="truncate-end">
        <Text color="yellow">: </Text>
        <LineText line={editor.line} width={pane.columns - 2} />
      </Text>
      {props.accountId !== undefined ? (
        <Text dimColor wrap="truncate-end">
          zones of {props.accountName ?? props.accountId} only (a on the Zones screen: all accounts)
        </Text>
      ) : null}
      {answered === undefined && !failed ? (
        <Text dimColor>
          {waiting !== undefined ? "… looking for zones, then opening the match" : "… looking for zones"}
        </Text>
      ) : null}
      {zones._tag === "Failure" ? (
        <Text color="red">
          error: could not look for zones: {zones.error.message}
          {codeSuffix(zones.error)}
        </Text>
      ) : null}
      {choices.length === 0 && answered !== undefined ? (
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
