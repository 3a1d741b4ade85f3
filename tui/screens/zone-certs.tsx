/**
 * The certificate packs tab: every pack of the zone (a zone has few), with its status and hosts;
 * enter lists a pack's certificates with their issuer, status and expiry (zone-cert-list.tsx).
 */
import { Box } from "ink"
import { useState } from "react"
import type { CertificatePack } from "../../src/domain/certificate.js"
import { allCertificatePacks } from "../../src/services/zones-service.js"
import { fitTable } from "../components/columns.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useEffectQuery } from "../runtime.js"
import { usePaneSize } from "../terminal.js"
import { CertificateList } from "./zone-cert-list.js"

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
  // The pack opened, by id: a refresh behind it shows its certificates as they are now.
  const [open, setOpen] = useState<string | undefined>(undefined)
  const opened = packs.find((p) => p.id === open)
  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (press.name === "enter") {
        const p = packs[cursor.index]
        if (p !== undefined) setOpen(p.id)
        return p !== undefined
      }
      if (press.name !== "r") return false
      refresh()
      return true
    },
    {
      priority: KeyLayer.tab,
      active: active && opened === undefined,
      hints: [...moveHints, { keys: "enter", label: "certificates" }, { keys: "r", label: "refresh" }]
    }
  )
  if (opened !== undefined)
    return <CertificateList pack={opened} active={active} height={height} onBack={() => setOpen(undefined)} />
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
