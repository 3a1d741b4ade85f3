/**
 * The TUI's side of the migrations' journal place (src/services/migration-journal.ts): the state
 * directory of the local platform the app was opened on, or the per-user directory with `--remote`,
 * as the CLI's composition gives it; the commands a stop prints name the same target.
 */
import * as Effect from "effect/Effect"
import { ClientConfig } from "../src/api/client.js"
import { localMigrationTarget, MigrationTarget, remoteMigrationTarget } from "../src/services/migration-journal.js"

export const withMigrationTarget =
  (stateDir: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(ClientConfig, (config) =>
      Effect.provideService(
        effect,
        MigrationTarget,
        config.target === "local" ? localMigrationTarget(stateDir, stateDir) : remoteMigrationTarget(process.env)
      )
    )
