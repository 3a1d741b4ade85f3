/**
 * The Firewall screen of the sidebar: the firewall rules of the zone open on the Zones screen, with
 * everything the zone's Firewall tab offers; with no zone open, a list of the account's zones to
 * pick one from (enter), and `z` comes back to that list.
 */
import { Box, Text } from "ink"
import { useState } from "react"
import type { Zone } from "../../src/domain/zone.js"
import { listZonesPage } from "../../src/services/zones.js"
import { List, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useEffectQuery } from "../runtime.js"
import { useUiActions, useUiState } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { FirewallPanel } from "./firewall-panel.js"

/** The title line. */
const Chrome = 1

function ZonePicker({ active, height, onPick }: { active: boolean; height: number; onPick: (z: Zone) => void }) {
  const { account } = useUiState()
  const { query } = useEffectQuery(() => listZonesPage({ accountId: account?.id, perPage: 50 }), [account?.id])
  const zones = query._tag === "Success" ? query.value.items : []
  const rows = Math.max(1, height - 2)
  const cursor = useListCursor(zones.length, rows, [account?.id])
  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (press.name === "enter" && zones[cursor.index] !== undefined) {
        onPick(zones[cursor.index]!)
        return true
      }
      return false
    },
    { priority: KeyLayer.screen, active, hints: [{ keys: "↑↓", label: "zones" }, { keys: "enter", label: "show its firewall rules" }] }
  )
  return (
    <Box flexDirection="column">
      <Text dimColor>Pick a zone (the first 50{account ? ` of ${account.name}` : ""}; : jumps to any zone by name):</Text>
      {query._tag === "Loading" ? <Loading what="zones" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not list the zones" error={query.error} /> : null}
      {query._tag === "Success" && zones.length === 0 ? <Empty what="No zones." next="choose another account on the Zones screen (1)" /> : null}
      {zones.length > 0 ? <List items={zones} index={cursor.index} height={rows} row={(z) => `${z.name}  ${z.plan?.name ?? ""}`} rowKey={(z) => z.id} focused={active} /> : null}
    </Box>
  )
}

export function FirewallScreen({ active }: { active: boolean }) {
  const { zone } = useUiState()
  const { openZone } = useUiActions()
  const [picking, setPicking] = useState(false)
  const pane = usePaneSize()
  const height = Math.max(1, pane.rows - Chrome)
  useKeys(
    (press) => {
      if (press.name !== "z" || zone === undefined || picking) return false
      setPicking(true)
      return true
    },
    { priority: KeyLayer.app + 1, active, hints: zone !== undefined && !picking ? [{ keys: "z", label: "other zone" }] : [] }
  )
  const showPicker = zone === undefined || picking
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>Firewall rules</Text>
        <Text dimColor> · zone {zone?.name ?? "none open"}</Text>
      </Text>
      {showPicker ? (
        <ZonePicker
          active={active}
          height={height}
          onPick={(z) => {
            setPicking(false)
            openZone(z)
          }}
        />
      ) : (
        <FirewallPanel zone={zone} active={active} height={height} priority={KeyLayer.screen} />
      )}
    </Box>
  )
}
