/**
 * Zones: the zones of one account (or all), paged 50 at a time as the cursor moves, filtered by
 * name on the server as the user types, and the open zone's detail on enter.
 */
import { Box, Text } from "ink"
import { useEffect, useRef, useState } from "react"
import type { Zone } from "../../src/domain/zone.js"
import { listZonesPage } from "../../src/services/zones-service.js"
import { AccountPicker } from "../components/account-picker.js"
import { cells, flexWidth } from "../components/columns.js"
import { FilterBar, useFilterInput } from "../components/filter-bar.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useHoldKeys, useKeys } from "../keys.js"
import { usePagedList } from "../paged-list.js"
import { useUiActions, useUiState } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { ZoneDetail } from "./zone-detail.js"
import { writeCodeCacheNow } from "../../src/launcher-hooks.js"

const ZonesPerPage = 50
/** Rows above and below the list: account line, filter line, column titles, status line. */
const Chrome = 4

/**
 * In a narrow pane (80 columns) the zone's name keeps the room: a plan shows its tier ("Business",
 * not "Business Plan" cut to "Business …"), the account column narrows, and goes where one account
 * is chosen (the line above names it), as k9s leaves out NAMESPACE in one namespace.
 */
const zoneTable = (columns: number, allAccounts: boolean) => {
  const wide = flexWidth(columns, [12, 12, 18], 2, 0) >= 20
  const planWidth = wide ? 18 : 10
  const plan = (z: Zone) => (wide ? (z.plan?.name ?? "") : (z.plan?.name ?? "").replace(/ (Website|Plan)$/, ""))
  const accountWidth = wide ? 12 : allAccounts ? 10 : 0
  const accountColumn = accountWidth > 0 ? [accountWidth] : []
  const name = Math.min(40, flexWidth(columns, [12, ...accountColumn, planWidth], 2, 14))
  const account = (text: string): ReadonlyArray<readonly [string, number]> =>
    accountWidth > 0 ? [[text, accountWidth]] : []
  return {
    header: cells([["NAME", name], ["STATUS", 12], ...account("ACCOUNT"), ["PLAN", planWidth]]),
    row: (z: Zone) =>
      cells([
        [z.name, name],
        [z.paused ? "paused" : (z.status ?? ""), 12],
        ...account(z.account.name ?? z.account.id),
        [plan(z), planWidth]
      ])
  }
}

/**
 * The launcher's code cache (bin/edgectl.cjs) is written at exit, which a TUI closed with its
 * terminal never reaches: once the first page is drawn, the launcher is asked to write it now.
 */
const writeCodeCacheSoon = () => {
  // After the frame (Ink draws on a timer) and out of the way of keys handled meanwhile.
  setTimeout(writeCodeCacheNow, 200)
}

export function ZonesScreen({ active }: { active: boolean }) {
  const { account, zone } = useUiState()
  const { chooseAccount, openZone, closeZone } = useUiActions()
  const pane = usePaneSize()
  const height = Math.max(1, pane.rows - Chrome)
  const table = zoneTable(pane.columns, account === undefined)
  const [picking, setPicking] = useState(false)
  const listing = active && zone === undefined && !picking
  const filter = useFilterInput({ active: listing, onMove: (press) => cursor.move(press) })
  const list = usePagedList(
    (page) =>
      listZonesPage({
        accountId: account?.id,
        name: filter.text === "" ? undefined : `contains:${filter.text}`,
        page,
        perPage: ZonesPerPage
      }),
    [account?.id, filter.text]
  )
  const cursor = useListCursor(list.items.length, height, [account?.id, filter.text])
  // Keys typed as the app starts (j j enter) wait for the first page, which they move over. A ref,
  // not state: a state set when the page came would draw the whole list once more.
  const hadPage = useRef(false)
  useEffect(() => {
    if (list.loading || hadPage.current) return
    hadPage.current = true
    writeCodeCacheSoon()
  })
  useHoldKeys(active && list.loading && !hadPage.current)

  // Fetch the next page while the cursor is still a screenful away from the end.
  const nearEnd = cursor.index >= list.items.length - Math.max(10, height)
  useEffect(() => {
    if (nearEnd && list.hasMore && !list.loading && list.error === undefined) list.loadMore()
  }, [nearEnd, list])

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      switch (press.name) {
        case "enter": {
          const z = list.items[cursor.index]
          if (z) openZone(z)
          return z !== undefined
        }
        case "/":
          filter.start()
          return true
        case "a":
          setPicking(true)
          return true
        case "r":
          list.refresh()
          return true
        case "escape":
        case "backspace":
          if (filter.text === "") return false
          filter.clear()
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.screen,
      active: listing && !filter.editing,
      hints: [
        ...moveHints,
        { keys: "enter", label: "open" },
        { keys: "/", label: "filter" },
        { keys: "a", label: "account" },
        { keys: "r", label: "refresh" },
        ...(filter.text !== "" ? [{ keys: "esc", label: "clear filter" }] : [])
      ]
    }
  )

  const body = () => {
    if (list.items.length === 0) {
      if (list.error) return <ErrorView what="could not list zones" error={list.error} />
      if (list.loading) return <Loading what="zones" />
      return filter.text !== "" ? (
        <Empty what={`No zones match "${filter.text}".`} next="esc clears the filter; a picks another account" />
      ) : (
        <Empty what="No zones in this account." next="a picks another account; r refreshes" />
      )
    }
    return (
      <>
        <List
          items={list.items}
          index={cursor.index}
          height={height}
          row={table.row}
          rowKey={(z) => z.id}
          header={table.header}
        />
        {list.error ? <ErrorView what="could not load more zones" error={list.error} /> : null}
        <ListStatus
          index={cursor.index}
          loaded={list.items.length}
          total={list.total}
          loading={list.loading}
          refreshing={list.refreshing}
        />
      </>
    )
  }

  return (
    <Box flexDirection="column">
      {zone !== undefined ? <ZoneDetail zone={zone} active={active} onBack={closeZone} /> : null}
      {picking ? (
        <AccountPicker
          height={Math.max(1, pane.rows - 3)}
          onPick={(a) => {
            setPicking(false)
            chooseAccount(a)
          }}
          onCancel={() => setPicking(false)}
        />
      ) : null}
      <Box flexDirection="column" display={zone === undefined && !picking ? "flex" : "none"}>
        <Text>
          <Text dimColor>account </Text>
          {account?.name ?? "All accounts"}
          <Text dimColor> (a to change)</Text>
        </Text>
        <FilterBar filter={filter} />
        {body()}
      </Box>
    </Box>
  )
}
