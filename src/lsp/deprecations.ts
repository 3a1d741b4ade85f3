/**
 * The deprecation scanner's hits as findings (code: the deprecation's id, e.g. `DEP-FR`), for the
 * editor, `edgectl check` and `edgectl scan`'s text and SARIF: one shape, so they cannot disagree.
 * A rename in place (a KV legacy route, an `ip.geoip.*` field) is a code action; a deprecation that
 * an edgectl command moves offers that command.
 */
import { deprecationById } from "../deprecations/catalog.js"
import { platformNowFromEnv } from "../domain/platform-now.js"
import * as nodePath from "node:path"
import { fileURLToPath } from "node:url"
import { modulePinOf } from "../deprecations/scan-files.js"
import { languageOf, scanText, type Hit, type Language } from "../deprecations/scan-text.js"
import { finding, type Finding, type Fix } from "./findings.js"

export const findingOf = (h: Hit): Finding => {
  const fixes: Array<Fix> = []
  if (h.rewrite !== undefined)
    fixes.push({
      title: `Replace with ${h.rewrite.newText}`,
      edits: [{ range: { start: h.rewrite.start, end: h.rewrite.end }, newText: h.rewrite.newText }],
      preferred: true
    })
  const move = deprecationById(h.id)?.move
  if (move !== undefined) fixes.push({ title: `Move it: ${move}`, command: move })
  return finding(h.severity, h.id, h.message, { start: h.start, end: h.end }, { hint: h.hint, fixes })
}

/** The platform's clock: EDGECTL_PLATFORM_NOW when set, else the machine's. */
export const scannerNow = (): Date => platformNowFromEnv() ?? new Date()

// Where an older check of the editor already reports the construct (with its own code action),
// the scanner's finding on the same line is left out: one diagnostic per construct.
const COVERED_BY: Readonly<Record<string, string>> = {
  "firewall-api-unsupported": "DEP-FR",
  "terraform-previous-waf": "DEP-WAFOLD",
  "deprecated-field": "DEP-GEOIP"
}

// A check that reports a deprecation's hit itself, with its fix (the legacy Terraform rewrite: the
// scanner's finding, code and all), covers it too.
const coveredId = (code: string): string | undefined => COVERED_BY[code] ?? (code.startsWith("DEP-") ? code : undefined)

const lineOf = (text: string, at: number) => {
  const start = text.lastIndexOf("\n", at - 1) + 1
  const end = text.indexOf("\n", at)
  return { start, end: end < 0 ? text.length : end }
}

const pathOf = (name: string): string | undefined => {
  if (name.startsWith("file:")) {
    try {
      return fileURLToPath(name)
    } catch {
      return undefined
    }
  }
  return name === "" || name === "-" ? undefined : name
}

/**
 * The deprecation scanner as the editor and `check` call it: the findings in a document (`name`:
 * its path or URI; `fallback`: the language of one whose name says none, e.g. `check --kind`) that
 * the document's other findings (`existing`) do not already report. A Terraform file's provider
 * pin may be in another file of its directory: read once per directory (`pins`).
 */
export const deprecationScanner =
  (pins = new Map<string, string | undefined>()) =>
  (text: string, name: string, existing: ReadonlyArray<Finding>, fallback?: Language): Array<Finding> => {
    const path = pathOf(name)
    const lang = (path !== undefined ? languageOf(path) : undefined) ?? fallback
    if (lang === undefined) return []
    const terraform = lang === "terraform" || lang === "terraform-json"
    const pin = terraform && path !== undefined ? modulePinOf(nodePath.dirname(path), pins) : undefined
    const covered = coveredLines(existing)
    return scanText(text, lang, { now: scannerNow(), pin })
      .filter((h) => {
        // A skip of a legacy product is what edgectl's own migrations write while the product is
        // on (a bypass rule's products): `edgectl scan` lists it, the editor does not flag it.
        if (h.kind === "products") return false
        const line = lineOf(text, h.start)
        return !covered(h.id, line.start, line.end)
      })
      .map(findingOf)
  }

/**
 * Whether a finding of `existing` that covers deprecation `id` overlaps `[start, end]`: per id, the
 * findings sorted by start with the running maximum of their ends, searched by bisection. A 5 MB
 * Terraform file has 27,000 firewall findings and as many hits: compared pairwise, 1.5 s.
 */
const coveredLines = (existing: ReadonlyArray<Finding>) => {
  const byId = new Map<string, { starts: Array<number>; maxEnds: Array<number> }>()
  const sorted = existing.filter((f) => coveredId(f.code) !== undefined).sort((a, b) => a.range.start - b.range.start)
  for (const f of sorted) {
    const id = coveredId(f.code)!
    let e = byId.get(id)
    if (e === undefined) byId.set(id, (e = { starts: [], maxEnds: [] }))
    e.maxEnds.push(Math.max(f.range.end, e.maxEnds[e.maxEnds.length - 1] ?? -Infinity))
    e.starts.push(f.range.start)
  }
  return (id: string, start: number, end: number): boolean => {
    const e = byId.get(id)
    if (e === undefined) return false
    // The last finding that starts at or before `end`: any before it ends no later than the running maximum.
    let lo = 0
    let hi = e.starts.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (e.starts[mid]! <= end) lo = mid + 1
      else hi = mid
    }
    return lo > 0 && e.maxEnds[lo - 1]! >= start
  }
}

export type DeprecationScanner = ReturnType<typeof deprecationScanner>
