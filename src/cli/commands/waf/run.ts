/** What the `edgectl waf` commands do (loaded on use): each calls the WafMigration service. */
import { jsonDepthOver, JsonMaxDepth } from "../../../domain/json-depth.js"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { ClientEnv } from "../../../api/client.js"
import { InvalidInput, type V4Error } from "../../../domain/errors.js"
import { describeParseError } from "../../../domain/parse-issues.js"
import { WafConfig, type MigrationStatus } from "../../../domain/waf.js"
import * as Waf from "../../../services/waf-migration-service.js"
import { notReadLines, noRequestProblem } from "../../../rules/traffic-line.js"
import { replaySummary, type ReplayReport } from "../../../waf/replay.js"
import type { Verdict } from "../../../waf/engines.js"
import { readInput, STDIO, writeOutput } from "../../files.js"
import { writeProblem } from "../../../domain/file-errors.js"
import { inputFile } from "../../options.js"
import { quote } from "../../hints.js"
import { clip, printFields, printJson, printLine, printTable } from "../../output.js"
import { progressLine } from "../../progress.js"
import { confirmOrRefuse } from "../../prompt.js"
import { CliFailure, run, targetOn, usage, type TargetFlags } from "../../run.js"
import { writeErr } from "../../stdio.js"
import type { Parsed } from "./options.js"

/** The options every WAF command takes: output, target and the zone. */
type Flags = Parsed<"status">

const on = targetOn

const hint =
  (zone: string, o: TargetFlags) =>
  (e: V4Error): string | undefined => {
    const z = `--zone ${quote(zone)}${on(o)}`
    switch (e._tag) {
      case "NotFound":
        return /^override /.test(e.message)
          ? `run \`edgectl waf overrides list ${z}\` to see the ids there are`
          : undefined
      case "UriOverridePresent":
        return `list them with \`edgectl waf overrides list ${z}\`, then \`edgectl waf overrides delete --zone ${quote(zone)} --all${on(o)}\``
      case "TooManyRules":
      case "ExpressionTooLong":
        return `the platform's support migrates such zones; \`edgectl waf preview ${z}\` lists the rules concerned`
      case "ValidationModeNotAllowed":
        return "migrate with --mode pending (pro and business zones finish in one step)"
      case "MigrationFinished":
        return `the zone already runs WAF Managed Rules; see \`edgectl waf status ${z}\``
      case "Incompatible":
        return `see the reasons with \`edgectl waf check ${z}\``
      default:
        return undefined
    }
  }

/** The input files of the waf commands that take one (--traffic, --config): there, before the zone is looked up. */
const inputFiles = (o: Flags & Partial<Pick<Parsed<"replay">, "traffic" | "config">>) =>
  Effect.all([
    o.traffic !== undefined ? inputFile("traffic", o.traffic) : Effect.void,
    o.config !== undefined && Option.isSome(o.config) ? inputFile("config", o.config.value) : Effect.void
  ])

export const withZone = <A>(
  what: string,
  o: Flags,
  f: (z: Waf.WafZone) => Effect.Effect<A, V4Error | CliFailure, ClientEnv>
) =>
  o.zone.trim() === ""
    ? Effect.fail(usage("--zone needs a value, got an empty string"))
    : Effect.zipRight(inputFiles(o), run(what, o, Effect.flatMap(Waf.resolveWafZone(o.zone), f), hint(o.zone, o)))

const warn = (warnings: ReadonlyArray<string>) => {
  for (const w of warnings) writeErr(`warning: ${w}\n`)
}

export const STATE_TEXT: Record<string, string> = {
  start: "start (the previous WAF only)",
  validation: "validation (both versions run, the new one first)",
  finished: "finished (WAF Managed Rules only; irreversible)"
}

const printStatus = (z: Waf.WafZone, s: MigrationStatus) =>
  printFields([
    ["zone", `${z.name} (${z.id}), plan ${s.plan}`],
    ["state", STATE_TEXT[s.migration_state] ?? s.migration_state],
    ["previous WAF", s.old_waf_status],
    ["new WAF", s.new_waf_status],
    [
      "validation",
      s.validation_mode_allowed
        ? "available (enterprise)"
        : s.migration_state === "finished"
          ? "-"
          : "not available on this plan"
    ],
    ["since", s.created ?? "-"]
  ])

export const readConfig = (file: string) =>
  Effect.gen(function* () {
    const text = yield* readInput("config", file)
    if (jsonDepthOver(text, JsonMaxDepth)) {
      return yield* Effect.fail(
        new CliFailure({
          text: `error: --config: ${file} is nested more than ${JsonMaxDepth} levels deep (arrays and objects), the limit is ${JsonMaxDepth}`,
          exitCode: 1
        })
      )
    }
    const parsed = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (e) =>
        new CliFailure({ text: `error: --config: ${file} is not JSON: ${(e as Error).message}`, exitCode: 1 })
    })
    // Accept the config operation's whole answer too ({result: {...}}).
    const inner =
      typeof parsed === "object" && parsed !== null && "result" in parsed
        ? (parsed as { result: unknown }).result
        : parsed
    return yield* Schema.decodeUnknown(WafConfig)(inner).pipe(
      Effect.mapError(
        (e) =>
          new CliFailure({
            text: `error: --config: ${file} is not a configuration ({name, rules}): ${describeParseError(e)}`,
            exitCode: 1
          })
      )
    )
  })

const verdictText = (v: Verdict) =>
  v.acted
    ? `${v.action} by ${v.rules.map((r) => r.id).join(" + ")}`
    : v.skippedBy
      ? `pass (skipped by ${v.skippedBy.source} ${v.skippedBy.id})`
      : v.logged.length > 0
        ? `pass (logged by ${v.logged.map((r) => r.id).join(", ")})`
        : "pass"

const printReplay = (file: string, r: ReplayReport, limit: number) => {
  for (const l of replaySummary(file, r)) printLine(l)
  // `--limit 0` asks for the counts alone, and how many were not shown: no table of requests, no table of rules.
  if (r.disagreements.length > 0 && limit === 0) printLine(`... ${r.disagreements.length} more (--limit N, or --json)`)
  if (r.disagreements.length > 0 && limit > 0) {
    printLine("")
    printTable(
      ["LINE", "REQUEST", "KIND", "PREVIOUS", "NEW"],
      r.disagreements
        .slice(0, limit)
        .map((x) => [
          x.line,
          clip(x.id ? `${x.id}: ${x.summary}` : x.summary, 70),
          x.kind,
          verdictText(x.previous),
          verdictText(x.next)
        ])
    )
    if (r.disagreements.length > limit) printLine(`... ${r.disagreements.length - limit} more (--limit N, or --json)`)
    printLine("")
    printTable(
      ["VERSION", "RULE", "DESCRIPTION", "DISAGREEMENTS"],
      r.topRules.map((t) => [t.version, t.rule.id, `${t.rule.source}: ${t.rule.description}`, t.count])
    )
  }
}

export const status = (o: Parsed<"status">) =>
  withZone("waf status", o, (z) =>
    Effect.map(Waf.status(z), (s) => (o.json ? printJson({ zone: z, ...s }) : printStatus(z, s)))
  )

export const check = (o: Parsed<"check">) =>
  withZone("waf check", o, (z) =>
    Effect.map(Waf.check(z, !o.phaseOne), (c) => {
      if (o.json) return printJson(c)
      printLine(
        `${z.name} is ${c.compatible ? "compatible" : "not compatible"} with the migration (${o.phaseOne ? "phase 1" : "phase 2"}; state ${c.migration_state})`
      )
      for (const r of c.reasons ?? []) printLine(`  - ${r.message}${r.blocking ? "" : " (phase 1 only)"}`)
    })
  )

export const config = (o: Parsed<"config">) =>
  withZone("waf config", o, (z) =>
    Effect.map(Waf.config(z), (c) => {
      if (o.json) return printJson(c)
      printTable(
        ["#", "ACTION", "ENABLED", "EXPRESSION", "PARAMETERS"],
        c.rules.map((r, i) => [
          i + 1,
          r.action,
          r.enabled !== false,
          r.expression.length > 60 ? `${r.expression.slice(0, 57)}...` : r.expression,
          JSON.stringify(r.action_parameters ?? {})
        ])
      )
    })
  )

export const preview = (o: Parsed<"preview">) =>
  withZone("waf preview", o, (z) =>
    Effect.map(Waf.preview(z), (p) => {
      warn(p.warnings)
      if (o.json)
        return printJson({
          zone: z,
          rows: p.plan.rows,
          not_migrated: p.plan.notMigrated,
          blockers: p.blockers,
          firewall_rules_to_migrate: p.plan.firewallRulesToMigrate,
          config: p.config
        })
      printLine(`WAF migration preview of ${z.name} (plan ${z.plan}, state ${p.previous.migration_state})`)
      printLine("")
      printTable(
        ["PREVIOUS SETTING", "PREVIOUS", "NEW EQUIVALENT", "NOTE"],
        p.plan.rows.map((r) => [r.setting, r.previous, r.next, r.note ?? ""])
      )
      printLine("")
      if (p.plan.notMigrated.length === 0) printLine("Everything is migrated.")
      else
        printTable(
          ["NOT MIGRATED", "WHY"],
          p.plan.notMigrated.map((n) => [n.what, n.why])
        )
      if (p.blockers.length > 0) {
        printLine("")
        printLine("The migration cannot go on:")
        for (const b of p.blockers) printLine(`  - ${b.message}`)
      }
    })
  )

export const overridesList = (o: Parsed<"overridesList">) =>
  withZone("waf overrides list", o, (z) =>
    Effect.map(Waf.listOverrides(z), (list) => {
      if (o.json) return printJson(list)
      if (list.length === 0) return printLine(`Zone ${z.name} has no URI-based WAF overrides.`)
      printTable(
        ["ID", "URLS", "PRIORITY", "PAUSED", "RULES", "GROUPS", "DESCRIPTION"],
        list.map((x) => [
          x.id,
          x.urls.join(" "),
          x.priority,
          x.paused,
          JSON.stringify(x.rules ?? {}),
          JSON.stringify(x.groups ?? {}),
          x.description
        ])
      )
    })
  )

export const overridesDelete = (o: Parsed<"overridesDelete">) =>
  o.all === o.ids.length > 0
    ? Effect.fail(
        usage(o.all ? "give override ids or --all, not both" : "give the ids of the overrides to delete, or --all")
      )
    : withZone("waf overrides delete", o, (z) =>
        Effect.gen(function* () {
          const ids = o.all ? (yield* Waf.listOverrides(z)).map((x) => x.id) : [...o.ids]
          if (ids.length === 0)
            return o.json ? printJson({ deleted: [] }) : printLine(`Zone ${z.name} has no URI-based WAF overrides.`)
          const yes = yield* confirmOrRefuse(
            `Delete ${ids.length} URI-based WAF override(s) of zone ${z.name} (${ids.join(", ")})?`,
            { yes: o.yes },
            { what: "waf overrides delete", doing: "deleting", hint: "pass --yes to delete them" }
          )
          if (!yes)
            return yield* Effect.fail(
              new CliFailure({ text: "error: waf overrides delete: cancelled; nothing was deleted", exitCode: 1 })
            )
          for (const id of ids) yield* Waf.deleteOverride(z, id)
          if (o.json) return printJson({ deleted: ids })
          printLine(`Deleted ${ids.length} override(s) of zone ${z.name}: ${ids.join(", ")}`)
        })
      )

export const replay = (o: Parsed<"replay">) =>
  withZone("waf replay", o, (z) =>
    Effect.gen(function* () {
      const { document: previous, warnings } = yield* Waf.exportWithWarnings(z)
      warn(warnings)
      const cfg = Option.isSome(o.config)
        ? yield* readConfig(o.config.value)
        : o.against === "deployed"
          ? yield* Effect.map(Waf.deployed(z), (r) => ({ name: r.name, rules: r.rules }))
          : yield* Waf.config(z)
      const bar = progressLine({ json: o.json })
      // `-` is standard input, read through its /dev path as any other stream (src/cli/files.ts).
      const traffic = o.traffic === STDIO ? "/dev/stdin" : o.traffic
      const given = Option.getOrUndefined(o.config)
      const report = yield* Waf.replayFile(previous, cfg, traffic, (done, total) =>
        bar.update("replaying", done, total, "bytes")
      ).pipe(
        Effect.ensuring(Effect.sync(() => bar.clear())),
        // The configuration the user gave is named as they gave it.
        Effect.mapError((e) =>
          given !== undefined && e.message.startsWith("the new configuration: ")
            ? new InvalidInput({
                ...e,
                message: `--config ${given}: ${e.message.slice("the new configuration: ".length)}`
              })
            : e
        )
      )
      // A file of no request compares nothing: a failure, not an agreement.
      const nothing = noRequestProblem(o.traffic, report)
      if (nothing !== undefined)
        return yield* Effect.fail(new CliFailure({ text: `error: --traffic: ${nothing}`, exitCode: 1 }))
      if (o.json)
        printJson({
          zone: z,
          file: o.traffic,
          against: Option.isSome(o.config) ? "file" : o.against,
          ...report,
          disagreements: report.disagreements.slice(0, o.limit)
        })
      else printReplay(o.traffic, report, o.limit)
      for (const l of notReadLines(report.problems)) writeErr(`warning: ${l}\n`)
    })
  )

export const exportPrevious = (o: Parsed<"exportPrevious">) =>
  withZone("waf export", o, (z) =>
    Effect.flatMap(
      Effect.tap(Waf.exportWithWarnings(z), (e) => Effect.sync(() => warn(e.warnings))),
      ({ document: doc }) =>
        // `-o -` is standard output, the document alone, as without -o.
        Option.isNone(o.output) || o.output.value === STDIO
          ? Effect.sync(() => printJson(doc))
          : Effect.try({
              try: () => {
                writeOutput(o.output.pipe(Option.getOrThrow), `${JSON.stringify(doc, null, 2)}\n`)
                const summary = {
                  file: Option.getOrThrow(o.output),
                  packages: doc.packages.length,
                  groups: doc.groups.length,
                  rules: doc.rules.length,
                  overrides: doc.overrides.length,
                  firewall_rules: doc.firewall_rules.length,
                  page_rules: doc.page_rules.length
                }
                if (o.json) printJson(summary)
                else
                  printLine(
                    `Wrote the previous WAF of ${z.name} to ${summary.file}: ${summary.packages} packages, ${summary.groups} groups, ${summary.rules} rules, ${summary.overrides} overrides, ${summary.firewall_rules} bypass firewall rules, ${summary.page_rules} page rules.`
                  )
              },
              catch: (e) =>
                new CliFailure({
                  text: `error: waf export: cannot write ${Option.getOrThrow(o.output)}: ${writeProblem(Option.getOrThrow(o.output), e)}`,
                  exitCode: 1
                })
            })
    )
  )
