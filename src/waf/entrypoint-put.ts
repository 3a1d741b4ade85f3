/**
 * What the managed phase's entry point PUT refuses, pure and in the platform's order: the
 * `waf_migration` value, the body (./body.ts), then the migration's state machine (./state.ts) or,
 * without `waf_migration`, the plan's rule on enabled rules. The embedded platform answers with it
 * (src/server/waf-migration-handlers.ts) and the client runs the very same check before a dry run
 * or a migration (src/services/waf-migration-service.ts), so that neither can pass what the other
 * refuses.
 */
import * as Either from "effect/Either"
import { InvalidInput } from "../domain/errors.js"
import type { CompatibilityReason, MigrationState, WafConfig } from "../domain/waf.js"
import { checkEntrypointBody } from "./body.js"
import type { Catalog } from "./catalog.js"
import { parseMode, transition, type MigrationRefusal } from "./state.js"

/** What the PUT depends on besides its body. */
export interface EntrypointZone {
  readonly name: string
  readonly plan: string
  readonly state: MigrationState
  /** What stops the zone from migrating (the check operation's reasons); read only with a mode. */
  readonly reasons: () => ReadonlyArray<CompatibilityReason>
}

export interface EntrypointPut {
  readonly config: WafConfig
  /** The migration state the zone is in once the entry point is saved. */
  readonly next: MigrationState
}

/** The accepted update, or the error the platform answers it with (nothing is saved then). */
export const checkEntrypointPut = (
  zone: EntrypointZone,
  waf_migration: string | undefined,
  body: unknown,
  catalog: Catalog | null
): Either.Either<EntrypointPut, InvalidInput | MigrationRefusal> => {
  const mode = waf_migration === undefined ? undefined : parseMode(waf_migration)
  if (waf_migration !== undefined && mode === undefined)
    return Either.left(
      new InvalidInput({
        message: `waf_migration must be pending (or 1) or validation (or 2), got ${JSON.stringify(waf_migration)}`
      })
    )
  const checked = checkEntrypointBody(body, mode, catalog)
  if (Either.isLeft(checked)) return Either.left(checked.left)
  const config = checked.right
  if (mode !== undefined)
    return Either.map(
      transition(zone.name, zone.state, mode, { plan: zone.plan, reasons: zone.reasons() }),
      (next) => ({
        config,
        next
      })
    )
  if (zone.state !== "finished" && zone.plan !== "enterprise" && config.rules.some((r) => r.enabled !== false))
    return Either.left(
      new InvalidInput({
        message: `rules: on a ${zone.plan} zone that has not migrated, the entry point may hold only disabled rules (enabled: false); deploy with waf_migration=pending`
      })
    )
  return Either.right({ config, next: zone.state })
}
