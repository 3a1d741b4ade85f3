/**
 * The zone's Firewall tab: its firewall rules (./firewall-panel.tsx), and, since the platform moved
 * them to WAF custom rules, `m` the migration (./custom-rules-migration.tsx) and `c` the zone's
 * custom rules (./custom-rules-panel.tsx); `l` the migration of its Zone Lockdown and UA rules and
 * `R` that of its rate limits (./legacy-migration.tsx); esc goes back to the firewall rules. Which one shows is
 * kept with its zone, and the zone detail is mounted per zone, so none of it shows on another zone.
 * The Firewall screen (./firewall.tsx) shows the same for the zone open there.
 */
import type { Zone } from "../../src/domain/zone.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useZoneScoped } from "../state.js"
import { CustomRulesMigration } from "./custom-rules-migration.js"
import { CustomRulesPanel } from "./custom-rules-panel.js"
import { FirewallPanel } from "./firewall-panel.js"
import { LegacyMigrationView } from "./legacy-migration.js"
import { LockdownUaMigration, RateLimitMigration } from "./legacy-migrations.js"

type View = "migrate" | "custom" | "lockdowns" | "rate-limits"

export function FirewallTab({
  zone,
  active,
  height,
  priority = KeyLayer.tab
}: {
  zone: Zone
  active: boolean
  height: number
  /** The firewall rules' keys' layer (the Firewall screen's is lower than a zone tab's); the views' keys are just below it. */
  priority?: number
}) {
  const [view, setView] = useZoneScoped<View>(zone.id)
  // Below the panels' own keys (a dialog's field takes m and c as text first).
  useKeys(
    (press) => {
      switch (press.name) {
        case "m":
          setView("migrate")
          return true
        case "c":
          setView("custom")
          return true
        case "l":
          setView("lockdowns")
          return true
        case "R":
          setView("rate-limits")
          return true
        case "escape":
        case "backspace":
          if (view === undefined) return false
          setView(undefined)
          return true
        default:
          return false
      }
    },
    {
      priority: priority - 1,
      active,
      hints: [
        // The migration is what this tab is now for: its key stays in an 80-column footer.
        ...(view !== "migrate" ? [{ keys: "m", label: "migrate", keep: 1 }] : []),
        ...(view !== "custom" ? [{ keys: "c", label: "custom rules" }] : []),
        ...(view !== "lockdowns" ? [{ keys: "l", label: "lockdown/UA", keep: -1 }] : []),
        ...(view !== "rate-limits" ? [{ keys: "R", label: "rate limits", keep: -1 }] : []),
        ...(view !== undefined ? [{ keys: "esc", label: "firewall rules" }] : [])
      ]
    }
  )
  switch (view) {
    case "migrate":
      return (
        <CustomRulesMigration
          zone={zone}
          plan={zone.plan?.legacy_id}
          active={active}
          height={height}
          onApplied={() => setView("custom")}
        />
      )
    case "custom":
      return <CustomRulesPanel zone={zone} active={active} height={height} />
    case "lockdowns":
      return (
        <LegacyMigrationView
          key="lockdowns"
          migration={LockdownUaMigration}
          zone={zone}
          active={active}
          height={height}
        />
      )
    case "rate-limits":
      return (
        <LegacyMigrationView
          key="rate-limits"
          migration={RateLimitMigration}
          zone={zone}
          active={active}
          height={height}
        />
      )
    default:
      return <FirewallPanel zone={zone} active={active} height={height} priority={priority} />
  }
}
