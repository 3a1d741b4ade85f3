/**
 * The DNS records tab: paged 100 at a time as the cursor moves (G loads to the end), `/` filters on
 * the server (by name; `type:MX` and `content:…` words by type and content), enter shows one record
 * whole, `n`/`e`/`d` create, edit and delete (dns-writes.tsx).
 */
import { Box } from "ink"
import { useState } from "react"
import type { DnsRecord } from "../../src/domain/dns.js"
import { listDnsPage, type DnsFilter } from "../../src/services/zones-service.js"
import { cells, flexWidth } from "../components/columns.js"
import { FilterBar, useFilterInput } from "../components/filter-bar.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { usePagedList } from "../paged-list.js"
import { useZoneScoped } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { DnsRecordView } from "./dns-record.js"
import { DnsWriteFlow, type DnsWrite } from "./dns-writes.js"

const DnsPerPage = 100
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

/**
 * The filter's words: `type:MX` and `content:TEXT` (each once, the last wins) narrow by type and by
 * content; the other words, joined by a space, are part of the name.
 */
const dnsFilterOf = (text: string): DnsFilter => {
  let type: string | undefined
  let content: string | undefined
  const name: Array<string> = []
  for (const word of text.trim().split(/\s+/)) {
    const m = /^(type|content):(.*)$/i.exec(word)
    if (m === null) {
      if (word !== "") name.push(word)
    } else if (m[1]!.toLowerCase() === "type") type = m[2]!.toUpperCase() || undefined
    else content = m[2] || undefined
  }
  return {
    type: type as DnsFilter["type"],
    content,
    name: name.length > 0 ? name.join(" ") : undefined
  }
}

export function ZoneDns({
  zoneId,
  zoneName,
  active,
  height
}: {
  zoneId: string
  zoneName: string
  active: boolean
  height: number
}) {
  const rows = Math.max(1, height - Chrome)
  const pane = usePaneSize()
  const table = dnsTable(pane.columns)
  // The record shown whole (by id, so that a refresh behind it cannot swap it for another).
  const [open, setOpen] = useZoneScoped<DnsRecord>(zoneId)
  const [write, setWrite] = useState<DnsWrite | undefined>(undefined)
  const filter = useFilterInput({
    active: active && open === undefined && write === undefined,
    onMove: (press) => cursor.move(press),
    what: "name, type:X, content:Y"
  })
  const query = dnsFilterOf(filter.text)
  const { type, content, name } = query
  const list = usePagedList(
    (page) => listDnsPage(zoneId, { type, content, name, page, perPage: DnsPerPage }),
    [zoneId, type, content, name]
  )
  const cursor = useListCursor(list.items.length, rows, [zoneId, type, content, name], {
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
        case "n":
          setWrite({ _tag: "create" })
          return true
        case "e":
        case "d": {
          const r = list.items[cursor.index]
          if (r !== undefined) setWrite({ _tag: press.name === "e" ? "edit" : "delete", record: r })
          return r !== undefined
        }
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
      active: active && !filter.editing && open === undefined && write === undefined,
      hints: [
        ...moveHints,
        { keys: "enter", label: "record" },
        { keys: "n", label: "new" },
        ...(list.items.length > 0
          ? [
              { keys: "e", label: "edit" },
              { keys: "d", label: "delete" }
            ]
          : []),
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

  if (write !== undefined) {
    return (
      <DnsWriteFlow
        zoneId={zoneId}
        zoneName={zoneName}
        write={write}
        onClose={(written) => {
          setWrite(undefined)
          if (written !== undefined) list.refresh()
        }}
      />
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
      <FilterBar filter={filter} what="name, type:X, content:Y" />
      {body()}
    </Box>
  )
}
