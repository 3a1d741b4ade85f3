/**
 * The demo world the local platform is seeded with: the foundation's accounts, zones, DNS records,
 * certificates and invites (fixtures/world.json), then each area's own demo data.
 *
 * An area adds its data with the migration that made room for it: one entry in `AreaSeeds`, naming
 * that migration. A new store gets every seed; a store made by an older edgectl gets only the seeds
 * of the migrations it had not applied yet, so upgrading never duplicates or overwrites data.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import world from "../../fixtures/world.json" with { type: "json" }
import { seedKv } from "./kv-namespaces.js"
import { seedWaf } from "./waf-zones.js"
import type { Seed } from "../store/db.js"
import type { StoreError } from "../store/store-error.js"
import { seedEsc } from "./esc-settings.js"
import { seedFirewall } from "./firewall-rules.js"
import { seedLegacy } from "./legacy-rules.js"
import { migrations } from "../store/migrations.js"
import { insertRows } from "./insert-rows.js"
import { expandWorld, type WorldDef, type WorldOptions } from "./world.js"

export const DemoWorld = world as unknown as WorldDef

interface AreaSeed {
  /** The migration (a key of `migrations`) whose tables this seed fills. */
  readonly migration: keyof typeof migrations
  /** Writes on the handle, or answers the client's effect where its repository is on the client. */
  readonly seed: (db: Database.Database, sql: SqlClient) => void | Effect.Effect<void, StoreError>
}

/** Each area's demo data, in migration order. */
const AreaSeeds: ReadonlyArray<AreaSeed> = [
  { migration: "0002_esc", seed: seedEsc },
  { migration: "0003_kv", seed: seedKv },
  { migration: "0004_firewall", seed: seedFirewall },
  { migration: "0005_waf", seed: seedWaf },
  { migration: "0007_legacy_security", seed: seedLegacy }
]

const versionOf = (migration: string) => Object.keys(migrations).indexOf(migration) + 1

/** The demo world's seed; `options` shape the foundation's part (sizes, for benchmarks). */
export const seedDemo =
  (options?: WorldOptions): Seed =>
  (db, fromVersion, sql) =>
    Effect.gen(function* () {
      if (fromVersion < versionOf("0001_platform")) insertRows(db, expandWorld(DemoWorld, options))
      for (const area of AreaSeeds) {
        if (versionOf(area.migration) <= fromVersion) continue
        const written = area.seed(db, sql)
        if (written !== undefined) yield* written
      }
    })
