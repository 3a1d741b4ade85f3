/**
 * The zone's firewall rules that bypass the WAF, read through the firewall API (area C) for the
 * export and the replay. Until the firewall endpoints are merged, none.
 */
import type { HttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { ClientConfig } from "../api/client.js"
import type { V4Error } from "../domain/errors.js"
import type { BypassFirewallRule } from "../domain/waf.js"

export const listBypassFirewallRules = (_zoneId: string): Effect.Effect<Array<BypassFirewallRule>, V4Error, HttpClient.HttpClient | ClientConfig> =>
  Effect.succeed([])
