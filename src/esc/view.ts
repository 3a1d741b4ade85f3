/**
 * ESC settings and decisions as edgectl shows them (CLI `--json`, human lines, the TUI): the secret
 * masked with its length, never in full; the state named as in the spec's state table.
 */
import type { EscSetting } from "../domain/esc.js"
import type { EscDecider } from "./decide.js"
import { describeSecret, maskSecret } from "./mask.js"

/** The spec's states: `enabled`, or `disabled for all requests`; a secret may be stored in either. */
export type EscState = "enabled" | "disabled for all requests"

const stateOf = (s: EscSetting): EscState => (s.always ? "disabled for all requests" : "enabled")

export interface SettingView {
  readonly state: EscState
  readonly always: boolean
  readonly secret: { readonly masked: string; readonly length: number } | null
}

export const settingView = (s: EscSetting): SettingView => ({
  state: stateOf(s),
  always: s.always,
  secret: s.with_secret === null ? null : { masked: maskSecret(s.with_secret), length: [...s.with_secret].length }
})

/**
 * One line: what the setting does to requests, for the CLI and the TUI alike. Once ESC is `removed`
 * no request runs it, whatever is set: the line says what the setting would do, as the request test
 * does (issue 29: "ESC runs for every request" stood under "no ESC runs any more"). `removed` has no
 * default: the CLI once left it out and kept the sentence from before the removal.
 */
export const settingSentence = (s: EscSetting, removed: boolean): string => {
  const secret = s.with_secret === null ? null : describeSecret(s.with_secret)
  const stored = secret ? `; a secret is also stored: ${secret}` : ""
  if (removed) {
    const would = s.always
      ? `be off for every request${stored}`
      : secret
        ? `run, except with a disable_esc cookie equal to the secret ${secret}`
        : "run for every request (nothing set)"
    return `ESC is removed: it runs for no request. As set, it would ${would}`
  }
  if (s.always) return `ESC is off for every request${stored}`
  if (secret) return `ESC runs, except for requests whose disable_esc cookie equals the secret ${secret}`
  return "ESC runs for every request (nothing set)"
}

/** A short status for tables: `off (always)`, `on · secret ab…yz`, `on`. */
export const settingShort = (s: EscSetting): string => {
  const parts = [s.always ? "off (always)" : "on"]
  if (s.with_secret !== null) parts.push(`secret ${maskSecret(s.with_secret)}`)
  return parts.join(" · ")
}

/** The setting that decided, in a few words. */
export const DeciderName: Record<EscDecider, string> = {
  "zone-always": "the zone's always setting",
  "account-always": "the account's always setting",
  "zone-secret": "the zone's secret",
  "account-secret": "the account's secret"
}
