/**
 * What the whole app shares: the screen shown, the account and zone the user is in, and whether the
 * help overlay is open. State and actions are two contexts, so components that only act do not
 * re-render when state changes.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from "react"
import type { Account } from "../src/domain/account.js"
import type { Zone } from "../src/domain/zone.js"
import type { ScreenId } from "./screens/registry.js"

export interface UiState {
  readonly screen: ScreenId
  /** undefined: all accounts. */
  readonly account: Account | undefined
  /** The zone open in the Zones screen, if any. */
  readonly zone: Zone | undefined
  readonly helpOpen: boolean
}

export interface UiActions {
  readonly showScreen: (screen: ScreenId) => void
  readonly chooseAccount: (account: Account | undefined) => void
  readonly openZone: (zone: Zone) => void
  readonly closeZone: () => void
  readonly setHelp: (open: boolean) => void
  readonly quit: () => void
}

const StateContext = createContext<UiState | undefined>(undefined)
const ActionsContext = createContext<UiActions | undefined>(undefined)

export function UiProvider({ onQuit, children }: { onQuit: () => void; children: ReactNode }) {
  const [state, setState] = useState<UiState>({ screen: "zones", account: undefined, zone: undefined, helpOpen: false })
  const actions = useMemo<UiActions>(
    () => ({
      showScreen: (screen) => setState((s) => ({ ...s, screen })),
      chooseAccount: (account) => setState((s) => ({ ...s, account, zone: undefined })),
      openZone: (zone) => setState((s) => ({ ...s, zone })),
      closeZone: () => setState((s) => ({ ...s, zone: undefined })),
      setHelp: (helpOpen) => setState((s) => ({ ...s, helpOpen })),
      quit: onQuit
    }),
    [onQuit]
  )
  return (
    <ActionsContext.Provider value={actions}>
      <StateContext.Provider value={state}>{children}</StateContext.Provider>
    </ActionsContext.Provider>
  )
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
