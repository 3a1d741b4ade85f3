/**
 * The ESC screen of the sidebar: the ESC disable settings of the current account (a picks it) and
 * of the zone open on the Zones screen, with everything the zone's ESC tab offers.
 */
import { Box, Text } from "ink"
import { useState } from "react"
import { targetOfZone, type EscTarget } from "../../src/services/esc-service.js"
import { AccountPicker } from "../components/account-picker.js"
import { KeyLayer } from "../keys.js"
import { useUiActions, useUiState } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { wrapText } from "../components/wrap.js"
import { EscPanel } from "./esc-panel.js"

export function EscScreen({ active }: { active: boolean }) {
  const { account, zone } = useUiState()
  const { chooseAccount } = useUiActions()
  const [picking, setPicking] = useState(false)
  const pane = usePaneSize()
  const scopes: Array<EscTarget> = []
  const zoneTarget = zone !== undefined ? targetOfZone(zone) : undefined
  if (account !== undefined) scopes.push({ kind: "account", id: account.id, name: account.name })
  else if (zoneTarget !== undefined)
    scopes.push({ kind: "account", id: zoneTarget.account.id, name: zoneTarget.account.name })
  if (zoneTarget !== undefined && zoneTarget.account.id === scopes[0]?.id) scopes.unshift(zoneTarget)
  const title = "ESC disable settings"
  // The title and where the settings come from, wrapped whole: it says how to change the account.
  const about = wrapText(
    `${title} · account ${account?.name ?? (zoneTarget ? `${zoneTarget.account.name} (of the open zone)` : "none")} · zone ${zone?.name ?? "none open"} (a to change the account)`,
    pane.columns
  )
  return (
    <Box flexDirection="column">
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
      <Box flexDirection="column" display={picking ? "none" : "flex"}>
        {about.map((line, i) => (
          <Text key={i} wrap="truncate-end">
            {i === 0 ? (
              <>
                <Text bold>{title}</Text>
                <Text dimColor>{line.slice(title.length)}</Text>
              </>
            ) : (
              <Text dimColor>{line}</Text>
            )}
          </Text>
        ))}
        <EscPanel
          scopes={scopes}
          active={active && !picking}
          height={Math.max(1, pane.rows - about.length)}
          priority={KeyLayer.screen}
          empty="choose an account (a), or open a zone on the Zones screen (1)"
          extraHints={[{ keys: "a", label: "account" }]}
          onKey={(name) => {
            if (name !== "a") return false
            setPicking(true)
            return true
          }}
        />
      </Box>
    </Box>
  )
}
