/** One zone: a title line and tabs (tab switches) for its DNS records and certificate packs. */
import { Box, Text } from "ink"
import { useState } from "react"
import type { Zone } from "../../src/domain/zone.js"
import { Tabs } from "../components/tabs.js"
import { KeyLayer, useKeys } from "../keys.js"
import { usePaneSize } from "../terminal.js"
import { ZoneCertificates } from "./zone-certs.js"
import { ZoneDns } from "./zone-dns.js"

const TabTitles = ["DNS records", "Certificate packs"] as const
/** Title and tabs lines. */
const Chrome = 2

export function ZoneDetail({ zone, active, onBack }: { zone: Zone; active: boolean; onBack: () => void }) {
  const [tab, setTab] = useState(0)
  const pane = usePaneSize()
  const height = Math.max(1, pane.rows - Chrome)
  useKeys(
    (press) => {
      switch (press.name) {
        case "tab":
          setTab((t) => (t + 1) % TabTitles.length)
          return true
        case "shift+tab":
          setTab((t) => (t + TabTitles.length - 1) % TabTitles.length)
          return true
        case "escape":
        case "backspace":
          onBack()
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.view,
      active,
      hints: [
        { keys: "tab", label: "tabs" },
        { keys: "esc", label: "back" }
      ]
    }
  )
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{zone.name}</Text>
        <Text dimColor>
          {"  "}
          {[zone.paused ? "paused" : zone.status, zone.account.name, zone.plan?.name, zone.id].filter(Boolean).join(" · ")}
        </Text>
      </Text>
      <Tabs titles={TabTitles} active={tab} />
      <Box flexDirection="column" display={tab === 0 ? "flex" : "none"}>
        <ZoneDns zoneId={zone.id} active={active && tab === 0} height={height} />
      </Box>
      <Box flexDirection="column" display={tab === 1 ? "flex" : "none"}>
        <ZoneCertificates zoneId={zone.id} active={active && tab === 1} height={height} />
      </Box>
    </Box>
  )
}
