/**
 * The terminal the TUI runs on: its modes while the app runs, and its size, following resizes (a
 * test stdout without `rows` counts as 24 rows).
 */
import { useStdout } from "ink"
import * as fs from "node:fs"
import { createContext, useContext, useEffect, useState } from "react"
import { WholeRedraw } from "./frame-diff.js"

export interface TerminalSize {
  readonly columns: number
  readonly rows: number
}

const read = (s: NodeJS.WriteStream): TerminalSize => ({ columns: s.columns || 100, rows: s.rows || 24 })

export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout()
  const [size, setSize] = useState(() => read(stdout))
  useEffect(() => {
    // The frame after a resize is drawn whole: a diff placed from where the last frame left the
    // cursor could keep a shift the resize caused (issue 29).
    const onResize = () => {
      WholeRedraw.pending = true
      setSize(read(stdout))
    }
    stdout.on("resize", onResize)
    return () => {
      stdout.off("resize", onResize)
    }
  }, [stdout])
  return size
}

/** The inner size of the main pane, set by the shell, read by screens to size their lists. */
export const PaneContext = createContext<TerminalSize>({ columns: 80, rows: 18 })

export const usePaneSize = (): TerminalSize => useContext(PaneContext)

/** The alternate screen (the shell's screen comes back whole at exit) and bracketed paste (a paste
 *  arrives marked, so it is taken as text and never as keys: tui/key-decoder.ts). */
const ModesOn = "\u001b[?1049h\u001b[H\u001b[?2004h"
const ModesOff = "\u001b[?2004l\u001b[?1049l"

/**
 * Sets the terminal's modes for the app; the returned function sets them back, and so does every
 * other way out: a crash (the process's exit) or SIGTERM (exit 143). A shell left in bracketed
 * paste would get `ESC[200~` around every paste after the app.
 */
export const takeTerminal = (stdout: NodeJS.WriteStream & { readonly fd: number }): (() => void) => {
  stdout.write(ModesOn)
  let given = false
  const giveBack = () => {
    if (given) return
    given = true
    process.off("exit", giveBack)
    process.off("SIGTERM", onTerm)
    // Synchronous: an exit listener cannot wait for a stream.
    fs.writeSync(stdout.fd, ModesOff)
  }
  // Ink's own exit hook unmounts the app as the process exits; the modes go after its last frame.
  const onTerm = () => process.exit(143)
  process.on("exit", giveBack)
  process.on("SIGTERM", onTerm)
  return giveBack
}
