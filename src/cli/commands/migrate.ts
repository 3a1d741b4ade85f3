/**
 * `edgectl migrate --zone Z`: everything legacy on a zone (firewall rules, Zone Lockdown and User
 * Agent Blocking, rate limits of the previous version, the previous WAF) in one plan, one apply and
 * one journal. The tree is declared here, loaded at every start; what it does is ./migrate-run.ts.
 */
import * as Command from "@effect/cli/Command"
import { lazyHandlers } from "../lazy.js"
import { migrateOptions } from "./migrate-options.js"

const handler = lazyHandlers(() => import("./migrate-run.js"))

export const migrate = Command.make(
  "migrate",
  migrateOptions,
  handler((m) => m.migrateZone)
).pipe(
  Command.withDescription(
    "move everything legacy on a zone in one plan: firewall rules, Zone Lockdown and UA rules, rate limits, then the previous WAF (journaled: a re-run finishes a stopped migration, --rollback undoes it until the WAF step)"
  )
)
