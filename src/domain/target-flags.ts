/** The options a suggested command carries to reach the platform the command that suggests it talks to. */
import { shellWord } from "./shell-word.js"

/** Where a command ran: the real platform (`--remote`), or the local one in `persistTo` (default when absent). */
export interface HintTarget {
  readonly remote: boolean
  readonly persistTo?: string | undefined
}

/** What a suggested command needs to reach the same platform: ` --remote`, ` --persist-to DIR` or nothing. */
export const targetFlags = (t: HintTarget): string =>
  t.remote ? " --remote" : t.persistTo !== undefined ? ` --persist-to ${shellWord(t.persistTo)}` : ""
