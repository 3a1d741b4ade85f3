/**
 * The WAF screen of the sidebar: every visible zone with its migration state and which WAF
 * versions run (OLD and NEW: on or off; the zone open on the Zones screen first); enter opens the
 * zone's migration wizard (keyed by the zone: its own state), esc comes back to the list.
 */
import * as Effect from "effect/Effect"
import { Box, Text } from "ink"
import { useEffect, useState } from "react"
import type { MigrationStatus } from "../../src/domain/waf.js"
import type { Zone } from "../../src/domain/zone.js"
import * as Waf from "../../src/services/waf-migration-service.js"
import { allZones } from "../../src/services/zones-service.js"
import { cells, flexWidth } from "../components/columns.js"
import { FilterBar, filterListHints, filterListKey, filterMatches, useFilterInput } from "../components/filter-bar.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useEffectQuery } from "../runtime.js"
import { useUiActions, useUiState } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { WafWizard } from "./waf-wizard.js"

/** Title, filter, column titles and status lines. */
const Chrome = 4

interface Row {
  readonly zone: Zone
  readonly status: MigrationStatus | undefined
  readonly error: string | undefined
}

const load = (accountId: string | undefined) =>
  Effect.flatMap(allZones(accountId ? { accountId } : {}), (zones) =>
    Effect.forEach(
      zones,
      (zone) =>
        Effect.match(Waf.status(Waf.wafZoneOf(zone)), {
          onSuccess: (status): Row => ({ zone, status, error: undefined }),
          onFailure: (e): Row => ({ zone, status: undefined, error: e.message })
        }),
      { concurrency: 4 }
    )
  )

export function WafScreen({ active }: { active: boolean }) {
  const { account, zone: open } = useUiState()
  const pane = usePaneSize()
  const rowsShown = Math.max(1, pane.rows - Chrome)
  const { query, refresh } = useEffectQuery(() => load(account?.id), [account?.id])
  const loaded = query._tag === "Success" ? query.value : []
  const ordered = open
    ? [...loaded.filter((r) => r.zone.id === open.id), ...loaded.filter((r) => r.zone.id !== open.id)]
    : loaded
  const [chosen, choose] = useState<Zone | undefined>(undefined)
  // `/` narrows the zones by name, plan or migration state (the list is read whole, so in place).
  const filter = useFilterInput({
    active: active && chosen === undefined,
    onMove: (press) => cursor.move(press),
    what: "zone, plan, state"
  })
  const rows = ordered.filter((r) =>
    filterMatches(filter, r.zone.name, r.status?.plan ?? r.zone.plan?.name, r.status?.migration_state)
  )
  const cursor = useListCursor(rows.length, rowsShown, [account?.id, filter.text])
  // The header names the wizard's zone while it shows (UiState.wafZone).
  const { showWafZone } = useUiActions()
  useEffect(() => () => showWafZone(undefined), [showWafZone])
  const setChosen = (zone: Zone | undefined) => {
    choose(zone)
    showWafZone(zone)
  }
  useKeys(
    (press) => {
      if (chosen) {
        if (press.name !== "escape" && press.name !== "backspace") return false
        setChosen(undefined)
        refresh()
        return true
      }
      if (cursor.move(press)) return true
      if (press.name === "enter" && rows[cursor.index]) return (setChosen(rows[cursor.index]!.zone), true)
      if (press.name === "r") return (refresh(), true)
      return filterListKey(filter, press)
    },
    {
      priority: KeyLayer.screen,
      active: active && !filter.editing,
      hints: chosen
        ? [{ keys: "esc", label: "back to the zones" }]
        : [
            ...moveHints,
            { keys: "enter", label: "migration wizard" },
            ...filterListHints(filter),
            { keys: "r", label: "refresh" }
          ]
    }
  )
  if (chosen) {
    return (
      <Box flexDirection="column">
        <Text bold wrap="truncate-end">
          WAF migration · {chosen.name} <Text dimColor>· {chosen.plan?.name ?? ""} · esc back</Text>
        </Text>
        <WafWizard zone={chosen} active={active} height={Math.max(1, pane.rows - 1)} />
      </Box>
    )
  }
  if (query._tag === "Loading") return <Loading what="the zones' WAF migration states" />
  if (query._tag === "Failure") return <ErrorView what="could not list the zones" error={query.error} />
  if (loaded.length === 0) return <Empty what="No zones are visible to these credentials." next="r refreshes" />
  // Fits 80 columns: the versions as on/off (which WAF runs), the zone name taking what is left.
  const zoneWidth = Math.min(40, flexWidth(pane.columns, [10, 10, 3, 3], 2, 16))
  const onOff = (s: string) => (s === "enabled" ? "on" : "off")
  const counts = { start: 0, validation: 0, finished: 0 }
  for (const r of ordered) if (r.status) counts[r.status.migration_state]++
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>WAF migration</Text>
        <Text
          dimColor
        >{` · ${counts.start} to migrate · ${counts.validation} in validation · ${counts.finished} finished`}</Text>
      </Text>
      <FilterBar filter={filter} what="zone, plan, state" />
      {rows.length === 0 ? (
        <Empty what={`No zones match "${filter.text.trim()}".`} next="esc clears the filter" />
      ) : null}
      <List
        items={rows}
        index={cursor.index}
        height={rowsShown}
        focused={active}
        rowKey={(r) => r.zone.id}
        header={cells([
          ["ZONE", zoneWidth],
          ["PLAN", 10],
          ["STATE", 10],
          ["OLD", 3],
          ["NEW", 3]
        ])}
        row={(r) =>
          r.status === undefined
            ? cells([
                [r.zone.name, zoneWidth],
                [`error: ${r.error ?? "unknown"}`, 40]
              ])
            : cells([
                [r.zone.name, zoneWidth],
                [r.status.plan, 10],
                [r.status.migration_state, 10],
                [onOff(r.status.old_waf_status), 3],
                [onOff(r.status.new_waf_status), 3]
              ])
        }
      />
      <ListStatus index={cursor.index} loaded={rows.length} total={rows.length} loading={false} />
    </Box>
  )
}
