/**
 * WafMigration: the operations users run on a zone's WAF migration, over the v4 client, for the
 * CLI and the TUI alike. `migrate` is the spec's recommended procedure as one Effect: check
 * compatibility, get the configuration (or take the user's), optionally run validation (enterprise),
 * then finish with `pending`. A dry run builds the exact request the real run sends, checks it as
 * the platform does (`prepare`) and gives the state the zone would end in; it changes nothing.
 * The real run (`apply`, ./waf-migration-run.ts) sends that request on the one migration engine:
 * journaled, read back, resumable after a stop, never reversible.
 *
 * Typed errors (from the platform, as the same tags): Incompatible (with `meta.reasons`),
 * ValidationModeNotAllowed, MigrationFinished, TooManyRules, ExpressionTooLong, UriOverridePresent.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { call, ClientConfig, type ClientEnv } from "../api/client.js"
import { collectPages } from "../api/pages.js"
import { WafEndpoints } from "../api/contract-waf.js"
import type { Page } from "../domain/envelope.js"
import { InvalidInput } from "../domain/errors.js"
import type { PlannedRequest } from "../domain/request-text.js"
import { makeReplayer, type ReplayReport } from "../waf/replay.js"
import { readTrafficFile } from "../rules/replay-file.js"
import type { CompatibilityReason, Ruleset, WafConfig, WafExport } from "../domain/waf.js"
import type { Zone } from "../domain/zone.js"
import { planMigration, type MigrationPlan } from "../waf/mapping.js"
import { MANAGED_PHASE } from "../waf/ruleset.js"
import { CATALOG } from "../waf/catalog.js"
import { checkEntrypointPut } from "../waf/entrypoint-put.js"
import { blockerError, dashboardDeploy, type MigrationMode } from "../waf/state.js"
import { listBypassFirewallRules } from "./waf-firewall-service.js"
import { apply } from "./waf-migration-run.js"
import type { MigrationRequest, MigrationStep, WafZone } from "./waf-migration-types.js"
import { resolveZone } from "./zones-service.js"

export type { MigrationRequest, WafZone } from "./waf-migration-types.js"

export const wafZoneOf = (z: Zone): WafZone => ({ id: z.id, name: z.name, plan: z.plan?.legacy_id ?? "free" })
export const resolveWafZone = (ref: string) => Effect.map(resolveZone(ref), wafZoneOf)

const path = (z: WafZone) => ({ zone_id: z.id })
const all = <A, E>(fetch: (page: number) => Effect.Effect<Page<A>, E, ClientEnv>) => collectPages(fetch)

export const status = (z: WafZone) => call(WafEndpoints.status, { path: path(z) })
export const check = (z: WafZone, phaseTwo = true) =>
  call(WafEndpoints.check, { path: path(z), urlParams: phaseTwo ? { phase_two: "1" } : {} })
export const config = (z: WafZone) => call(WafEndpoints.config, { path: path(z), urlParams: { phase_two: "1" } })
export const deployed = (z: WafZone) => call(WafEndpoints.getEntrypoint, { path: path(z) })

export const listOverrides = (z: WafZone) =>
  all((page) => call(WafEndpoints.listOverrides, { path: path(z), urlParams: { page, per_page: 100 } }))
export const deleteOverride = (z: WafZone, id: string) =>
  call(WafEndpoints.deleteOverride, { path: { zone_id: z.id, override_id: id } })
/** `deleteOverride`'s request, as the TUI's `v` shows it. */
export const deleteOverrideRequest = (z: WafZone, id: string): PlannedRequest => ({
  method: "DELETE",
  path: `/zones/${encodeURIComponent(z.id)}/firewall/waf/overrides/${encodeURIComponent(id)}`
})

const NO_FIREWALL_API =
  "the platform has no firewall rules API (GET /zones/{zone_id}/firewall/rules): firewall rules that bypass the WAF are not included"

export const exportWithWarnings = (z: WafZone) =>
  Effect.gen(function* () {
    const st = yield* status(z)
    const [packages, overrides, setting, pageRules, firewallRules] = yield* Effect.all(
      [
        all((page) => call(WafEndpoints.listPackages, { path: path(z), urlParams: { page, per_page: 100 } })),
        listOverrides(z),
        call(WafEndpoints.getWafSetting, { path: path(z) }),
        call(WafEndpoints.listPageRules, { path: path(z) }),
        listBypassFirewallRules(z.id)
      ],
      { concurrency: 5 }
    )
    const byPackage = (id: string) =>
      Effect.all([
        all((page) =>
          call(WafEndpoints.listGroups, { path: { zone_id: z.id, package_id: id }, urlParams: { page, per_page: 100 } })
        ),
        all((page) =>
          call(WafEndpoints.listRules, { path: { zone_id: z.id, package_id: id }, urlParams: { page, per_page: 100 } })
        )
      ])
    const parts = yield* Effect.all(
      packages.map((p) => byPackage(p.id)),
      { concurrency: 4 }
    )
    const document: WafExport = {
      format: "edgectl.waf-export/v1" as const,
      zone: { id: z.id, name: z.name, plan: z.plan },
      migration_state: st.migration_state,
      waf: setting.value,
      packages,
      groups: parts.flatMap(([g]) => g),
      rules: parts.flatMap(([, r]) => r),
      overrides,
      firewall_rules: firewallRules.rules,
      page_rules: pageRules
    }
    return { document, warnings: firewallRules.available ? [] : [NO_FIREWALL_API] }
  })

export interface Preview {
  readonly zone: WafZone
  readonly previous: WafExport
  readonly warnings: ReadonlyArray<string>
  readonly plan: MigrationPlan
  /** What stops the migration: the platform's check (authoritative), else the local plan's blockers. */
  readonly blockers: ReadonlyArray<CompatibilityReason>
  /** The platform's own configuration (config operation); equal to `plan.config` on the local platform. */
  readonly config: WafConfig
}

export const preview = (z: WafZone) =>
  Effect.map(Effect.all([exportWithWarnings(z), config(z), check(z)], { concurrency: 3 }), ([e, cfg, chk]) => {
    const plan = planMigration(e.document)
    const platform = (chk.reasons ?? []).filter((r) => r.blocking)
    return {
      zone: z,
      previous: e.document,
      warnings: e.warnings,
      plan,
      blockers: platform.length > 0 ? platform : plan.blockers,
      config: cfg
    }
  })

/** The validation update omits id, version and ref; the final update carries them (empty strings as returned). */
const bodyFor = (mode: MigrationMode, cfg: WafConfig): WafConfig => ({
  ...cfg,
  rules: cfg.rules.map((r) => {
    if (mode === "validation") {
      const { id: _i, version: _v, ref: _r, ...rest } = r
      return rest
    }
    return { ...r, id: r.id ?? "", version: r.version ?? "", ref: r.ref ?? "" }
  })
})

export const requestFor = (z: WafZone, mode: MigrationMode, cfg: WafConfig): MigrationRequest => ({
  method: "PUT",
  path: `/zones/${z.id}/rulesets/phases/${MANAGED_PHASE}/entrypoint`,
  query: { waf_migration: mode, phase_two: "1" },
  body: bodyFor(mode, cfg)
})

/**
 * The step's request as the CLI's `--dry-run` prints it and the TUI's `v` shows it
 * (src/domain/request-text.ts): the query in the path, as the migration engine sends it.
 */
export const plannedRequest = (r: MigrationRequest): PlannedRequest => ({
  method: r.method,
  path: `${r.path}?waf_migration=${r.query.waf_migration}&phase_two=${r.query.phase_two}`,
  body: r.body
})

export interface MigrateOptions {
  /** `pending`, `validation`, or undefined: the dashboard's Deploy (enterprise validates first). */
  readonly mode?: MigrationMode | undefined
  /** A configuration to send instead of the config operation's (the user's adjusted copy). */
  readonly config?: WafConfig | undefined
  readonly dryRun?: boolean
}

/**
 * Prepares one migration step the recommended way, changing nothing: check (a false result fails
 * with the reasons' typed error), the configuration, the exact request, and the request checked as
 * the platform checks it, failing with the error the platform would answer: by `checkEntrypointPut`
 * (the embedded platform's own check) and, on the embedded platform, by the platform itself
 * (`dry_run=true`: checked, not saved). The real platform is not asked: it has no validate-only
 * mode for a migration step, so there the managed rulesets' ids are checked for form only. A dry
 * run stops here; `apply` sends this very request.
 */
export const prepare = (z: WafZone, o: MigrateOptions = {}) =>
  Effect.gen(function* () {
    const chk = yield* check(z)
    const mode = o.mode ?? dashboardDeploy(z.plan, chk.migration_state)
    const reasons = chk.compatible
      ? []
      : (chk.reasons ?? [
          { code: "incompatible", message: "the platform says the zone is not compatible", blocking: true }
        ])
    if (chk.migration_state === "start" && !chk.compatible) return yield* Effect.fail(blockerError(reasons)!)
    const cfg = o.config ?? (yield* config(z))
    const request = requestFor(z, mode, cfg)
    const local = (yield* ClientConfig).target === "local"
    const checked = checkEntrypointPut(
      {
        name: z.name,
        plan: z.plan,
        state: chk.migration_state,
        reasons: () => (chk.migration_state === "start" ? reasons : [])
      },
      request.query.waf_migration,
      request.body,
      local ? CATALOG : null
    )
    if (Either.isLeft(checked)) {
      const e = checked.left
      // Remotely the refusal is edgectl's own check, no platform's answer: it shows no code.
      if (local) return yield* Effect.fail(e)
      const Cls = e.constructor as new (args: object) => typeof e
      return yield* Effect.fail(new Cls({ ...e, message: e.message, clientSide: true }))
    }
    if (local)
      yield* call(WafEndpoints.putEntrypoint, {
        path: path(z),
        urlParams: { ...request.query, dry_run: "true" },
        payload: request.body
      })
    return {
      request,
      from: chk.migration_state,
      to: checked.right.next,
      dryRun: true,
      checkedBy: local ? ("platform" as const) : ("edgectl" as const)
    }
  })

/** Sends a prepared step journaled, on the migration engine (./waf-migration-run.ts). */
export { apply }

const migrate = (z: WafZone, o: MigrateOptions = {}) =>
  Effect.flatMap(prepare(z, o), (step) => (o.dryRun ? Effect.succeed(step) : apply(z, step)))

/**
 * A configuration together with the zone it was computed (and maybe edited) for: the TUI keeps
 * one per zone and deploys it only through `deployZoneConfig`, so a configuration can never be
 * sent to a zone other than its own.
 */
export interface ZoneConfig {
  readonly zone: WafZone
  readonly config: WafConfig
}

export interface Deployed {
  readonly step: MigrationStep
  /** The entry point as the platform has it after the deploy (read back, not what was sent). */
  readonly entrypoint: Ruleset
}

/** Migrates `zc.zone` with `zc.config`, then reads the entry point back. */
export const deployZoneConfig = (zc: ZoneConfig, mode: MigrationMode) =>
  Effect.flatMap(migrate(zc.zone, { mode, config: zc.config }), (step) =>
    Effect.map(deployed(zc.zone), (entrypoint) => ({ step, entrypoint }))
  )

/**
 * Replays a JSONL traffic file (streamed line by line) against the previous WAF and `cfg`;
 * `progress(bytesRead, size)` is called every thousand lines.
 */
export const replayFile = (
  previous: WafExport,
  cfg: WafConfig,
  file: string,
  progress?: (done: number, total: number) => void
): Effect.Effect<ReplayReport, InvalidInput> =>
  Effect.flatMap(
    // The configuration is compiled first: what it gets wrong is its own, not the traffic file's.
    Effect.try({
      try: () => makeReplayer(previous, cfg),
      catch: (e) => new InvalidInput({ message: `the new configuration: ${(e as Error).message}`, clientSide: true })
    }),
    (replayer) => replayTraffic(replayer, file, progress)
  )

const replayTraffic = (
  replayer: ReturnType<typeof makeReplayer>,
  file: string,
  progress?: (done: number, total: number) => void
): Effect.Effect<ReplayReport, InvalidInput> =>
  Effect.tryPromise({
    try: async () => {
      await readTrafficFile(file, replayer, progress)
      return replayer.report()
    },
    catch: (e) => new InvalidInput({ message: (e as Error).message, clientSide: true })
  })
