/**
 * What the whole app shares: the screen shown, the account and zone the user is in, and whether the
 * help overlay is open. State and actions are two contexts, so components that only act do not
 * re-render when state changes. And the home of state that belongs to one zone: each zone's unsaved
 * WAF edits, kept by zone id (a third context, a store), so they survive leaving the zone, and a
 * panel's own state tagged with its zone (useZoneScoped); neither can ever show on another zone.
 */
import { createContext, useCallback, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from "react"
import type { Account } from "../src/domain/account.js"
import type { WafConfig } from "../src/domain/waf.js"
import type { Zone } from "../src/domain/zone.js"

/** The screens' ids (their list is tui/screens/registry.ts, which imports this module). */
export type ScreenId = "zones" | "esc" | "firewall" | "waf" | "kv" | "objects"

export interface UiState {
  readonly screen: ScreenId
  /** undefined: all accounts. */
  readonly account: Account | undefined
  /** The zone open in the Zones screen, if any. */
  readonly zone: Zone | undefined
  /** The zone the WAF screen's wizard shows (its own choice, apart from the Zones screen's). */
  readonly wafZone: Zone | undefined
  readonly helpOpen: boolean
}

/**
 * The zone the screen shown is about, which the header names: the WAF screen's wizard has its own
 * (issue 29: the header named the Zones screen's zone above another zone's wizard).
 */
export const zoneShown = (s: UiState): Zone | undefined =>
  s.screen === "waf" && s.wafZone !== undefined ? s.wafZone : s.zone

export interface UiActions {
  readonly showScreen: (screen: ScreenId) => void
  readonly chooseAccount: (account: Account | undefined) => void
  readonly openZone: (zone: Zone) => void
  readonly closeZone: () => void
  readonly showWafZone: (zone: Zone | undefined) => void
  readonly setHelp: (open: boolean) => void
  readonly quit: () => void
}

const StateContext = createContext<UiState | undefined>(undefined)
const ActionsContext = createContext<UiActions | undefined>(undefined)

export function UiProvider({ onQuit, children }: { onQuit: () => void; children: ReactNode }) {
  const [state, setState] = useState<UiState>({
    screen: "zones",
    account: undefined,
    zone: undefined,
    wafZone: undefined,
    helpOpen: false
  })
  const actions = useMemo<UiActions>(
    () => ({
      showScreen: (screen) => setState((s) => ({ ...s, screen })),
      chooseAccount: (account) => setState((s) => ({ ...s, account, zone: undefined })),
      openZone: (zone) => setState((s) => ({ ...s, zone })),
      closeZone: () => setState((s) => ({ ...s, zone: undefined })),
      showWafZone: (wafZone) => setState((s) => ({ ...s, wafZone })),
      setHelp: (helpOpen) => setState((s) => ({ ...s, helpOpen })),
      quit: onQuit
    }),
    [onQuit]
  )
  const [drafts] = useState(() => new WafDrafts())
  return (
    <ActionsContext.Provider value={actions}>
      <StateContext.Provider value={state}>
        <DraftsContext.Provider value={drafts}>{children}</DraftsContext.Provider>
      </StateContext.Provider>
    </ActionsContext.Provider>
  )
}

/** A zone's edited WAF configuration, not yet deployed; it names its zone. */
export interface WafDraft {
  readonly zoneId: string
  readonly config: WafConfig
}

/**
 * The unsaved WAF edits of every zone, by zone id. A store rather than component state: the
 * Zones screen's WAF tab and the WAF screen may show the same zone at once and must agree.
 */
class WafDrafts {
  private readonly drafts = new Map<string, WafDraft>()
  private readonly listeners = new Set<() => void>()
  readonly subscribe = (f: () => void) => {
    this.listeners.add(f)
    return () => void this.listeners.delete(f)
  }
  get(zoneId: string): WafDraft | undefined {
    return this.drafts.get(zoneId)
  }
  set(zoneId: string, config: WafConfig | undefined): void {
    if (config === undefined) this.drafts.delete(zoneId)
    else this.drafts.set(zoneId, { zoneId, config })
    for (const f of this.listeners) f()
  }
}

const DraftsContext = createContext<WafDrafts | undefined>(undefined)

/**
 * The zone's unsaved WAF edits, and `update`, which edits the latest draft (not the one of the last
 * render: keys that arrive in one read each see the edit before them); undefined drops the draft.
 */
export function useWafDraft(zoneId: string): {
  readonly draft: WafDraft | undefined
  readonly update: (f: (config: WafConfig | undefined) => WafConfig | undefined) => void
} {
  const store = useContext(DraftsContext)
  if (store === undefined) throw new Error("useWafDraft must be used inside <UiProvider>")
  const draft = useSyncExternalStore(store.subscribe, () => store.get(zoneId))
  const update = useCallback(
    (f: (config: WafConfig | undefined) => WafConfig | undefined) => store.set(zoneId, f(store.get(zoneId)?.config)),
    [store, zoneId]
  )
  return { draft, update }
}

/**
 * A component's state that belongs to the zone it was set on (an open dialog, a record shown whole,
 * a test's answer): on another zone it reads undefined, so a `:` jump that changes the zone under
 * it, or an answer that arrives after, never shows it there. Gone when the component unmounts.
 */
export function useZoneScoped<T>(zoneId: string): readonly [T | undefined, (value: T | undefined) => void] {
  const [held, setHeld] = useState<{ readonly zoneId: string; readonly value: T } | undefined>(undefined)
  const set = (value: T | undefined) => setHeld(value === undefined ? undefined : { zoneId, value })
  return [held?.zoneId === zoneId ? held.value : undefined, set]
}

export function useUiState(): UiState {
  const s = useContext(StateContext)
  if (s === undefined) throw new Error("useUiState must be used inside <UiProvider>")
  return s
}

export function useUiActions(): UiActions {
  const a = useContext(ActionsContext)
  if (a === undefined) throw new Error("useUiActions must be used inside <UiProvider>")
  return a
}
