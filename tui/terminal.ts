/** The terminal's size, following resizes; a test stdout without `rows` counts as 24 rows. */
import { useStdout } from "ink"
import { createContext, useContext, useEffect, useState } from "react"

export interface TerminalSize {
  readonly columns: number
  readonly rows: number
}

const read = (s: NodeJS.WriteStream): TerminalSize => ({ columns: s.columns || 100, rows: s.rows || 24 })

export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout()
  const [size, setSize] = useState(() => read(stdout))
  useEffect(() => {
    const onResize = () => setSize(read(stdout))
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
