/**
 * The deprecation scanner's hits as findings (code: the deprecation's id, e.g. `DEP-FR`), for the
 * editor, `edgectl check` and `edgectl scan`'s text and SARIF: one shape, so they cannot disagree.
 * A rename in place (a KV legacy route, an `ip.geoip.*` field) is a code action; a deprecation that
 * an edgectl command moves offers that command.
 */
import { deprecationById } from "../deprecations/catalog.js"
import { platformNowFromEnv } from "../domain/platform-now.js"
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

/**
 * The deprecations in a document the editor or `check` holds, by its name's language (`fallback`:
 * the language of a document whose name says none, e.g. `check --kind`); `pin`: its module's
 * provider constraint, when another file holds it.
 */
export const deprecationFindings = (text: string, name: string, fallback?: Language, pin?: string): Array<Finding> => {
  const lang = languageOf(name.replace(/^file:\/\//, "")) ?? fallback
  if (lang === undefined) return []
  return scanText(text, lang, { now: scannerNow(), pin }).map(findingOf)
}
