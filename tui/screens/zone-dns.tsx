/**
 * The DNS records tab: paged 100 at a time as the cursor moves (G loads to the end), `/` filters by
 * name on the server, enter shows one record whole.
 */
import { Box } from "ink"
import type { DnsRecord } from "../../src/domain/dns.js"
import { listDnsPage } from "../../src/services/zones-service.js"
import { cells, flexWidth } from "../components/columns.js"
import { FilterBar, useFilterInput } from "../components/filter-bar.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { usePagedList } from "../paged-list.js"
import { useZoneScoped } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { DnsRecordView } from "./dns-record.js"

export const DnsPerPage = 100
/** Filter line, column titles, status line. */
const Chrome = 3

/**
 * Name and content share what the fixed columns leave, the content the larger part (an IPv6
 * address, a mail host); in a narrow pane (80 columns) the TTL makes room for them (the record's
 * view on enter shows it).
 */
const dnsTable = (columns: number) => {
  const withTtl = flexWidth(columns, [6, 5, 8]) - 2 >= 48
  const flex = flexWidth(columns, withTtl ? [6, 5, 8] : [6, 8]) - 2
  const name = Math.ceil(flex * 0.45)
  const content = flex - name
  const ttl = (text: string): ReadonlyArray<readonly [string, number]> => (withTtl ? [[text, 5]] : [])
  return {
    header: cells([["TYPE", 6], ["NAME", name], ["CONTENT", content], ...ttl("TTL"), ["PROXY", 8]]),
    row: (r: DnsRecord) =>
      cells([
        [r.type, 6],
        [r.name, name],
        [r.content ?? "", content],
        ...ttl(r.ttl === 1 ? "auto" : String(r.ttl ?? "")),
        [r.proxied ? "proxied" : "dns only", 8]
      ])
  }
}

export function ZoneDns({ zoneId, active, height }: { zoneId: string; active: boolean; height: number }) {
  const rows = Math.max(1, height - Chrome)
  const pane = usePaneSize()
  const table = dnsTable(pane.columns)
  // The record shown whole (by id, so that a refresh behind it cannot swap it for another).
  const [open, setOpen] = useZoneScoped<DnsRecord>(zoneId)
  const filter = useFilterInput({ active: active && open === undefined, onMove: (press) => cursor.move(press) })
  const name = filter.text === "" ? undefined : filter.text
  const list = usePagedList((page) => listDnsPage(zoneId, { name, page, perPage: DnsPerPage }), [zoneId, name])
  const cursor = useListCursor(list.items.length, rows, [zoneId, name], {
    items: list.items,
    key: (r) => r.id,
    hasMore: list.hasMore,
    loadTo: list.loadTo
  })

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      switch (press.name) {
        case "enter": {
          const r = list.items[cursor.index]
          if (r !== undefined) setOpen(r)
          return r !== undefined
        }
        case "/":
          filter.start()
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
      priority: KeyLayer.tab,
      active: active && !filter.editing && open === undefined,
      hints: [
        ...moveHints,
        { keys: "enter", label: "record" },
        { keys: "/", label: "filter" },
        { keys: "r", label: "refresh" },
        ...(filter.text !== "" ? [{ keys: "esc", label: "clear filter" }] : [])
      ]
    }
  )

  const body = () => {
    if (list.items.length === 0) {
      if (list.error) return <ErrorView what="could not list DNS records" error={list.error} />
      if (list.loading) return <Loading what="DNS records" />
      return filter.text !== "" ? (
        <Empty what={`No DNS records match "${filter.text}".`} next="esc clears the filter" />
      ) : (
        <Empty what="No DNS records in this zone." next="r refreshes; esc goes back to the zones" />
      )
    }
    return (
      <>
        <List
          items={list.items}
          index={cursor.index}
          height={rows}
          row={table.row}
          rowKey={(r) => r.id}
          header={table.header}
          focused={active}
        />
        {list.error ? <ErrorView what="could not load more DNS records" error={list.error} /> : null}
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

  if (open !== undefined) {
    return (
      <DnsRecordView
        record={open}
        active={active}
        width={pane.columns}
        height={height}
        onBack={() => setOpen(undefined)}
      />
    )
  }
  return (
    <Box flexDirection="column">
      <FilterBar filter={filter} />
      {body()}
    </Box>
  )
}
