/**
 * WAF configurations: the entry point update's body and the config operation's result
 * (`{name, rules: [...]}`). Each rule is checked by `src/waf`'s body check (unknown managed
 * ruleset ids, categories, actions, the final versus validation update's id/version/ref rule),
 * so the editor and the platform cannot disagree; the assistant adds what the platform accepts
 * but is probably a mistake (thresholds other than the documented ones, skip rules placed late).
 */
import * as Either from "effect/Either"
import { getNodeValue, type Node } from "jsonc-parser"
import { checkEntrypointBody } from "../waf/body.js"
import { CATALOG, OWASP_SCORE_RULE } from "../waf/catalog.js"
import type { MigrationMode } from "../waf/state.js"
import { finding, type Finding, type Fix } from "./findings.js"
import { nameNode, nodeAtPath, parsePath, rangeOf } from "./json-path.js"

/** The documented score thresholds of the OWASP Core Ruleset's last rule. */
const DOCUMENTED_THRESHOLDS: Readonly<Record<number, string>> = {
  25: "High",
  40: "Medium (the default)",
  60: "Low"
}
const IDENTITY = ["id", "version", "ref"] as const

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

export const isWafConfig = (root: Node): boolean => {
  if (root.type !== "object") return false
  const value = getNodeValue(root) as Record<string, unknown>
  const body = isRecord(value.result) ? value.result : value
  return (
    Array.isArray(body.rules) &&
    (body.rules as Array<unknown>).some(
      (r) => isRecord(r) && (r.action === "execute" || r.action === "skip" || isRecord(r.action_parameters))
    )
  )
}

/**
 * Every problem of one rule, from the body check (which stops at the first): after each one the
 * offending value is replaced by a valid one (or removed) in a copy, and the rule is checked again.
 */
const ruleProblems = (
  rule: unknown,
  mode: MigrationMode | undefined
): Array<{ path: string; message: string; value: unknown }> => {
  const out: Array<{ path: string; message: string; value: unknown }> = []
  const copy = structuredClone(rule)
  const seen = new Set<string>()
  for (let n = 0; n < 32; n++) {
    const r = checkEntrypointBody({ rules: [copy] }, mode, CATALOG)
    if (Either.isRight(r)) break
    const message = r.left.message
    const path = message.slice(0, message.indexOf(": "))
    if (seen.has(path) || !path.startsWith("rules[0]")) break
    seen.add(path)
    const segments = parsePath(path).slice(2)
    const value = getAt(copy, segments)
    out.push({ path, message: message.slice(path.length), value })
    if (!repair(copy, segments)) break
  }
  return out
}

const getAt = (root: unknown, path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>(
    (v, k) => (v !== null && typeof v === "object" ? (v as Record<string | number, unknown>)[k] : undefined),
    root
  )

/** A valid stand-in for the value at `path`, so that checking can go on past it. */
const repair = (root: unknown, path: ReadonlyArray<string | number>): boolean => {
  const parent = getAt(root, path.slice(0, -1))
  const key = path[path.length - 1]
  if (parent === null || typeof parent !== "object" || key === undefined) return false
  const p = parent as Record<string | number, unknown>
  const rulesetId = (getAt(root, ["action_parameters", "id"]) as string | undefined) ?? CATALOG.managed[0]!.id
  const ruleset = CATALOG.ruleset(rulesetId) ?? CATALOG.managed[0]!
  const inOverrides = path.includes("overrides")
  if (key === "expression") p[key] = "true"
  else if (key === "action") p[key] = inOverrides ? "log" : "execute"
  else if (key === "id" && path.length === 2 && path[0] === "action_parameters") p[key] = CATALOG.managed[0]!.id
  else if (key === "id" && inOverrides) p[key] = ruleset.rules[0]!.id
  else if (key === "category") p[key] = ruleset.rules.flatMap((r) => r.categories)[0]
  else if (Array.isArray(p)) p[key as number] = undefined
  else if (key in p) delete p[key]
  else return false
  return true
}

/** Removes properties of an object node with their commas, as edits (one per run of adjacent properties). */
const removeProperties = (object: Node, names: ReadonlyArray<string>, _text: string) => {
  const props = object.children ?? []
  const gone = props.map((p) => names.includes(p.children![0]!.value as string))
  const edits: Array<{ range: { start: number; end: number }; newText: string }> = []
  for (let a = 0; a < props.length; a++) {
    if (!gone[a]) continue
    let b = a
    while (b + 1 < props.length && gone[b + 1]) b++
    const end = (i: number) => props[i]!.offset + props[i]!.length
    const range =
      b + 1 < props.length
        ? { start: props[a]!.offset, end: props[b + 1]!.offset }
        : a > 0
          ? { start: end(a - 1), end: end(b) }
          : { start: props[a]!.offset, end: end(b) }
    edits.push({ range, newText: "" })
    a = b
  }
  return edits
}

export const checkWafConfig = (root: Node, text: string, mode: MigrationMode | undefined): Array<Finding> => {
  const out: Array<Finding> = []
  const value = getNodeValue(root) as Record<string, unknown>
  const inResult = isRecord(value.result)
  const bodyNode = inResult ? nodeAtPath(root, ["result"]) : root
  const body = (inResult ? value.result : value) as Record<string, unknown>
  const at = (path: string) => nodeAtPath(bodyNode, parsePath(path))
  const rules = body.rules as Array<unknown>
  const rulesNode = at("rules")

  // The final update carries id, version and ref on every rule; the validation update on none.
  const carrying = rules.filter((r) => isRecord(r) && IDENTITY.some((k) => r[k] !== undefined)).length
  const effectiveMode: MigrationMode | undefined =
    mode ?? (carrying === rules.length && rules.length > 0 ? "pending" : carrying === 0 ? "validation" : undefined)

  rules.forEach((rule, i) => {
    for (const { path, message, value: bad } of ruleProblems(rule, effectiveMode)) {
      const full = `rules[${i}]${path.slice("rules[0]".length)}`
      // Expression errors are reported by the rules checks, with exact ranges.
      if (full.endsWith(".expression")) continue
      const node = at(full)
      const fixes: Array<Fix> = []
      if (/\.action$/.test(full) && bad === "simulate") {
        fixes.push({
          title: 'Change "simulate" to "log" (Simulate becomes Log)',
          edits: [{ range: rangeOf(node), newText: '"log"' }],
          preferred: true
        })
      }
      if (/the validation update .* omits id, version and ref/.test(message) && isRecord(rule)) {
        fixes.push({
          title: `Remove id, version and ref from rules[${i}] (validation update)`,
          edits: removeProperties(at(`rules[${i}]`), IDENTITY, text)
        })
      }
      out.push(finding("error", "waf-config", `${full}${message}`, rangeOf(node), { fixes }))
    }
    if (!isRecord(rule)) return
    const ap = isRecord(rule.action_parameters) ? rule.action_parameters : {}
    const overrides = isRecord(ap.overrides) ? ap.overrides : {}
    if (Array.isArray(overrides.rules)) {
      overrides.rules.forEach((o, j) => {
        if (!isRecord(o) || typeof o.score_threshold !== "number" || o.id !== OWASP_SCORE_RULE) return
        if (DOCUMENTED_THRESHOLDS[o.score_threshold] !== undefined) return
        const node = at(`rules[${i}].action_parameters.overrides.rules[${j}].score_threshold`)
        const nearest = [25, 40, 60].reduce((a, b) =>
          Math.abs(b - (o.score_threshold as number)) < Math.abs(a - (o.score_threshold as number)) ? b : a
        )
        out.push(
          finding(
            "warning",
            "waf-score-threshold",
            `score_threshold ${o.score_threshold} is not one of the documented thresholds: 25 (High), 40 (Medium, the default), 60 (Low)`,
            rangeOf(node),
            {
              fixes: [
                {
                  title: `Use ${nearest} (${DOCUMENTED_THRESHOLDS[nearest]})`,
                  edits: [{ range: rangeOf(node), newText: String(nearest) }]
                }
              ]
            }
          )
        )
      })
    }
  })

  // Skip rules skip what comes after them in the phase: one placed after an execute rule skips nothing of it.
  const firstExecute = rules.findIndex((r) => isRecord(r) && r.action === "execute")
  if (firstExecute >= 0) {
    rules.forEach((r, i) => {
      if (i < firstExecute || !isRecord(r) || r.action !== "skip") return
      const node = at(`rules[${i}].action`)
      out.push(
        finding(
          "warning",
          "waf-skip-order",
          `rules[${i}] is a skip rule placed after the execute rule rules[${firstExecute}]: it cannot skip the managed rules that run before it`,
          rangeOf(node),
          {
            hint: "skip rules come first in the managed phase",
            related: [
              {
                range: rangeOf(at(`rules[${firstExecute}]`)),
                message: `rules[${firstExecute}] executes a managed ruleset first`
              }
            ],
            fixes: [
              {
                title: `Move rules[${i}] before rules[${firstExecute}]`,
                edits: moveBefore(rulesNode, i, firstExecute, text)
              }
            ]
          }
        )
      )
    })
  }
  if (mode === undefined && carrying > 0 && carrying < rules.length) {
    out.push(
      finding(
        "warning",
        "waf-update-mode",
        `${carrying} of ${rules.length} rules carry id, version or ref: the final update (waf_migration=pending) needs them on every rule as the config operation returns them, the validation update on none`,
        rangeOf(nameNode(rulesNode))
      )
    )
  }
  return out
}

/** Edits that move array element `from` before element `to` (`to` < `from`). */
const moveBefore = (array: Node, from: number, to: number, text: string) => {
  const items = array.children!
  const item = items[from]!
  const itemText = text.slice(item.offset, item.offset + item.length)
  const target = items[to]!
  const removal =
    from + 1 < items.length
      ? { start: item.offset, end: items[from + 1]!.offset }
      : { start: items[from - 1]!.offset + items[from - 1]!.length, end: item.offset + item.length }
  const between = text.slice(items[to]!.offset + items[to]!.length, items[to + 1]!.offset) // `,\n    `
  return [
    { range: { start: target.offset, end: target.offset }, newText: `${itemText}${between}` },
    { range: removal, newText: "" }
  ]
}
