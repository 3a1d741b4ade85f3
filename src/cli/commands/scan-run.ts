/**
 * What `edgectl scan` does (loaded when it runs): scans the paths, prints the findings as `check`
 * does (text, SARIF: one writer, src/lsp/report.ts) or as JSON with each deprecation's dates and
 * state, and with `--zone` the zone's live use of legacy products.
 */
import * as Effect from "effect/Effect"
import { deprecationById, severityOf, stateOn, stateText, type DeprecationState } from "../../deprecations/catalog.js"
import { scanPaths, type ScanRun } from "../../deprecations/scan-files.js"
import type { Hit } from "../../deprecations/scan-text.js"
import { shellWord } from "../../domain/shell-word.js"
import { findingOf, scannerNow } from "../../lsp/deprecations.js"
import { LineIndex } from "../../lsp/position.js"
import { renderSarif, renderText, type FileResult } from "../../lsp/report.js"
import { legacyUseOf, type LegacyUse } from "../../services/legacy-use-service.js"
import { resolveZone } from "../../services/zones-service.js"
import { version } from "../../version.js"
import { opt } from "../options.js"
import { printJson, printLine, useColor } from "../output.js"
import { CliFailure, run, targetOn, usage } from "../run.js"
import { writeErr, writeOut } from "../stdio.js"
import type { ScanOptions } from "./scan-options.js"

const stateFields = (s: DeprecationState) =>
  s.state === "past"
    ? { state: "past", daysAgo: s.daysAgo }
    : s.state === "upcoming"
      ? { state: "upcoming", daysLeft: s.daysLeft }
      : { state: "undated" }

/** One finding as JSON: where, what, and the deprecation's facts on the clock. */
const hitJson = (path: string, lines: LineIndex, h: Hit) => {
  const d = deprecationById(h.id)!
  const s = lines.position(h.start)
  const e = lines.position(h.end)
  return {
    id: h.id,
    severity: h.severity,
    path,
    line: s.line + 1,
    column: s.character + 1,
    endLine: e.line + 1,
    endColumn: e.character + 1,
    found: h.what,
    message: h.message,
    title: d.title,
    deprecated: d.deprecated,
    endOfLife: d.endOfLife,
    ...stateFields(h.state),
    derived: h.derived,
    replacement: d.replacement,
    ...(d.move !== undefined ? { command: d.move } : {}),
    ...(d.action !== undefined ? { codeAction: d.action } : {}),
    ...(h.rewrite !== undefined ? { fix: { replace: h.rewrite.newText } } : {})
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

interface Tally {
  past: number
  upcoming: number
  undated: number
}

const tally = (states: ReadonlyArray<DeprecationState>): Tally => ({
  past: states.filter((s) => s.state === "past").length,
  upcoming: states.filter((s) => s.state === "upcoming").length,
  undated: states.filter((s) => s.state === "undated").length
})

const tallyText = (t: Tally) =>
  `${t.past} past ${t.past === 1 ? "its" : "their"} end of life, ${t.upcoming} upcoming, ${t.undated} without an end date`

/** The zone's products with their deprecation's state, and the command that moves each (on the same target). */
const zoneReport = (zone: string, uses: ReadonlyArray<LegacyUse>, now: Date, on: string) =>
  uses.map((u) => {
    const d = deprecationById(u.deprecation)!
    const state = stateOn(d, now)
    return {
      id: d.id,
      product: u.product,
      title: d.title,
      severity: severityOf(state),
      deprecated: d.deprecated,
      endOfLife: d.endOfLife,
      ...stateFields(state),
      stateText: stateText(d, state),
      replacement: d.replacement,
      ...(d.move !== undefined ? { command: `${d.move.replace("ZONE", shellWord(zone))}${on}` } : {}),
      count: u.items.length,
      items: u.items,
      _state: state
    }
  })

const printZone = (zone: string, rows: ReturnType<typeof zoneReport>) => {
  const used = rows.filter((r) => r.count > 0)
  if (used.length === 0) {
    printLine(`Zone ${zone} uses none of the legacy products edgectl knows (${rows.map((r) => r.product).join(", ")}).`)
    return
  }
  const blocks = used.map((r) => {
    const lines = [
      `${r.severity}[${r.id}]: zone ${zone} uses ${r.product} (${plural(r.count, "item")}): ${r.title}, ${r.stateText}`,
      ...r.items.map((i) => `  ${i.id}  ${i.description}`),
      `  = hint: ${r.replacement}${r.command !== undefined ? `; move it with \`${r.command}\`` : ""}`
    ]
    return lines.join("\n")
  })
  printLine(blocks.join("\n\n"))
}

export const scanRun = (o: ScanOptions) =>
  Effect.gen(function* () {
    const given = opt(o.format)
    if (o.json && given !== undefined && given !== "json")
      return yield* Effect.fail(usage(`--json is --format json; it cannot be used with --format ${given}`))
    const format = o.json ? "json" : (given ?? "text")
    const bad = o.paths.find((p) => p.startsWith("-") && p.length > 1)
    if (bad !== undefined) return yield* Effect.fail(usage(`scan: unknown option ${bad}`))
    const zone = opt(o.zone)
    if (zone !== undefined && zone.trim() === "")
      return yield* Effect.fail(usage("--zone needs a value, got an empty string"))
    if (zone !== undefined && format === "sarif")
      return yield* Effect.fail(
        usage("--format sarif reports findings in files; a zone's live use has none (use --format json with --zone)")
      )
    const now = yield* Effect.try({
      try: scannerNow,
      catch: (e) => new CliFailure({ text: `error: ${(e as Error).message}`, exitCode: 2 })
    })
    const paths = o.paths.length > 0 ? o.paths : zone === undefined ? ["."] : []
    const scanned: ScanRun = paths.length > 0 ? scanPaths(paths, now) : { files: [], scanned: 0, problems: [] }
    const zoneRows =
      zone === undefined
        ? undefined
        : yield* run(
            "scan --zone",
            o,
            Effect.gen(function* () {
              const z = yield* resolveZone(zone)
              return zoneReport(zone, yield* legacyUseOf(z), now, targetOn(o))
            })
          )

    const fileTally = tally(scanned.files.flatMap((f) => f.hits.map((h) => h.state)))
    const zoneTally = tally((zoneRows ?? []).filter((r) => r.count > 0).map((r) => r._state))
    const results: Array<FileResult> = scanned.files.map((f) => ({
      path: f.path,
      text: f.text,
      kind: f.language,
      findings: f.hits.map(findingOf)
    }))

    if (format === "json") {
      printJson({
        now: now.toISOString(),
        ...(paths.length > 0
          ? {
              scanned: scanned.scanned,
              ...fileTally,
              findings: scanned.files.flatMap((f) => {
                const lines = new LineIndex(f.text)
                return f.hits.map((h) => hitJson(f.path, lines, h))
              })
            }
          : {}),
        ...(zoneRows !== undefined
          ? { zone: { name: zone, products: zoneRows.map(({ _state, ...r }) => (void _state, r)) } }
          : {})
      })
    } else if (format === "sarif") writeOut(`${JSON.stringify(renderSarif(results, version()), null, 2)}\n`)
    else {
      if (results.length > 0) writeOut(renderText(results, useColor()))
      if (zoneRows !== undefined) {
        if (results.length > 0) writeOut("\n")
        printZone(zone!, zoneRows)
      }
    }

    // As `check` says it: each path not scanned on a line of its own, counted in the summary; a
    // command that scanned nothing else says only those lines.
    const notScanned = scanned.problems.map((p) => `error: ${p}`)
    if (paths.length > 0 && scanned.scanned === 0 && notScanned.length > 0 && zoneRows === undefined)
      return yield* Effect.fail(new CliFailure({ text: notScanned.join("\n"), exitCode: 1 }))
    const summary: Array<string> = []
    if (paths.length > 0)
      summary.push(
        `${plural(scanned.scanned, "file")} scanned: ${tallyText(fileTally)}${notScanned.length > 0 ? `, ${plural(notScanned.length, "file")} not scanned` : ""}`
      )
    if (zoneRows !== undefined)
      summary.push(
        `zone ${zone}: ${plural(zoneRows.filter((r) => r.count > 0).length, "legacy product")} in use, ${zoneTally.past} past ${zoneTally.past === 1 ? "its" : "their"} end of life`
      )
    for (const line of notScanned) writeErr(`${line}\n`)
    const failed = fileTally.past + zoneTally.past > 0 || scanned.problems.length > 0
    if (failed) return yield* Effect.fail(new CliFailure({ text: `error: scan: ${summary.join("; ")}`, exitCode: 1 }))
    if (format === "text") writeErr(`${summary.join("; ")}\n`)
  })
