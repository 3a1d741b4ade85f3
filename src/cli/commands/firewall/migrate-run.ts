/**
 * What `edgectl firewall migrate` does: firewall rules -> WAF custom rules (issue 21). The mapping is
 * src/firewall's `migrateFirewallRules`, the replay its `makeCustomRulesReplayer`; here the steps are
 * planned once as a list of requests, which the dry run prints and the apply sends, so that the two
 * cannot differ. What is migrated and what is kept is planned by the service the TUI uses too
 * (src/services/custom-rules-migration-service.ts): rules migrated before (a custom rule has their
 * id as `ref`) are left as they are, and custom rules already on the zone stay, after the new ones.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { call } from "../../../api/client.js"
import { FirewallEndpoints } from "../../../api/contract-firewall.js"
import type { CustomRule, CustomRulesMigration } from "../../../domain/custom-rule.js"
import type { Rule } from "../../../domain/firewall.js"
import { makeCustomRulesReplayer, type ReplayVerdict } from "../../../firewall/custom-rules-replay.js"
import * as Fw from "../../../services/firewall-service.js"
import * as Rs from "../../../services/rulesets-service.js"
import {
  entrypointBody,
  previewMigration,
  type MigrationPreview
} from "../../../services/custom-rules-migration-service.js"
import { resolveZone } from "../../../services/zones-service.js"
import { inputFile, opt } from "../../options.js"
import { clip, printJson, printLine, printTable } from "../../output.js"
import { confirmOrRefuse } from "../../prompt.js"
import { CliFailure, usage } from "../../run.js"
import { runFw } from "./common.js"
import type { Parsed } from "./inputs.js"
import { writeErr } from "../../stdio.js"

type Step =
  | { readonly kind: "put-entrypoint"; readonly body: { readonly rules: ReadonlyArray<Rs.CustomRuleInput> } }
  | { readonly kind: "pause-rule"; readonly rule: string; readonly body: Record<string, unknown> }
  | { readonly kind: "delete-rule"; readonly rule: string }

const ENTRYPOINT = "rulesets/phases/http_request_firewall_custom/entrypoint"

/** A step as the platform receives it. */
const asRequest = (zoneId: string, s: Step) =>
  s.kind === "put-entrypoint"
    ? { method: "PUT", path: `/zones/${zoneId}/${ENTRYPOINT}`, body: s.body }
    : s.kind === "pause-rule"
      ? { method: "PUT", path: `/zones/${zoneId}/firewall/rules/${s.rule}`, body: s.body }
      : { method: "DELETE", path: `/zones/${zoneId}/firewall/rules/${s.rule}?delete_filter_if_unused=true` }

const send = (zoneId: string, s: Step) =>
  s.kind === "put-entrypoint"
    ? Effect.asVoid(Rs.putCustomRules(zoneId, s.body))
    : s.kind === "pause-rule"
      ? Effect.asVoid(
          call(FirewallEndpoints.updateRule, { path: { zone_id: zoneId, rule_id: s.rule }, payload: s.body })
        )
      : Effect.asVoid(Fw.deleteRule(zoneId, s.rule, { deleteFilterIfUnused: true }))

/**
 * The platform checks what it would be sent without saving it (`dry_run=true`, which the rulesets
 * API takes): the custom phase's new entry point, the step a refusal (a quota, an expression) can
 * stop. Run before the dry run prints and before the apply asks, so both fail alike, writing nothing.
 */
const checkFirst = (zoneId: string, steps: ReadonlyArray<Step>) =>
  Effect.forEach(
    steps,
    (s) => (s.kind === "put-entrypoint" ? Effect.asVoid(Rs.putCustomRules(zoneId, s.body, true)) : Effect.void),
    { discard: true }
  )

/** The whole rule with `paused: true`, as the firewall rules API takes a rule (its filter by id). */
const pauseBody = (r: Rule): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries({
      id: r.id,
      action: r.action,
      priority: r.priority,
      paused: true,
      description: r.description,
      ref: r.ref,
      products: r.products,
      filter: { id: r.filter.id }
    }).filter(([, v]) => v !== undefined)
  )

const plan = (p: MigrationPreview, deleteOld: boolean): Array<Step> => {
  const migrated = new Set(p.migration.entries.filter((e) => e.custom_rule !== null).map((e) => e.firewall_rule))
  const steps: Array<Step> = [{ kind: "put-entrypoint", body: entrypointBody(p) }]
  for (const r of p.firewallRules) {
    if (!migrated.has(r.id)) continue
    if (deleteOld) steps.push({ kind: "delete-rule", rule: r.id })
    else if (!r.paused) steps.push({ kind: "pause-rule", rule: r.id, body: pauseBody(r) })
  }
  return steps
}

const customText = (c: CustomRule) => {
  const p = c.action_parameters
  const what =
    c.action !== "skip"
      ? c.action
      : p?.ruleset === "current"
        ? "skip (the remaining custom rules)"
        : `skip (${(p?.products ?? []).join(", ")})`
  return `${what}${c.enabled === false ? ", disabled" : ""}`
}

const oldText = (r: Rule) =>
  `${r.action}${r.products ? ` (${r.products.join(", ")})` : ""}${r.priority !== null ? `, priority ${r.priority}` : ""}${r.paused ? ", paused" : ""}`

const printPreview = (zone: string, rules: ReadonlyArray<Rule>, m: CustomRulesMigration, before: number) => {
  printLine(`Migration of zone ${zone}: ${rules.length} firewall rule(s) -> ${m.rules.length} custom rule(s)`)
  if (before > 0)
    printLine(
      `${before} firewall rule(s) were migrated before (a custom rule has their id as its ref): left as they are, their custom rules kept.`
    )
  printLine("")
  const byId = new Map(rules.map((r) => [r.id, r]))
  const order = [...m.entries].sort((a, b) => (a.custom_rule ?? Infinity) - (b.custom_rule ?? Infinity))
  printTable(
    ["#", "FIREWALL RULE", "WAS", "BECOMES", "DESCRIPTION"],
    order.map((e) => {
      const r = byId.get(e.firewall_rule)!
      return [
        e.custom_rule === null ? "-" : e.custom_rule + 1,
        r.id,
        oldText(r),
        e.custom_rule === null ? "(not migrated)" : customText(m.rules[e.custom_rule]!),
        clip(r.description ?? "", 32)
      ]
    })
  )
  if (m.notes.length > 0) {
    printLine("")
    for (const n of m.notes) printLine(`${n.severity}: ${n.message}`)
  }
}

const verdictText = (v: ReplayVerdict) => {
  const decided = v.action === null ? "none" : `${v.action}${v.rule ? ` by ${v.rule.id}` : ""}`
  const skipped = v.skipped.length > 0 ? `; skips ${v.skipped.join(", ")}` : ""
  const logged = v.logged.length > 0 ? `; logged by ${v.logged.map((r) => r.id).join(", ")}` : ""
  return `${decided}${skipped}${logged}`
}

const replay = (o: Parsed<"migrate">, file: string, rules: ReadonlyArray<Rule>, m: CustomRulesMigration) =>
  Effect.gen(function* () {
    const text = yield* Effect.try({
      try: () => fs.readFileSync(file, "utf8"),
      catch: (e) =>
        new CliFailure({ text: `error: --replay: cannot read ${file}: ${(e as Error).message}`, exitCode: 1 })
    })
    const r = makeCustomRulesReplayer(rules, m.rules)
    text.split("\n").forEach((l, i) => r.line(l, i + 1))
    const report = r.report()
    if (o.json) printJson({ zone: o.zone, ...report })
    else {
      printLine(
        `${report.requests} request(s): ${report.agreed} decided alike, ${report.requests - report.agreed} differently (action ${report.counts.action}, skipped ${report.counts.skipped}, logged ${report.counts.logged})`
      )
      if (report.disagreements.length > 0) {
        printLine("")
        printTable(
          ["LINE", "REQUEST", "DIFFERS IN", "FIREWALL RULES", "CUSTOM RULES"],
          report.disagreements.map((d) => [
            d.line,
            clip(d.id ? `${d.id}: ${d.summary}` : d.summary, 60),
            d.differences.join(", "),
            verdictText(d.firewall),
            verdictText(d.custom)
          ])
        )
      }
    }
    for (const p of report.problems) writeErr(`warning: line ${p.line} skipped: ${p.message}\n`)
    // Like diff(1): 1 says "they differ", 2 stays the usage error.
    if (report.agreed < report.requests)
      return yield* Effect.fail(
        new CliFailure({
          text: `firewall migrate --replay: ${report.requests - report.agreed} request(s) decided differently`,
          exitCode: 1
        })
      )
  })

export const migrate = (o: Parsed<"migrate">) =>
  Effect.gen(function* () {
    const what = "firewall migrate"
    if (o.zone.trim() === "") return yield* Effect.fail(usage("--zone needs a value, got an empty string"))
    const replayFile = opt(o.replay)
    if (replayFile !== undefined && (o.dryRun || o.deleteOld || o.yes))
      return yield* Effect.fail(
        usage("--replay only compares; it cannot be used with --dry-run, --delete-old or --yes")
      )
    if (replayFile !== undefined) yield* inputFile("replay", replayFile)
    return yield* runFw(
      what,
      o,
      { zone: o.zone },
      Effect.gen(function* () {
        const z = yield* resolveZone(o.zone)
        const p = yield* previewMigration(z.id, z.plan?.legacy_id)
        const m = p.migration
        const rules = p.firewallRules.filter((r) => !p.alreadyMigrated.includes(r))
        if (replayFile !== undefined) return yield* replay(o, replayFile, rules, m)
        const steps = plan(p, o.deleteOld)
        const keptRules = p.existing.length
        const requests = steps.map((s) => asRequest(z.id, s))
        const oldFate = o.deleteOld ? "deleted" : "paused"
        const endState = {
          custom_rules: m.rules.length + keptRules,
          custom_rules_kept: keptRules,
          firewall_rules_migrated: m.entries.filter((e) => e.custom_rule !== null).length,
          firewall_rules_left: m.entries.filter((e) => e.custom_rule === null).map((e) => e.firewall_rule),
          firewall_rules_migrated_before: p.alreadyMigrated.map((r) => r.id),
          old_rules: oldFate
        }
        const endText = `zone ${z.name} would have ${endState.custom_rules} custom rule(s)${keptRules > 0 ? ` (${keptRules} already there, kept after the migrated ones)` : ""}; ${endState.firewall_rules_migrated} firewall rule(s) ${oldFate}${endState.firewall_rules_left.length > 0 ? `, ${endState.firewall_rules_left.length} not migrated left as they are (${endState.firewall_rules_left.join(", ")})` : ""}.`
        yield* checkFirst(z.id, steps)
        if (o.dryRun) {
          if (o.json) return printJson({ dry_run: true, zone: z.name, migration: m, requests, end_state: endState })
          printPreview(z.name, rules, m, p.alreadyMigrated.length)
          printLine("")
          printLine(`Dry run: nothing was changed. The migration would send ${requests.length} request(s):`)
          for (const r of requests) {
            printLine("")
            printLine(`${r.method} ${r.path}`)
            if ("body" in r) printLine(JSON.stringify(r.body, null, 2))
          }
          printLine("")
          printLine(`and ${endText}`)
          return
        }
        if (!o.json) {
          printPreview(z.name, rules, m, p.alreadyMigrated.length)
          printLine("")
        }
        const yes = yield* confirmOrRefuse(
          `Write ${m.rules.length} custom rule(s) on zone ${z.name} and ${o.deleteOld ? "delete" : "pause"} ${endState.firewall_rules_migrated} firewall rule(s)?`,
          { yes: o.yes },
          { what, doing: `migrating zone ${z.name}`, hint: "pass --yes to migrate, or --dry-run to see the requests" }
        )
        if (!yes)
          return yield* Effect.fail(
            new CliFailure({ text: `error: ${what}: cancelled; nothing was changed`, exitCode: 1 })
          )
        for (const s of steps) yield* send(z.id, s)
        const written = yield* Rs.getCustomRules(z.id)
        if (o.json)
          return printJson({
            dry_run: false,
            zone: z.name,
            migration: m,
            requests,
            end_state: endState,
            ruleset: written
          })
        printLine(
          `Migrated zone ${z.name}: the custom rules entry point (version ${written?.version}) has ${written?.rules.length ?? 0} rule(s); ${endState.firewall_rules_migrated} firewall rule(s) ${oldFate}.`
        )
        if (endState.firewall_rules_left.length > 0)
          printLine(`Not migrated, left as they are: ${endState.firewall_rules_left.join(", ")} (see the notes above).`)
      })
    )
  })
