/**
 * What `edgectl migrate --zone Z` does: everything legacy on the zone in one plan
 * (src/services/zone-migration-service.ts) run by the one migration flow of the CLI
 * (../migration-runner.ts), like each part's own command: the preview shows each part with its own
 * table (the part commands' printers), parts with nothing to do named as such; `--dry-run` prints
 * every request (`--json`: the plan); one journaled apply; a re-run finishes it; `--rollback`
 * restores the "before" until the previous WAF's step, which cannot be undone (said before it runs).
 * `--replay` runs each part's replay and sums them (after an apply, from the journal's "before":
 * src/services/zone-migration-replay.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { decidedText, replayCounts } from "../../firewall/custom-rules-replay.js"
import { notReadLines } from "../../rules/traffic-line.js"
import { resolveZone } from "../../services/zones-service.js"
import {
  applyZoneLegacy,
  checkZoneLegacy,
  OwnNotes,
  PartTitles,
  planZoneLegacy,
  resumeZoneLegacy,
  rollbackZoneLegacy,
  zoneLegacyJournal,
  type ZoneLegacyJournal,
  type ZoneLegacyPlan
} from "../../services/zone-migration-service.js"
import { zoneLegacyDriver } from "../../services/zone-migration-parts.js"
import { replayZoneLegacy } from "../../services/zone-migration-replay.js"
import { migrationTargetLayer } from "../environment.js"
import { outcomeText, printRequests } from "../migration-cli.js"
import { checkReplayFile, flowUsage, replayFailures, runFlow, type MigrationFlow } from "../migration-runner.js"
import { opt } from "../options.js"
import { printJson, printLine, printTable } from "../output.js"
import { CliFailure, isRemote, targetOn } from "../run.js"
import { writeErr } from "../stdio.js"
import { runFw } from "./firewall/common.js"
import { printLockdownUaPreview } from "./firewall/lockdowns-migrate.js"
import { printPreview as printFirewallPreview } from "./firewall/migrate-print.js"
import { printRateLimitPreview } from "./firewall/rate-limits-migrate.js"
import type { MigrateOptions } from "./migrate-options.js"

const what = "migrate"

const printZonePreview = (p: ZoneLegacyPlan) => {
  printLine(`Migration of everything legacy on zone ${p.zone.name}, in this order:`)
  printLine("")
  printTable(
    ["#", "PART", "REQUESTS", "STATUS"],
    p.summary.map((s, i) => [
      String(i + 1),
      s.title,
      String(s.steps),
      s.status === "planned" ? "planned" : `${s.status}: ${s.reason ?? ""}`
    ])
  )
  const parts = p.parts
  const planned = new Set(p.summary.filter((s) => s.status !== "nothing").map((s) => s.part))
  const section = (title: string, print: () => void) => {
    printLine("")
    printLine(`== ${title}`)
    print()
  }
  if (planned.has("firewall-rules"))
    section(PartTitles["firewall-rules"], () => printFirewallPreview(parts["firewall-rules"]))
  if (planned.has("lockdowns-ua"))
    section(PartTitles["lockdowns-ua"], () => printLockdownUaPreview(parts["lockdowns-ua"]))
  if (planned.has("rate-limits")) section(PartTitles["rate-limits"], () => printRateLimitPreview(parts["rate-limits"]))
  if (planned.has("waf"))
    section(PartTitles.waf, () =>
      printLine(
        parts.waf.plan !== undefined
          ? `${parts.waf.plan.before.migration_state} -> ${parts.waf.plan.expected.migration_state}: ${parts.waf.plan.steps[0]?.description ?? ""}`
          : `refused: ${parts.waf.refused ?? ""}`
      )
    )
  for (const n of p.notes.filter((n) => OwnNotes.includes(n.code))) {
    printLine("")
    printLine(n.code === "waf-last-irreversible" ? n.message : `${n.severity}: ${n.message}`)
  }
}

const endText = (p: ZoneLegacyPlan) => {
  const e = p.expected
  const paused = (xs: ReadonlyArray<{ readonly paused: boolean }>) => xs.filter((x) => x.paused).length
  return `zone ${p.zone.name} would have ${e.customRules.length} custom rule(s) and ${e.rateLimitRules.length} rate limiting rule(s); ${e.firewallRules.length} firewall rule(s) (${paused(e.firewallRules)} paused), ${e.lockdowns.length + e.uaRules.length} Zone Lockdown / UA rule(s) (${paused(e.lockdowns) + paused(e.uaRules)} paused), ${e.rateLimits.length} rate limit(s) (${e.rateLimits.filter((r) => r.disabled).length} disabled); WAF migration state ${e.waf.migration_state}.`
}

const sentOf = (keys: ReadonlyArray<string>, part: string) => keys.filter((k) => k.includes(`${part}/`)).length

export const zoneLegacyFlow: MigrationFlow<ZoneLegacyPlan, ZoneLegacyJournal> = {
  command: { what, kind: zoneLegacyDriver.kind, commands: zoneLegacyDriver.commands },
  title: "migration of everything legacy",
  rollbackQuestion: (zone) =>
    `Roll back the migration of everything legacy on zone ${zone}: restore its custom rules, its rate limiting rules and its legacy rules as they were before it?`,
  finishing: (zone) => `finishing the migration of zone ${zone}`,
  journal: zoneLegacyJournal,
  rollback: rollbackZoneLegacy,
  resume: resumeZoneLegacy,
  plan: (z, deleteOld) => planZoneLegacy(z, deleteOld),
  nothing: (plan, zone) =>
    plan.summary.every((s) => s.status === "nothing")
      ? `Nothing to migrate: zone ${zone} has no firewall rules, Zone Lockdown, User Agent Blocking or rate limits (previous version), and its WAF migration is finished.`
      : undefined,
  check: checkZoneLegacy,
  printDryRun: (plan) => {
    printZonePreview(plan)
    printLine("")
    if (plan.refused !== undefined)
      return printLine(`Dry run: nothing was changed. The migration is refused: ${plan.refused}`)
    printRequests(plan.steps)
    printLine("")
    printLine(`and ${endText(plan)}`)
  },
  printPreview: printZonePreview,
  endText,
  question: (plan, zone) => {
    const parts = plan.summary.filter((s) => s.steps > 0)
    return `Migrate everything legacy on zone ${zone}: ${plan.steps.length} request(s) in ${parts.length} part(s) (${parts.map((s) => `${s.title}: ${s.steps}`).join("; ")})${plan.parts.waf.plan !== undefined ? ", the previous WAF last and for good" : ""}?`
  },
  apply: applyZoneLegacy,
  done: (plan, zone, done) => [
    `Migrated zone ${zone}: ${plan.summary
      .filter((s) => s.steps > 0)
      .map((s) => `${s.title}: ${sentOf(done.sent, s.part)} sent`)
      .join("; ")}; ${outcomeText(done)}.`
  ]
}

const printReplay = (r: Effect.Effect.Success<ReturnType<typeof replayZoneLegacy>>) => {
  printLine(
    r.compared === "journal"
      ? `Replay of ${r.file}: each part's rules before the migration (its journal ${r.journal ?? ""}) against the rules now (after)`
      : `Replay of ${r.file}: each part's rules now (before) against the rules the migration leaves (after)`
  )
  for (const p of r.parts) {
    printLine("")
    printLine(`== ${PartTitles[p.part]}`)
    if ("skipped" in p) {
      printLine(`not replayed: ${p.skipped}`)
      continue
    }
    printLine(replayCounts(p.report))
    printLine(`decided: ${decidedText(p.report)}`)
    for (const d of p.report.disagreements)
      printLine(`line ${d.line}: ${d.summary} (differs in ${d.differences.join(", ")})`)
  }
  printLine("")
  printLine(
    `In all: ${r.requests} request(s) compared, ${r.agreed} decided alike, ${r.requests - r.agreed} differently.`
  )
}

const replay = (o: MigrateOptions, file: string) =>
  Effect.gen(function* () {
    const z = yield* resolveZone(o.zone)
    const plan = yield* planZoneLegacy(z, false, opt(o.wafMode))
    // After a finished apply the journal's "before" is replayed (replayZoneLegacy says when).
    const journal = yield* zoneLegacyJournal(z)
    const r = yield* replayFailures(what, replayZoneLegacy(z, plan, file, journal?.journal, targetOn(o)))
    if (o.json) printJson({ zone: z.name, ...r })
    else printReplay(r)
    for (const p of r.parts)
      if ("report" in p) for (const l of notReadLines(p.report.problems)) writeErr(`warning: ${l}\n`)
    const differ = r.requests - r.agreed
    if (differ > 0)
      return yield* Effect.fail(
        new CliFailure({
          text: `error: migrate --replay: ${differ} request(s) of ${file} decided differently`,
          exitCode: 1
        })
      )
  })

export const migrateZone = (o: MigrateOptions) =>
  Effect.gen(function* () {
    const replayFile = opt(o.replay)
    const bad = flowUsage(o, replayFile)
    if (bad !== undefined) return yield* Effect.fail(bad)
    if (replayFile !== undefined) yield* checkReplayFile(what, replayFile)
    const wafMode = opt(o.wafMode)
    const flow: typeof zoneLegacyFlow = {
      ...zoneLegacyFlow,
      plan: (z, deleteOld) => planZoneLegacy(z, deleteOld, wafMode)
    }
    const journals = migrationTargetLayer({ remote: isRemote(o), persistTo: Option.getOrUndefined(o.persistTo) })
    const work = replayFile !== undefined ? replay(o, replayFile) : runFlow(flow, o)
    return yield* runFw(what, o, { zone: o.zone, customRules: true }, Effect.provide(work, journals))
  })
