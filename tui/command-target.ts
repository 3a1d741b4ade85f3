/**
 * The platform the TUI talks to, for the commands its screens suggest: each carries `--remote` or
 * the TUI's `--persist-to`, so it acts on what the screen shows (as the CLI's hints do).
 */
import { createContext, useContext } from "react"
import { targetFlags, type HintTarget } from "../src/domain/target-flags.js"

export const CommandTargetContext = createContext<HintTarget>({ remote: false })

/** `edgectl WORDS` on the TUI's target. */
export const useCommandLine = (): ((words: string) => string) => {
  const target = useContext(CommandTargetContext)
  return (words) => `edgectl ${words}${targetFlags(target)}`
}
