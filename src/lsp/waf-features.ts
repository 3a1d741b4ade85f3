/**
 * Hover and completion in a WAF configuration (the managed phase's rules): the managed rulesets,
 * their rules and categories from the platform's catalog (src/waf/catalog.ts), the actions a rule
 * or an override may take. Values are completed where they go: an override's rule id from the
 * ruleset it overrides, a skip rule's ruleset and rule ids, a category of that ruleset.
 */
import { findNodeAtOffset, getNodeValue, parseTree, type Node } from "jsonc-parser"
import { CATALOG, OWASP_SCORE_RULE, type ManagedRuleset } from "../waf/catalog.js"
import type { CompletionResult, HoverResult, JsonFeatures } from "./features.js"
import { rangeOf } from "./json-path.js"

const OVERRIDE_ACTIONS = ["block", "managed_challenge", "js_challenge", "challenge", "log"]
const ACTION_DOC: Readonly<Record<string, string>> = {
  execute: "runs a managed ruleset (`action_parameters.id`), with its `overrides`",
  skip: 'skips the managed rules named in `action_parameters` (`ruleset: "current"`, `rulesets`, or `rules`) for matching requests',
  block: "blocks the request (HTTP 403)",
  managed_challenge: "a challenge the platform picks (non-interactive when it can)",
  js_challenge: "a JavaScript challenge; clients without JavaScript fail it",
  challenge: "an interactive challenge",
  log: "only logs the match (Security Events); the request goes on"
}

const propertyOf = (n: Node | undefined): { name: string; value: Node } | undefined => {
  const p = n?.parent
  if (p?.type !== "property" || p.children?.[1] !== n) return undefined
  return { name: p.children![0]!.value as string, value: n! }
}
/** The property name holding an array element (`rules` for `rules[2]`). */
const arrayName = (element: Node | undefined): string | undefined =>
  element?.parent?.type === "array" ? propertyOf(element.parent)?.name : undefined

/** The managed ruleset a node belongs to: its execute rule's `action_parameters.id`. */
const rulesetAround = (n: Node | undefined): ManagedRuleset | undefined => {
  let x = n
  while (x !== undefined && propertyOf(x)?.name !== "action_parameters") x = x.parent
  const id = x ? (getNodeValue(x) as { id?: unknown }).id : undefined
  return typeof id === "string" ? CATALOG.ruleset(id) : undefined
}
/** Whether `n` is inside `overrides`. */
const inOverrides = (n: Node | undefined): boolean => {
  for (let x = n; x !== undefined; x = x.parent) if (propertyOf(x)?.name === "overrides") return true
  return false
}

const rulesetDoc = (r: ManagedRuleset) =>
  `**${r.name}** (version ${r.version}, ${r.rules.length} rules)\n\n${r.description}`
const ruleDoc = (id: string): string | undefined => {
  for (const r of CATALOG.managed) {
    const rule = r.rules.find((x) => x.id === id)
    if (rule === undefined) continue
    const score =
      id === OWASP_SCORE_RULE
        ? "\n\ntakes `score_threshold` (1-1000): the request's OWASP score at or above which it acts"
        : ""
    return `**${rule.description}** (${r.name})\n\ncategories: ${rule.categories.map((c) => `\`${c}\``).join(", ")} · default: \`${rule.action}\`${rule.enabled ? "" : " (disabled)"}${score}`
  }
  return undefined
}

const hover = (text: string, offset: number): HoverResult | undefined => {
  const root = parseTree(text)
  if (root === undefined) return undefined
  const node = findNodeAtOffset(root, offset)
  if (node?.type !== "string") return undefined
  const value = node.value as string
  const range = rangeOf(node)
  const prop = propertyOf(node)
  let doc: string | undefined
  if (prop?.name === "action") doc = ACTION_DOC[value] && `\`${value}\`: ${ACTION_DOC[value]}`
  else if (prop?.name === "category") {
    const ruleset = rulesetAround(node)
    const n = ruleset?.rules.filter((r) => r.categories.includes(value)).length
    doc = ruleset && n ? `category \`${value}\`: ${n} rule${n === 1 ? "" : "s"} of ${ruleset.name}` : undefined
  } else if (prop?.name === "id" || arrayName(node) !== undefined || node.parent?.type === "array") {
    const ruleset = CATALOG.ruleset(value)
    doc = ruleset ? rulesetDoc(ruleset) : ruleDoc(value)
  } else if (node.parent?.type === "property" && node.parent.children?.[0] === node) {
    // A key of a skip rule's `rules` object: a ruleset id.
    const ruleset = CATALOG.ruleset(value)
    doc = ruleset ? rulesetDoc(ruleset) : undefined
  }
  return doc === undefined ? undefined : { markdown: doc, range }
}

const complete = (text: string, offset: number): CompletionResult | undefined => {
  const root = parseTree(text)
  if (root === undefined) return undefined
  const node = findNodeAtOffset(root, offset)
  if (node?.type !== "string") return undefined
  const quote = (s: string) => JSON.stringify(s)
  const replace = rangeOf(node)
  const prop = propertyOf(node)
  const rulesetItems = () =>
    CATALOG.managed.map((m) => ({ label: m.id, kind: "value" as const, detail: m.name, insertText: quote(m.id) }))
  const ruleItems = (r: ManagedRuleset) =>
    r.rules.map((x) => ({
      label: x.id,
      kind: "value" as const,
      detail: `${x.description} (${x.categories.join(", ")})`,
      insertText: quote(x.id)
    }))
  if (prop !== undefined) {
    const owner = prop.value.parent!.parent! // the object holding the property
    if (prop.name === "id" && propertyOf(owner)?.name === "action_parameters") return { replace, items: rulesetItems() }
    if (prop.name === "id" && inOverrides(owner) && arrayName(owner) === "rules") {
      const ruleset = rulesetAround(owner)
      return { replace, items: ruleset ? ruleItems(ruleset) : CATALOG.managed.flatMap(ruleItems) }
    }
    if (prop.name === "action") {
      const ruleLevel = arrayName(owner) === "rules" && !inOverrides(owner)
      const items = ruleLevel ? ["execute", "skip"] : OVERRIDE_ACTIONS
      return {
        replace,
        items: items.map((a) => ({ label: a, kind: "enum", detail: ACTION_DOC[a] ?? "", insertText: quote(a) }))
      }
    }
    if (prop.name === "category") {
      const ruleset = rulesetAround(owner)
      const cats = [
        ...new Set((ruleset?.rules ?? CATALOG.managed.flatMap((m) => m.rules)).flatMap((r) => r.categories))
      ].sort()
      return {
        replace,
        items: cats.map((c) => ({
          label: c,
          kind: "enum",
          detail: ruleset ? `category of ${ruleset.name}` : "category",
          insertText: quote(c)
        }))
      }
    }
    if (prop.name === "ruleset")
      return {
        replace,
        items: [
          {
            label: "current",
            kind: "enum",
            detail: "the rest of the managed rulesets of this phase",
            insertText: quote("current")
          }
        ]
      }
    return undefined
  }
  // Array elements: a skip rule's `rulesets: [...]`, or `rules: {"<ruleset id>": [...]}`.
  const array = node.parent?.type === "array" ? propertyOf(node.parent) : undefined
  if (array?.name === "rulesets") return { replace, items: rulesetItems() }
  const ruleset = array ? CATALOG.ruleset(array.name) : undefined
  if (ruleset !== undefined) return { replace, items: ruleItems(ruleset) }
  // A key of the skip rule's `rules` object.
  if (
    node.parent?.type === "property" &&
    node.parent.children?.[0] === node &&
    propertyOf(node.parent.parent)?.name === "rules"
  )
    return { replace, items: rulesetItems() }
  return undefined
}

export const wafConfigFeatures: JsonFeatures = { hover, complete }
