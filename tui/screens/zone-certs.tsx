/** The certificate packs tab: every pack of the zone (a zone has few), with its status and hosts. */
import { Box } from "ink"
import type { CertificatePack } from "../../src/domain/certificate.js"
import { collect } from "../../src/api/client.js"
import { allCertificatePacks } from "../../src/services/zones.js"
import { cells, flexWidth } from "../components/columns.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useEffectQuery } from "../runtime.js"
import { usePaneSize } from "../terminal.js"

/** Column titles and status line. */
const Chrome = 2

const packTable = (columns: number) => {
  const hosts = flexWidth(columns, [14, 12, 12, 5])
  return {
    header: cells([
      ["TYPE", 14],
      ["STATUS", 12],
      ["AUTHORITY", 12],
      ["VALID", 5],
      ["HOSTS", hosts]
    ]),
    row: (p: CertificatePack) =>
      cells([
        [p.type, 14],
        [p.status, 12],
        [p.certificate_authority ?? "", 12],
        [p.validity_days !== undefined ? `${p.validity_days}d` : "", 5],
        [p.hosts.join(", "), hosts]
      ])
  }
}

export function ZoneCertificates({ zoneId, active, height }: { zoneId: string; active: boolean; height: number }) {
  const rows = Math.max(1, height - Chrome)
  const table = packTable(usePaneSize().columns)
  const { query, refresh } = useEffectQuery(() => collect(allCertificatePacks(zoneId)), [zoneId])
  const packs = query._tag === "Success" ? query.value : []
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
