/**
 * The Firewall screen of the sidebar: the zone's Firewall tab (./firewall-tab.tsx: its firewall
 * rules, and `m`, `c`, `l`, `R` its migrations and custom rules) for the zone open on the Zones screen; with no zone open, a list of the account's zones to
 * pick one from (enter). `esc` (like every screen's "back") and `z` come back to that list; from
 * a list opened with `z`, esc returns to the rules.
 */
import { Box, Text } from "ink"
import { useState } from "react"
import type { Zone } from "../../src/domain/zone.js"
import { listZonesPage } from "../../src/services/zones-service.js"
import { FilterBar, useFilterInput } from "../components/filter-bar.js"
import { List, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useEffectQuery } from "../runtime.js"
import { useUiActions, useUiState } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { FirewallTab } from "./firewall-tab.js"

/** The title line. */
const Chrome = 1

function ZonePicker({ active, height, onPick }: { active: boolean; height: number; onPick: (z: Zone) => void }) {
  const { account } = useUiState()
  // `/` narrows the zones on the platform (a name that contains the text), past the first 50.
  const filter = useFilterInput({ active, onMove: (press) => cursor.move(press) })
  const name = filter.text.trim() === "" ? undefined : `contains:${filter.text.trim()}`
  const { query } = useEffectQuery(
    () => listZonesPage({ accountId: account?.id, name, perPage: 50 }),
    [account?.id, name]
  )
  const zones = query._tag === "Success" ? query.value.items : []
  const rows = Math.max(1, height - 3)
  const cursor = useListCursor(zones.length, rows, [account?.id, name])
  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (press.name === "enter" && zones[cursor.index] !== undefined) {
        onPick(zones[cursor.index]!)
        return true
      }
      if (press.name === "/") {
        filter.start()
        return true
      }
      return false
    },
    {
      priority: KeyLayer.screen,
      active: active && !filter.editing,
      hints: [
        { keys: "↑↓", label: "zones" },
        { keys: "enter", label: "show its firewall rules" },
        { keys: "/", label: "filter" }
      ]
    }
  )
  return (
    <Box flexDirection="column">
      <Text dimColor>
        Pick a zone (the first 50{account ? ` of ${account.name}` : ""}; : jumps to any zone by name):
      </Text>
      <FilterBar filter={filter} />
      {query._tag === "Loading" ? <Loading what="zones" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not list the zones" error={query.error} /> : null}
      {query._tag === "Success" && zones.length === 0 ? (
        <Empty
          what={name === undefined ? "No zones." : `No zones match "${filter.text.trim()}".`}
          next={name === undefined ? "choose another account on the Zones screen (1)" : "/ changes the filter"}
        />
      ) : null}
      {zones.length > 0 ? (
        <List
          items={zones}
          index={cursor.index}
          height={rows}
          row={(z) => `${z.name}  ${z.plan?.name ?? ""}`}
          rowKey={(z) => z.id}
          focused={active}
        />
      ) : null}
    </Box>
  )
}

export function FirewallScreen({ active }: { active: boolean }) {
  const { zone } = useUiState()
  const { openZone } = useUiActions()
  // "z": the list was opened to pick another zone, so esc cancels it; "back": esc left the rules.
  const [picking, setPicking] = useState<"z" | "back" | undefined>(undefined)
  const pane = usePaneSize()
  const height = Math.max(1, pane.rows - Chrome)
  useKeys(
    (press) => {
      if (zone === undefined) return false
      const back = press.name === "escape" || press.name === "backspace"
      if (picking === undefined && (press.name === "z" || back)) {
        setPicking(back ? "back" : "z")
        return true
      }
      if (picking === "z" && back) {
        setPicking(undefined)
        return true
      }
      return false
    },
    {
      priority: KeyLayer.app + 1,
      active,
      hints:
        zone === undefined
          ? []
          : picking === undefined
            ? [
                { keys: "esc", label: "zones" },
                { keys: "z", label: "other zone" }
              ]
            : picking === "z"
              ? [{ keys: "esc", label: "back to the rules" }]
              : []
    }
  )
  const showPicker = zone === undefined || picking !== undefined
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
            setPicking(undefined)
            openZone(z)
          }}
        />
      ) : (
        <FirewallTab zone={zone} active={active} height={height} priority={KeyLayer.screen} />
      )}
    </Box>
  )
}
