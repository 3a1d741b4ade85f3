/**
 * Which JSON documents are the platform's rules documents, by their shape: firewall rules
 * (`{filter, action}`), filters (`{expression}` with only a filter's fields), ruleset rules
 * (`{expression, action}`), as an array, one object, an API answer (`{result: …}`) or a ruleset
 * (`{rules: […]}`), or any document whose `$schema` names edgectl. Other JSON that happens to
 * have `"expression"` keys (a Grafana alert, a package manifest) is left alone.
 *
 * Firewall rules and filters are read by `src/firewall/body.ts`, the reading the platform's
 * endpoints do, so the editor refuses what a request would be refused for (an unknown action,
 * `bypass` without `products`, a priority out of range).
 */
import * as Either from "effect/Either"
import { getNodeValue, type Node } from "jsonc-parser"
import { readFilterCreates, readRuleCreates, type Problem, type Read } from "../firewall/body.js"
import { finding, type Finding } from "./findings.js"
import { rangeOf } from "./json-path.js"

const FILTER_KEYS = new Set(["id", "expression", "paused", "description", "ref"])

const props = (n: Node): Map<string, Node> => {
  const out = new Map<string, Node>()
  if (n.type !== "object") return out
  for (const p of n.children ?? []) {
    const [name, value] = p.children ?? []
    if (typeof name?.value === "string" && value !== undefined) out.set(name.value, value)
  }
  return out
}

const isFilter = (n: Node): boolean => {
  const p = props(n)
  return p.get("expression")?.type === "string" && [...p.keys()].every((k) => FILTER_KEYS.has(k))
}
const isFirewallRule = (n: Node): boolean => {
  const filter = props(n).get("filter")
  return filter?.type === "object" && (props(n).has("action") || isFilter(filter))
}
const isRulesetRule = (n: Node): boolean => {
  const p = props(n)
  return p.get("expression")?.type === "string" && p.has("action") && !p.has("filter")
}

type RulesDocumentShape = "firewall-rules" | "filters" | "ruleset-rules" | "schema"

export interface RulesDocument {
  readonly shape: RulesDocumentShape
  /** The node holding the elements (an array, or the single element). */
  readonly body: Node
  /** The rule expressions (string nodes) in it. */
  readonly expressions: ReadonlyArray<Node>
}

/** Every string value of an `expression` property, anywhere under `root`. */
export const expressionNodes = (root: Node): Array<Node> => {
  const out: Array<Node> = []
  const visit = (n: Node) => {
    if (n.type === "property") {
      const [name, value] = n.children ?? []
      if (name?.value === "expression" && value?.type === "string") out.push(value)
      if (value !== undefined) visit(value)
      return
    }
    for (const c of n.children ?? []) visit(c)
  }
  visit(root)
  return out
}

/** The platform rules document `root` is, or undefined when it is other JSON. */
export const rulesDocument = (root: Node): RulesDocument | undefined => {
  const schema = props(root).get("$schema")
  if (schema?.type === "string" && /edgectl/i.test(schema.value as string))
    return { shape: "schema", body: root, expressions: expressionNodes(root) }
  let body = root
  const result = props(root).get("result")
  if (result !== undefined && (result.type === "array" || result.type === "object")) body = result
  const rules = props(body).get("rules")
  if (rules?.type === "array") body = rules
  const elements = body.type === "array" ? (body.children ?? []) : [body]
  const objects = elements.filter((e) => e.type === "object")
  if (objects.length === 0) return undefined
  const expressionOf = (n: Node, ...path: Array<string>) => {
    let v: Node | undefined = n
    for (const k of path) v = v && props(v).get(k)
    return v?.type === "string" ? [v] : []
  }
  if (objects.some(isFirewallRule))
    return {
      shape: "firewall-rules",
      body,
      expressions: objects.flatMap((o) => expressionOf(o, "filter", "expression"))
    }
  if (objects.some(isRulesetRule))
    return { shape: "ruleset-rules", body, expressions: objects.flatMap((o) => expressionOf(o, "expression")) }
  // Filters: one with nothing but a filter's fields, the others with an expression too (one with a misspelt field is still checked).
  if (objects.some(isFilter) && objects.every((o) => props(o).get("expression")?.type === "string"))
    return { shape: "filters", body, expressions: objects.flatMap((o) => expressionOf(o, "expression")) }
  return undefined
}

/** The node a body problem names (`[2].filter.products`), and whether it exists (else its object). */
const problemNode = (doc: RulesDocument, p: Problem): { node: Node; exact: boolean } => {
  let node = p.index === undefined ? doc.body : (doc.body.children?.[p.index] ?? doc.body)
  for (const k of p.field.split(".")) {
    const next = props(node).get(k)
    if (next === undefined) return { node, exact: false }
    node = next
  }
  return { node, exact: true }
}

/**
 * The firewall rules' and filters' fields, as the platform reads them. Expression problems are the
 * rules checks' (with exact ranges), so the body reading's word on an expression string is dropped.
 */
export const checkFirewallFields = (doc: RulesDocument): Array<Finding> => {
  if (doc.shape !== "firewall-rules" && doc.shape !== "filters") return []
  const value = getNodeValue(doc.body)
  const read: Read<ReadonlyArray<unknown>> =
    doc.shape === "firewall-rules" ? readRuleCreates(value) : readFilterCreates(Array.isArray(value) ? value : [value])
  if (Either.isRight(read)) return []
  const out: Array<Finding> = []
  for (const p of read.left) {
    const { node, exact } = problemNode(doc, p)
    if (exact && node.type === "string" && p.field.endsWith("expression")) continue
    // A missing field is reported on the `{` of the object that lacks it.
    const range = exact ? rangeOf(node) : { start: node.offset, end: node.offset + 1 }
    out.push(finding("error", doc.shape === "filters" ? "firewall-filter" : "firewall-rule", p.message, range))
  }
  return out
}
