/** The DNS records tab: paged 100 at a time as the cursor moves, `/` filters by name on the server. */
import { Box } from "ink"
import { useEffect } from "react"
import type { DnsRecord } from "../../src/domain/dns.js"
import { listDnsPage } from "../../src/services/zones.js"
import { cells, flexWidth } from "../components/columns.js"
import { FilterBar, useFilterInput } from "../components/filter-bar.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { usePagedList } from "../paged-list.js"
import { usePaneSize } from "../terminal.js"

export const DnsPerPage = 100
/** Filter line, column titles, status line. */
const Chrome = 3

/** Name and content share what the fixed columns leave. */
const dnsTable = (columns: number) => {
  const flex = flexWidth(columns, [6, 5, 8]) - 2
  const name = Math.ceil(flex * 0.55)
  const content = flex - name
  return {
    header: cells([
      ["TYPE", 6],
      ["NAME", name],
      ["CONTENT", content],
      ["TTL", 5],
      ["PROXY", 8]
    ]),
    row: (r: DnsRecord) =>
      cells([
        [r.type, 6],
        [r.name, name],
        [r.content ?? "", content],
        [r.ttl === 1 ? "auto" : String(r.ttl ?? ""), 5],
        [r.proxied ? "proxied" : "dns only", 8]
      ])
  }
}

export function ZoneDns({ zoneId, active, height }: { zoneId: string; active: boolean; height: number }) {
  const rows = Math.max(1, height - Chrome)
  const table = dnsTable(usePaneSize().columns)
  const filter = useFilterInput({ active, onMove: (press) => cursor.move(press) })
  const name = filter.text === "" ? undefined : filter.text
  const list = usePagedList((page) => listDnsPage(zoneId, { name, page, perPage: DnsPerPage }), [zoneId, name])
  const cursor = useListCursor(list.items.length, rows, [zoneId, name])

  const nearEnd = cursor.index >= list.items.length - Math.max(20, rows)
  useEffect(() => {
    if (nearEnd && list.hasMore && !list.loading && list.error === undefined) list.loadMore()
  }, [nearEnd, list])

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      switch (press.name) {
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
      active: active && !filter.editing,
      hints: [
        ...moveHints,
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
        <List items={list.items} index={cursor.index} height={rows} row={table.row} rowKey={(r) => r.id} header={table.header} focused={active} />
        {list.error ? <ErrorView what="could not load more DNS records" error={list.error} /> : null}
        <ListStatus index={cursor.index} loaded={list.items.length} total={list.total} loading={list.loading} refreshing={list.refreshing} />
      </>
    )
  }

  return (
    <Box flexDirection="column">
      <FilterBar filter={filter} />
      {body()}
    </Box>
  )
}
