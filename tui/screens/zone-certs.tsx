/** The certificate packs tab: every pack of the zone (a zone has few), with its status and hosts. */
import { Box } from "ink"
import type { CertificatePack } from "../../src/domain/certificate.js"
import { allCertificatePacks } from "../../src/services/zones-service.js"
import { fitTable } from "../components/columns.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useEffectQuery } from "../runtime.js"
import { usePaneSize } from "../terminal.js"

/** Column titles and status line. */
const Chrome = 2

/**
 * Type, status and authority as wide as the zone's packs need, and the hosts: the validity, then the
 * authority, then the type make room for them in a narrow pane (80 columns), as a pack is told by
 * its hosts; past 40 columns a list of hosts is cut anyway and the pack keeps its other columns.
 */
const packTable = (columns: number, packs: ReadonlyArray<CertificatePack>) =>
  fitTable(
    columns,
    packs,
    [
      { title: "TYPE", text: (p) => p.type, fit: 14, drop: 3 },
      { title: "STATUS", text: (p) => p.status, fit: 20 },
      { title: "AUTHORITY", text: (p) => p.certificate_authority ?? "", fit: 12, drop: 2 },
      { title: "VALID", text: (p) => (p.validity_days !== undefined ? `${p.validity_days}d` : ""), width: 5, drop: 1 },
      { title: "HOSTS", text: (p) => p.hosts.join(", ") }
    ],
    40
  )

export function ZoneCertificates({ zoneId, active, height }: { zoneId: string; active: boolean; height: number }) {
  const rows = Math.max(1, height - Chrome)
  const { query, refresh } = useEffectQuery(() => allCertificatePacks(zoneId), [zoneId])
  const packs = query._tag === "Success" ? query.value : []
  const table = packTable(usePaneSize().columns, packs)
  const cursor = useListCursor(packs.length, rows, [zoneId])
  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (press.name !== "r") return false
      refresh()
      return true
    },
    { priority: KeyLayer.tab, active, hints: [...moveHints, { keys: "r", label: "refresh" }] }
  )
  if (query._tag === "Loading") return <Loading what="certificate packs" />
  if (query._tag === "Failure") return <ErrorView what="could not list certificate packs" error={query.error} />
  if (packs.length === 0)
    return <Empty what="No certificate packs on this zone." next="r refreshes; esc goes back to the zones" />
  return (
    <Box flexDirection="column">
      <List
        items={packs}
        index={cursor.index}
        height={rows}
        row={table.row}
        rowKey={(p) => p.id}
        header={table.header}
        focused={active}
      />
      <ListStatus index={cursor.index} loaded={packs.length} total={packs.length} loading={false} />
    </Box>
  )
}
