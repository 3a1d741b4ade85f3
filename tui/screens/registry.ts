/**
 * The screens, in the order of the left list: the one list the sidebar, the main pane, the command
 * palette, the number keys and the help read, so a screen is added in one place (its component,
 * which takes `active`, in its own file here; its id in ScreenId, in state.tsx; its entry in Screens).
 */
import type { ComponentType } from "react"
import type { ScreenId, UiState } from "../state.js"
import { EscScreen } from "./esc.js"
import { FirewallScreen } from "./firewall.js"
import { KvScreen } from "./kv.js"
import { ObjectsScreen } from "./objects.js"
import { WafScreen } from "./waf.js"
import { ZonesScreen } from "./zones.js"

/**
 * How long a screen stays mounted: `always` (from the start, so its cursor and pages survive),
 * `after-visit` (from its first visit on, likewise), `while-shown` (it starts afresh each visit).
 */
type ScreenMount = "always" | "after-visit" | "while-shown"

export interface ScreenInfo {
  readonly id: ScreenId
  /** The key that opens it (its place in the list). */
  readonly key: string
  readonly title: string
  /** Takes the keys when `active` (shown, and no overlay covers it). */
  readonly component: ComponentType<{ active: boolean }>
  readonly mount: ScreenMount
  /** The help's heading for the screen, when it says more than the title. */
  readonly helpTitle?: (state: UiState) => string
}

export const Screens: ReadonlyArray<ScreenInfo> = [
  {
    id: "zones",
    key: "1",
    title: "Zones",
    component: ZonesScreen,
    mount: "always",
    helpTitle: (state) => `Zones${state.zone ? ` › ${state.zone.name}` : ""}`
  },
  { id: "esc", key: "2", title: "ESC", component: EscScreen, mount: "while-shown" },
  { id: "firewall", key: "3", title: "Firewall", component: FirewallScreen, mount: "while-shown" },
  { id: "waf", key: "4", title: "WAF", component: WafScreen, mount: "while-shown" },
  { id: "kv", key: "5", title: "KV", component: KvScreen, mount: "after-visit" },
  { id: "objects", key: "6", title: "Objects", component: ObjectsScreen, mount: "while-shown" }
]

export const screenByKey = (key: string): ScreenInfo | undefined => Screens.find((s) => s.key === key)

/** The heading of the help on `state`'s screen. */
export const helpTitleOf = (state: UiState): string => {
  const screen = Screens.find((s) => s.id === state.screen)
  return screen === undefined ? "" : (screen.helpTitle?.(state) ?? screen.title)
}
