/**
 * For the TUI tests: the real App over a real embedded platform in a fresh temp directory, keys
 * as the terminal sends them, and a `waitFor` that polls frames instead of sleeping.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { render } from "ink-testing-library"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { TargetOptions } from "../../src/api/target.js"
import { clientLayer } from "../../src/cli/environment.js"
import type { ReactElement, ReactNode } from "react"
import { App } from "../../tui/app.js"
import { Footer } from "../../tui/components/footer.js"
import { NoticeProvider } from "../../tui/notices.js"
import { KeypressProvider } from "../../tui/keys.js"
import { RuntimeProvider, type TuiRuntime } from "../../tui/runtime.js"
import { SessionLogProvider } from "../../tui/session-log.js"
import { UiProvider } from "../../tui/state.js"
import { PaneContext } from "../../tui/terminal.js"
import { ObjectsDirContext } from "../../tui/screens/objects-data.js"
import { zoneCounter } from "./demo-world.js"

export const Keys = {
  up: "\u001B[A",
  down: "\u001B[B",
  pageDown: "\u001B[6~",
  enter: "\r",
  escape: "\u001B",
  tab: "\t",
  backspace: "\u007F",
  ctrlC: "\u0003"
} as const

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls until `check` holds; fails with `describe()` (the last frame) after `timeoutMs`. */
export const waitFor = async (
  check: () => boolean,
  describe: () => string = () => "",
  timeoutMs = 15_000
): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms; last frame:\n${describe()}`)
    await sleep(10)
  }
}

/** What one test owns: temp dirs and runtimes, released by `dispose()` in afterEach. */
export class Fixture {
  private readonly dirs: Array<string> = []
  private readonly runtimes: Array<TuiRuntime> = []
  private readonly unmounts: Array<() => void> = []

  /**
   * A runtime over a fresh embedded platform (created and seeded with the demo world on first use).
   * With `requests`, the path and query of every request the app makes is appended to it.
   */
  local(requests?: Array<string>): TuiRuntime {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-tui-"))
    this.dirs.push(dir)
    const client = clientLayer({ remote: false, persistTo: dir })
    if (requests === undefined) return this.track(ManagedRuntime.make(client), dir)
    const recording = Layer.effect(
      HttpClient.HttpClient,
      Effect.map(
        HttpClient.HttpClient,
        HttpClient.tapRequest((r) =>
          Effect.sync(() => {
            const query = r.urlParams.map(([k, v]) => `${k}=${v}`).join("&")
            requests.push(new URL(r.url).pathname.replace(/^\/client\/v4/, "") + (query === "" ? "" : `?${query}`))
          })
        )
      )
    )
    return this.track(ManagedRuntime.make(recording.pipe(Layer.provideMerge(client))), dir)
  }

  runtime(options: TargetOptions): TuiRuntime {
    return this.track(ManagedRuntime.make(clientLayer(options)))
  }

  /** A local runtime's state directory: the App is given it, as `edgectl tui` gives its own (journals, objects). */
  private readonly stateDirs = new Map<TuiRuntime, string>()

  private track(runtime: TuiRuntime, dir?: string): TuiRuntime {
    this.runtimes.push(runtime)
    if (dir !== undefined) this.stateDirs.set(runtime, dir)
    return runtime
  }

  /** The state directory of a runtime made by `local()`. */
  stateDirOf(runtime: TuiRuntime): string | undefined {
    return this.stateDirs.get(runtime)
  }

  /** Renders the App and waits a moment so its input listener is attached (pitfall P13). */
  render(runtime: TuiRuntime, props: { target?: string; onQuit?: () => void } = {}) {
    const dir = this.stateDirs.get(runtime)
    const app = <App runtime={runtime} {...props} />
    return this.mount(
      dir === undefined ? app : <ObjectsDirContext.Provider value={dir}>{app}</ObjectsDirContext.Provider>
    )
  }

  /**
   * The App on a local runtime with `zone` opened from the zone list and its tabs passed through to
   * the last of `tabs` (each waited for by its bracketed name); `before` sees the state directory
   * before the App starts.
   */
  async openZone(zone: string, tabs: ReadonlyArray<string>, before?: (stateDir: string) => void) {
    const runtime = this.local()
    before?.(this.stateDirOf(runtime)!)
    const app = await this.render(runtime)
    await app.waitForText(zoneCounter(1))
    await app.press("/", "type filter by name")
    await app.press(zone, "1/1 ")
    await app.press(Keys.enter, `filter: ${zone}`)
    await app.press(Keys.enter, `zone ${zone}`)
    for (const tab of tabs) await app.press(Keys.tab, `[${tab}]`)
    return { app, runtime }
  }

  /** Renders one part of the app inside the providers the App gives it, with the footer below. */
  within(runtime: TuiRuntime, node: ReactNode, onQuit: () => void = () => {}) {
    return this.mount(
      <RuntimeProvider runtime={runtime}>
        <KeypressProvider onQuit={onQuit}>
          <UiProvider onQuit={onQuit}>
            <NoticeProvider>
              <SessionLogProvider>
                <PaneContext.Provider value={{ columns: 80, rows: 16 }}>
                  {node}
                  <Footer />
                </PaneContext.Provider>
              </SessionLogProvider>
            </NoticeProvider>
          </UiProvider>
        </KeypressProvider>
      </RuntimeProvider>
    )
  }

  private async mount(node: ReactElement) {
    const app = render(node)
    this.unmounts.push(app.unmount)
    await sleep(50)
    const frame = () => app.lastFrame() ?? ""
    return {
      ...app,
      frame,
      /** Types keys, then waits until the frame shows `text`. */
      press: async (keys: string, until?: string | ((frame: string) => boolean)) => {
        app.stdin.write(keys)
        if (until !== undefined)
          await waitFor(() => (typeof until === "string" ? frame().includes(until) : until(frame())), frame)
        else await sleep(30)
      },
      waitForText: (text: string) => waitFor(() => frame().includes(text), frame)
    }
  }

  async dispose(): Promise<void> {
    for (const unmount of this.unmounts.splice(0)) unmount()
    for (const runtime of this.runtimes.splice(0)) await runtime.dispose()
    for (const dir of this.dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A frame check: `text` is on the screen, wherever the screen wrapped it (a file's path in a result
 * or an error is as long as the machine's temporary directory makes it), an error box's bar too.
 */
export const shownWrapped = (text: string) => {
  const flat = (t: string) => t.replace(/[\s┃]+/g, "")
  return (frame: string): boolean => flat(frame).includes(flat(text))
}

/** The row under the cursor (drawn with `›`), trimmed. */
export const selectedRow = (frame: string): string =>
  frame
    .split("\n")
    .find((l) => l.includes("› "))
    ?.split("› ")[1]
    ?.trim() ?? ""
