/**
 * The WAF migration's shapes that its service (./waf-migration-service.ts) and its run on the
 * migration engine (./waf-migration-run.ts) share: the zone as the migration needs it, and a step
 * with the exact request it sends. Apart, so that neither of the two imports the other for them.
 */
import type { MigrationState, Ruleset, WafConfig } from "../domain/waf.js"
import type { MigrationMode } from "../waf/state.js"

export interface WafZone {
  readonly id: string
  readonly name: string
  readonly plan: string
}

/** What a migration step sends: the exact request. */
export interface MigrationRequest {
  readonly method: "PUT"
  readonly path: string
  readonly query: { readonly waf_migration: MigrationMode; readonly phase_two: "1" }
  readonly body: WafConfig
}

export interface MigrationStep {
  readonly request: MigrationRequest
  readonly from: MigrationState
  /** The state the zone ends in (predicted on a dry run, read back after a real run). */
  readonly to: MigrationState
  readonly dryRun: boolean
  /**
   * Who checked the request before it was sent: the platform (`dry_run=true`, embedded platform),
   * or edgectl with the platform's check, managed rulesets' ids for form only (remote).
   */
  readonly checkedBy: "platform" | "edgectl"
  readonly ruleset?: Ruleset | null
}
