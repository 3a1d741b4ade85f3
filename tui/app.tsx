/**
 * The terminal UI: one ManagedRuntime over the client layer for the session, handed to the
 * components through a context; a header, the list of screens, the main pane and a footer with
 * the keys that work right now.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { Box, render, useApp } from "ink"
import { memo, useCallback, useEffect, useMemo, useState } from "react"
import { ClientConfig } from "../src/api/client.js"
import { stateDir } from "../src/api/target.js"
import { CommandTargetContext } from "./command-target.js"
import type { InvalidInput } from "../src/domain/errors.js"
import { CommandPalette, type PaletteChoice } from "./components/command-palette.js"
import { ErrorBoundary } from "./components/error-boundary.js"
import { Footer, useFooterRows } from "./components/footer.js"
import { Header } from "./components/header.js"
import { HelpOverlay } from "./components/help-overlay.js"
import { MinSize, TooSmall } from "./components/too-small.js"
import { SidebarWidth, Sidebar } from "./components/sidebar.js"
import { ErrorView, Loading } from "./components/states.js"
import { setErrorTarget } from "./errors.js"
import { KeepAlways, KeyLayer, KeypressProvider, useHoldKeys, useKeys, useLayersNow, type LayerKeys } from "./keys.js"
import { NoticeProvider } from "./notices.js"
import { RuntimeProvider, useEffectQuery, type Query, type TuiRuntime } from "./runtime.js"
import { SessionLogOverlay, SessionLogProvider } from "./session-log.js"
import { ObjectsDirContext } from "./screens/objects-data.js"
import { helpTitleOf, screenByKey, Screens } from "./screens/registry.js"
import { UiProvider, useUiActions, useUiState, zoneShown, type ScreenId } from "./state.js"
import { PaneContext, takeTerminal, useTerminalSize } from "./terminal.js"
import { yogaReady } from "./yoga-ready.js"

export interface AppProps {
  readonly runtime: TuiRuntime
  /** Shown in the header until the client configuration is known (or if it cannot be built). */
  readonly target?: string
  /** Called when the user quits, before the app unmounts. */
  readonly onQuit?: () => void
}

export function App({ runtime, target = "local", onQuit }: AppProps) {
  const { exit } = useApp()
  const quit = useCallback(() => {
    onQuit?.()
    exit()
  }, [onQuit, exit])
  return (
    <RuntimeProvider runtime={runtime}>
      <KeypressProvider onQuit={quit}>
        <UiProvider onQuit={quit}>
          <NoticeProvider>
            <SessionLogProvider>
              <ErrorBoundary what="the app failed to draw">
                <Shell fallbackTarget={target} />
              </ErrorBoundary>
            </SessionLogProvider>
          </NoticeProvider>
        </UiProvider>
      </KeypressProvider>
    </RuntimeProvider>
  )
}

/** Header line and the pane's border (the footer's height comes from the footer: an error grows it). */
const Chrome = { header: 1, border: 2 }

function Shell({ fallbackTarget }: { fallbackTarget: string }) {
  const { columns, rows } = useTerminalSize()
  const state = useUiState()
  const actions = useUiActions()
  const { query: config } = useEffectQuery(() => ClientConfig, [])
  const [palette, setPalette] = useState(false)
  const [log, setLog] = useState(false)
  const layersNow = useLayersNow()
  const [helpLayers, setHelpLayers] = useState<ReadonlyArray<LayerKeys>>([])
  const tooSmall = columns < MinSize.columns || rows < MinSize.rows
  const pick = (choice: PaletteChoice) => {
    setPalette(false)
    if (choice.kind === "screen") return actions.showScreen(choice.screen.id)
    actions.showScreen("zones")
    actions.openZone(choice.zone)
  }

  useKeys(
    (press) => {
      if (press.name === "?") {
        // The screen's layers leave when help covers it: read its keys while they are registered.
        setHelpLayers(layersNow())
        actions.setHelp(true)
      } else if (press.name === ":") setPalette(true)
      else if (press.name === "L") setLog(true)
      else if (press.name === "q") actions.quit()
      else {
        const screen = screenByKey(press.name)
        if (screen === undefined) return false
        actions.showScreen(screen.id)
      }
      return true
    },
    {
      priority: KeyLayer.app,
      hints: [
        { keys: `${Screens[0]!.key}-${Screens[Screens.length - 1]!.key}`, label: "screens", keep: -1 },
        { keys: ":", label: "go to", keep: -1 },
        { keys: "L", label: "session log", keep: -2 },
        { keys: "?", label: "help", keep: KeepAlways },
        { keys: "q", label: "quit", keep: KeepAlways }
      ]
    }
  )

  const target =
    config._tag === "Success" ? (config.value.target === "local" ? "local" : config.value.baseUrl) : fallbackTarget
  setErrorTarget({ remote: target !== "local" })
  // One row short of the terminal: a frame as tall as the screen makes Ink clear it on every update.
  const height = Math.max(1, rows - 1)
  const footerRows = useFooterRows(columns, rows)
  const paneRows = Math.max(3, height - Chrome.header - footerRows - Chrome.border)
  const paneColumns = Math.max(20, columns - SidebarWidth - 4)
  const pane = useMemo(() => ({ rows: paneRows, columns: paneColumns }), [paneRows, paneColumns])
  const overlay = state.helpOpen || palette || log || tooSmall
  return (
    <>
      {tooSmall ? <TooSmall columns={columns} rows={rows} onQuit={actions.quit} /> : null}
      {/* No width from the size state: Ink lays a frame out at the new width the moment the terminal
        is resized, before the state follows; a frame wider than the terminal would wrap and scroll. */}
      <Box flexDirection="column" height={height} display={tooSmall ? "none" : "flex"}>
        <Header target={target} account={state.account?.name ?? "All accounts"} zone={zoneShown(state)?.name} />
        <Box flexGrow={1}>
          <Sidebar current={state.screen} />
          <Box flexDirection="column" flexGrow={1} flexShrink={1} borderStyle="round" paddingX={1} overflow="hidden">
            <PaneContext.Provider value={pane}>
              {state.helpOpen ? (
                <HelpOverlay
                  layers={helpLayers}
                  screen={helpTitleOf(state)}
                  active={!tooSmall}
                  onClose={() => actions.setHelp(false)}
                  onQuit={actions.quit}
                />
              ) : null}
              {palette && !state.helpOpen ? (
                <CommandPalette
                  height={pane.rows}
                  accountId={state.account?.id}
                  accountName={state.account?.name}
                  onPick={pick}
                  onClose={() => setPalette(false)}
                />
              ) : null}
              {log && !state.helpOpen && !palette ? (
                <SessionLogOverlay onClose={() => setLog(false)} onQuit={actions.quit} />
              ) : null}
              <Box flexDirection="column" display={state.helpOpen || palette || log ? "none" : "flex"}>
                <ErrorBoundary what="the screen failed to draw">
                  <MainPane config={config} overlay={overlay} />
                </ErrorBoundary>
              </Box>
            </PaneContext.Provider>
          </Box>
        </Box>
        <Footer />
      </Box>
    </>
  )
}

/**
 * `overlay`: help, the palette or the too-small message covers the pane, so no screen takes keys.
 * Memoised: a result in the footer re-renders the shell (its height), not every screen.
 */
const MainPane = memo(function MainPane({ config, overlay }: { config: Query<ClientConfig>; overlay: boolean }) {
  const { screen } = useUiState()
  // Keys typed before the screens are there (the app draws as the platform opens) wait for them.
  useHoldKeys(config._tag === "Loading")
  // The screens mounted after their first visit that have had it.
  const [visited, setVisited] = useState<ReadonlySet<ScreenId>>(() => new Set())
  useEffect(() => {
    if (Screens.find((s) => s.id === screen)?.mount === "after-visit")
      setVisited((v) => (v.has(screen) ? v : new Set([...v, screen])))
  }, [screen])
  if (config._tag === "Loading") return <Loading what="the platform" />
  if (config._tag === "Failure") return <ErrorView what="could not connect to the platform" error={config.error} />
  return (
    <>
      {Screens.map(({ id, component: Screen, mount }) => {
        const shown = screen === id
        if (mount === "while-shown") return shown ? <Screen key={id} active={!overlay} /> : null
        if (mount === "after-visit" && !visited.has(id)) return null
        // A kept screen is hidden, not unmounted, while another shows.
        return (
          <Box key={id} flexDirection="column" display={shown ? "flex" : "none"}>
            <Screen active={shown && !overlay} />
          </Box>
        )
      })}
    </>
  )
})

/**
 * Opens the full-screen app and resolves when the user quits. `client` is the target's client layer,
 * given by the CLI's composition root (src/cli/environment.ts).
 */
export async function runTui(
  options: { remote: boolean; persistTo?: string },
  client: Layer.Layer<HttpClient.HttpClient | ClientConfig, InvalidInput>
): Promise<void> {
  await yogaReady
  const runtime = ManagedRuntime.make(client)
  const fullScreen = process.stdout.isTTY === true
  const giveBack = fullScreen ? takeTerminal(process.stdout) : undefined
  try {
    const app = render(
      <CommandTargetContext.Provider value={options}>
        <ObjectsDirContext.Provider value={stateDir(options)}>
          <App runtime={runtime} target={options.remote ? "remote" : "local"} />
        </ObjectsDirContext.Provider>
      </CommandTargetContext.Provider>,
      {
        exitOnCtrlC: false,
        incrementalRendering: process.env.EDGECTL_TUI_INCREMENTAL !== "0",
        // Ink draws at most maxFps frames a second, and a frame asked for sooner waits: at its 30, a
        // key pressed within 34 ms of the last frame waited for the rest (the bench's wall per j was
        // ~35 ms for ~4 ms of work), and so did each frame of the start (loading, then the list).
        maxFps: 120
      }
    )
    await app.waitUntilExit()
  } finally {
    giveBack?.()
    await runtime.dispose()
  }
}
