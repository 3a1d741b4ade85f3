/** The screens of the left list, in order; the number is the key that jumps to it. */
export type ScreenId = "zones" | "esc" | "firewall" | "waf" | "kv" | "objects"

export interface ScreenInfo {
  readonly id: ScreenId
  readonly title: string
  /** What the screen will hold; shown by screens that have not arrived yet. */
  readonly about: string
  readonly ready: boolean
}

export const Screens: ReadonlyArray<ScreenInfo> = [
  { id: "zones", title: "Zones", about: "zones, DNS records and certificate packs", ready: true },
  { id: "esc", title: "ESC", about: "ESC disable settings per zone and account", ready: true },
  { id: "firewall", title: "Firewall", about: "firewall filters and rules", ready: true },
  { id: "waf", title: "WAF", about: "the WAF migration", ready: true },
  { id: "kv", title: "KV", about: "key-value namespaces and keys", ready: true },
  { id: "objects", title: "Objects", about: "stateful object storage", ready: true }
]
