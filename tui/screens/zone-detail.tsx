/**
 * One zone: a title line and tabs (tab switches) for its DNS records, certificate packs, ESC
 * settings and WAF migration. A tab is mounted the first time it is shown and then kept, so it keeps its place; an
 * area adds its tab with one entry in `zoneTabs`. The whole detail is keyed by the zone's id: opening
 * another zone (zone list, `:` palette, firewall screen) mounts fresh tabs, so no tab's state
 * (cursor, edits, test or replay results) can carry over to another zone.
 */
import { Box, Text } from "ink"
import { useState, type ReactNode } from "react"
import type { Zone } from "../../src/domain/zone.js"
import { accountOf, targetOfZone } from "../../src/services/esc-service.js"
import { Tabs } from "../components/tabs.js"
import { KeyLayer, useKeys } from "../keys.js"
import { usePaneSize } from "../terminal.js"
import { EscPanel } from "./esc-panel.js"
import { FirewallTab } from "./firewall-tab.js"
import { ZoneCertificates } from "./zone-certs.js"
import { WafWizard } from "./waf-wizard.js"
import { ZoneDns } from "./zone-dns.js"

interface ZoneTab {
  readonly title: string
  readonly render: (p: { readonly zone: Zone; readonly active: boolean; readonly height: number }) => ReactNode
}

const zoneTabs: ReadonlyArray<ZoneTab> = [
  {
    title: "DNS records",
    render: ({ zone, active, height }) => (
      <ZoneDns zoneId={zone.id} zoneName={zone.name} active={active} height={height} />
    )
  },
  {
    title: "Certificate packs",
    render: ({ zone, active, height }) => <ZoneCertificates zoneId={zone.id} active={active} height={height} />
  },
  {
    title: "ESC",
    render: ({ zone, active, height }) => {
      const target = targetOfZone(zone)
      return <EscPanel scopes={[target, accountOf(target)]} active={active} height={height} />
    }
  },
  {
    title: "Firewall",
    render: ({ zone, active, height }) => <FirewallTab zone={zone} active={active} height={height} />
  },
  { title: "WAF", render: ({ zone, active, height }) => <WafWizard zone={zone} active={active} height={height} /> }
]

/** Title and tabs lines. */
const Chrome = 2

export function ZoneDetail(props: { zone: Zone; active: boolean; onBack: () => void }) {
  return <OneZone key={props.zone.id} {...props} />
}

function OneZone({ zone, active, onBack }: { zone: Zone; active: boolean; onBack: () => void }) {
  const [tab, setTab] = useState(0)
  const [shown, setShown] = useState<ReadonlySet<number>>(new Set([0]))
  const pane = usePaneSize()
  const height = Math.max(1, pane.rows - Chrome)
  // The id goes first when the line is too narrow: a half id is no use, the rest reads whole.
  const parts = [zone.paused ? "paused" : zone.status, zone.account.name, zone.plan?.name].filter(Boolean)
  const full = [...parts, zone.id].join(" · ")
  const meta = zone.name.length + 2 + full.length <= pane.columns ? full : parts.join(" · ")
  const go = (next: number) => {
    setTab(next)
    setShown((s) => new Set([...s, next]))
  }
  useKeys(
    (press) => {
      switch (press.name) {
        case "tab":
          go((tab + 1) % zoneTabs.length)
          return true
        case "shift+tab":
          go((tab + zoneTabs.length - 1) % zoneTabs.length)
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
          {meta}
        </Text>
      </Text>
      <Tabs titles={zoneTabs.map((t) => t.title)} active={tab} />
      {zoneTabs.map((t, i) =>
        shown.has(i) ? (
          <Box key={t.title} flexDirection="column" display={tab === i ? "flex" : "none"}>
            {t.render({ zone, active: active && tab === i, height })}
          </Box>
        ) : null
      )}
    </Box>
  )
}
