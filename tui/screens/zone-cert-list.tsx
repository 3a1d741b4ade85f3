/**
 * One certificate pack's certificates (`enter` on the Certificate packs tab): issuer, status and
 * expiry, the soonest to expire first, since that is what a user opens this to check. A certificate
 * that expires within `SoonDays` is marked `⚠`, one already expired `✗` (red); the days count from
 * this machine's clock.
 */
import { Box, Text } from "ink"
import type { Certificate, CertificatePack } from "../../src/domain/certificate.js"
import { fitTable } from "../components/columns.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { usePaneSize } from "../terminal.js"

/** Expiring soon: the platform renews a managed certificate about a month before it ends. */
const SoonDays = 30
const DayMs = 86_400_000

/** `✗ 12d ago` (expired), `⚠ in 9d`, `in 80d`, or "" when the platform gave no date. */
const expiryText = (expiresOn: string | undefined, now: number): string => {
  const at = expiresOn === undefined ? Number.NaN : Date.parse(expiresOn)
  if (Number.isNaN(at)) return ""
  const days = Math.floor((at - now) / DayMs)
  if (at <= now) return `✗ ${Math.max(0, -days - 1)}d ago`
  return days < SoonDays ? `⚠ in ${days}d` : `in ${days}d`
}

const byExpiry = (a: Certificate, b: Certificate) =>
  (a.expires_on === undefined ? Infinity : Date.parse(a.expires_on)) -
  (b.expires_on === undefined ? Infinity : Date.parse(b.expires_on))

/** Title, summary, column titles and status line. */
const Chrome = 4

export function CertificateList(props: {
  readonly pack: CertificatePack
  readonly active: boolean
  readonly height: number
  readonly onBack: () => void
}) {
  const { pack } = props
  const now = Date.now()
  const certs = [...pack.certificates].sort(byExpiry)
  const rows = Math.max(1, props.height - Chrome)
  const cursor = useListCursor(certs.length, rows, [pack.id])
  const table = fitTable(
    usePaneSize().columns,
    certs,
    [
      { title: "EXPIRES", text: (c) => (c.expires_on ?? "").slice(0, 10), width: 10 },
      { title: "WHEN", text: (c) => expiryText(c.expires_on, now), fit: 18 },
      { title: "STATUS", text: (c) => c.status, fit: 12 },
      { title: "SIGNATURE", text: (c) => c.signature ?? "", fit: 16, drop: 1 },
      { title: "ID", text: (c) => c.id, fit: 32, drop: 2 },
      // Last, so a narrow pane drops the id and the signature before it.
      { title: "ISSUER", text: (c) => c.issuer ?? "" }
    ],
    // "GoogleTrustServices" whole before the id and the signature.
    20
  )
  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (press.name !== "escape" && press.name !== "backspace") return false
      props.onBack()
      return true
    },
    { priority: KeyLayer.tab, active: props.active, hints: [...moveHints, { keys: "esc", label: "packs" }] }
  )
  const expired = certs.filter((c) => expiryText(c.expires_on, now).startsWith("✗")).length
  const soon = certs.filter((c) => expiryText(c.expires_on, now).startsWith("⚠")).length
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {pack.type} pack · {pack.hosts.join(", ")}
      </Text>
      <Text dimColor wrap="truncate-end">
        {certs.length} certificate(s), soonest first
        {expired > 0 ? ` · ${expired} expired` : ""}
        {soon > 0 ? ` · ${soon} within ${SoonDays}d` : ""}
      </Text>
      {certs.length === 0 ? (
        <Empty
          what="No certificates in this pack yet."
          next={`its status is ${pack.status || "unknown"}; esc goes back`}
        />
      ) : (
        <>
          <List
            items={certs}
            index={cursor.index}
            height={rows}
            row={table.row}
            rowKey={(c) => c.id}
            header={table.header}
            focused={props.active}
          />
          <ListStatus index={cursor.index} loaded={certs.length} total={certs.length} loading={false} />
        </>
      )}
    </Box>
  )
}
