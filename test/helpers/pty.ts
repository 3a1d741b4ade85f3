/**
 * The TUI as a person runs it: the built launcher in a real pseudo-terminal (util-linux `script`),
 * its output fed to a headless xterm, so a test reads the screen a user would see (cursor moves,
 * partial redraws and the alternate screen applied) rather than the raw byte stream.
 *
 * `write` sends its bytes in one write: the TUI reads them in one chunk, as it gets a paste, a fast
 * key repeat or keys over a laggy link. `type` sends one key per write, as a person types.
 *
 * The TUI wraps each frame in a synchronized update (`CSI ? 2026 h` … `CSI ? 2026 l`), and a
 * terminal that knows the mode (kitty, WezTerm, iTerm2, Windows Terminal, foot, …) shows the frame
 * only once it is whole. A large frame reaches us in more than one read: like such a terminal, the
 * headless xterm gets a frame's bytes once its end has come (or after a second without it, as
 * terminals give up waiting), so a test never reads half a frame.
 */
import { Terminal } from "@xterm/headless"
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process"
import * as fs from "node:fs"
import { StringDecoder } from "node:string_decoder"
import { bin, tempDir } from "./cli.js"

export const PtyKeys = {
  up: "\u001b[A",
  down: "\u001b[B",
  right: "\u001b[C",
  left: "\u001b[D",
  home: "\u001b[H",
  end: "\u001b[F",
  pageUp: "\u001b[5~",
  pageDown: "\u001b[6~",
  delete: "\u001b[3~",
  enter: "\r",
  escape: "\u001b",
  tab: "\t",
  backspace: "\u007f",
  ctrlA: "\u0001",
  ctrlC: "\u0003",
  ctrlE: "\u0005",
  ctrlL: "\u000c",
  ctrlU: "\u0015",
  ctrlW: "\u0017"
} as const

const BeginUpdate = "\u001b[?2026h"
const EndUpdate = "\u001b[?2026l"
/** How long a begun update is held without its end before it is shown anyway. */
const UpdateTimeoutMs = 1_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface PtyOptions {
  readonly columns: number
  readonly rows: number
  /** The platform's state directory (a fresh temp dir when not given). */
  readonly persistTo?: string
  /** Arguments after `tui` (default: `--persist-to DIR`). */
  readonly args?: ReadonlyArray<string>
  /** The words before `args`: default `tui`; `[]` runs the bare `edgectl`. */
  readonly command?: ReadonlyArray<string>
  readonly env?: Record<string, string | undefined>
  readonly cwd?: string
}

export class PtyTui {
  readonly persistTo: string
  private readonly term: Terminal
  private readonly child: ChildProcessWithoutNullStreams
  private pending = Promise.resolve()
  /** Bytes of a synchronized update whose end has not come yet. */
  private held = ""
  private heldTimer: NodeJS.Timeout | undefined
  private exited: number | null | undefined = undefined
  /** Everything the TUI wrote, as bytes decoded to text. */
  raw = ""

  private constructor(options: PtyOptions) {
    this.persistTo = options.persistTo ?? tempDir("edgectl-pty-")
    this.term = new Terminal({ cols: options.columns, rows: options.rows, allowProposedApi: true, scrollback: 0 })
    const args = options.args ?? ["--persist-to", this.persistTo]
    const command = `stty cols ${options.columns} rows ${options.rows}; exec ${[process.execPath, bin, ...(options.command ?? ["tui"]), ...args].map((a) => JSON.stringify(a)).join(" ")}`
    const env: Record<string, string | undefined> = {
      ...process.env,
      XDG_CACHE_HOME: tempDir("edgectl-pty-cache-"),
      TERM: "xterm-256color",
      // As on a CI runner (Ink would draw nothing until exit without build.mjs's inkOnTerminalInCi).
      CI: "true",
      ...options.env
    }
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k]
    this.child = spawn("script", ["-qfec", command, "/dev/null"], {
      env: env as NodeJS.ProcessEnv,
      cwd: options.cwd ?? this.persistTo,
      stdio: ["pipe", "pipe", "pipe"]
    })
    // A read can end inside a multi-byte character (a border, an ellipsis): decode across reads.
    const utf8 = new StringDecoder("utf8")
    this.child.stdout.on("data", (d: Buffer) => {
      const text = utf8.write(d)
      this.raw += text
      this.show(text)
    })
    this.child.stdout.on("end", () => this.show("", true))
    this.child.on("exit", (code) => (this.exited = code))
  }

  /** Feeds the terminal what it would show now: all but an update still begun and not ended. */
  private show(text: string, whole = false): void {
    const all = this.held + text
    const begun = all.lastIndexOf(BeginUpdate)
    let cut = whole || begun <= all.lastIndexOf(EndUpdate) ? all.length : begun
    // A read can end inside the sequence that begins the next update: keep that part back too.
    for (let k = BeginUpdate.length - 1; k > 0 && !whole; k--)
      if (all.endsWith(BeginUpdate.slice(0, k))) {
        cut = Math.min(cut, all.length - k)
        break
      }
    this.held = all.slice(cut)
    clearTimeout(this.heldTimer)
    if (this.held !== "") this.heldTimer = setTimeout(() => this.show("", true), UpdateTimeoutMs)
    const shown = all.slice(0, cut)
    if (shown !== "")
      this.pending = this.pending.then(() => new Promise<void>((resolve) => this.term.write(shown, resolve)))
  }

  /** Starts the TUI and waits for its first screen to show `ready` (default: the zone list). */
  static async start(options: PtyOptions & { readonly ready?: string }): Promise<PtyTui> {
    const tui = new PtyTui(options)
    await tui.waitFor(options.ready ?? "acme-api.com")
    return tui
  }

  /** The screen as text, one line per row, trailing spaces trimmed. */
  screen(): string {
    const buffer = this.term.buffer.active
    const lines: Array<string> = []
    for (let y = 0; y < this.term.rows; y++)
      lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "")
    return lines.join("\n")
  }

  /** The screen's rows as drawn, each exactly as wide as the terminal (for checking what fits). */
  lines(): ReadonlyArray<string> {
    return this.screen().split("\n")
  }

  /**
   * Writes `bytes` onto the terminal as another program on the same terminal would (`wall`, a
   * background job): the screen changes, the TUI knows nothing of it.
   */
  scribble(bytes: string): void {
    this.pending = this.pending.then(() => new Promise<void>((resolve) => this.term.write(bytes, resolve)))
  }

  /** Sends the bytes in one write (one read on the TUI's side). */
  write(bytes: string): void {
    this.child.stdin.write(bytes)
  }

  /** Sends each key in its own write, a little apart, as a person types. */
  async type(keys: ReadonlyArray<string> | string, gapMs = 40): Promise<void> {
    for (const key of typeof keys === "string" ? [...keys] : keys) {
      this.write(key)
      await sleep(gapMs)
    }
  }

  /** Waits until the screen shows `what` (text, or a check of the screen). */
  async waitFor(what: string | RegExp | ((screen: string) => boolean), timeoutMs = 20_000): Promise<string> {
    const check =
      typeof what === "string"
        ? (s: string) => s.includes(what)
        : what instanceof RegExp
          ? (s: string) => what.test(s)
          : what
    const deadline = Date.now() + timeoutMs
    for (;;) {
      await this.pending
      const screen = this.screen()
      if (check(screen)) return screen
      if (this.exited !== undefined)
        throw new Error(`the TUI exited (${this.exited}) before showing ${String(what)}; last screen:\n${screen}`)
      if (Date.now() > deadline)
        throw new Error(`the TUI did not show ${String(what)} within ${timeoutMs} ms; it showed:\n${screen}`)
      await sleep(20)
    }
  }

  /** Waits until the screen has not changed for `quietMs` (the TUI has handled what it was sent). */
  async settle(quietMs = 250, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs
    let last = this.screen()
    let since = Date.now()
    while (Date.now() < deadline) {
      await sleep(25)
      await this.pending
      const now = this.screen()
      if (now !== last) {
        last = now
        since = Date.now()
      } else if (Date.now() - since >= quietMs) return now
    }
    return last
  }

  /**
   * Resizes the terminal as a window manager does: the pty's size changes (the kernel sends the TUI
   * SIGWINCH) and the headless xterm takes the new size.
   */
  resize(columns: number, rows: number): void {
    // `script` runs the TUI (the shell exec'd it) on the pty: set the size on the TUI's own terminal.
    const tui = this.tuiPid()
    const tty = fs.readlinkSync(`/proc/${tui}/fd/0`)
    const r = spawnSync("stty", ["-F", tty, "cols", String(columns), "rows", String(rows)])
    if (r.status !== 0) throw new Error(`stty -F ${tty} failed: ${String(r.stderr)}`)
    this.pending = this.pending.then(() => this.term.resize(columns, rows))
  }

  /** The TUI's own process (`script`'s child). */
  private tuiPid(): string {
    return fs.readFileSync(`/proc/${this.child.pid}/task/${this.child.pid}/children`, "utf8").trim().split(/\s+/)[0]!
  }

  /** Sends `signal` to the TUI's process (not to `script`), as `kill` from another shell does. */
  signal(signal: NodeJS.Signals): void {
    process.kill(Number(this.tuiPid()), signal)
  }

  /** Resolves with the exit code once the TUI has exited (within `timeoutMs`, else throws). */
  async exit(timeoutMs = 10_000): Promise<number | null> {
    const deadline = Date.now() + timeoutMs
    while (this.exited === undefined) {
      if (Date.now() > deadline) throw new Error(`the TUI did not exit within ${timeoutMs} ms`)
      await sleep(20)
    }
    // The last bytes it wrote may come after its exit.
    const out = this.child.stdout
    if (!out.readableEnded) await new Promise((resolve) => out.once("end", resolve))
    await this.pending
    return this.exited
  }

  /** Quits with ctrl+c and resolves with the exit code; kills it if it does not exit. */
  async close(): Promise<number | null> {
    if (this.exited === undefined) {
      this.write(PtyKeys.ctrlC)
      const deadline = Date.now() + 5_000
      while (this.exited === undefined && Date.now() < deadline) await sleep(20)
      if (this.exited === undefined) this.child.kill("SIGKILL")
    }
    clearTimeout(this.heldTimer)
    this.term.dispose()
    return this.exited ?? null
  }
}
