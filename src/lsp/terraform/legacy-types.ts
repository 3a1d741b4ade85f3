/**
 * The resource types of the legacy security products the editor rewrites (rate limits, Zone
 * Lockdown, User Agent Blocking): on their own, so the module's checks (./analyze.ts) and the
 * rewrite (./legacy-rewrite.ts) name them without importing each other.
 */
export const LEGACY_PRODUCT_RESOURCES: ReadonlyArray<string> = [
  "cloudflare_rate_limit",
  "cloudflare_zone_lockdown",
  "cloudflare_user_agent_blocking_rule"
]
