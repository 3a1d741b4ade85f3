/**
 * The resources of a Terraform JSON file (`*.tf.json`): `"resource": {"<type>": {"<name>": {…}}}`,
 * where the JSON syntax lets each level be an array of objects too. Read once per check; the
 * warnings (./analyze.ts) and the rewrites (./json-rewrite.ts, ./json-legacy.ts)
 * share them, and how Terraform reads a JSON string (a template: `literalOf`, `zoneExpression`).
 */
import { parseTree, type Node, type Segment } from "jsonc-parser"
import { rangeOf } from "../json-path.js"
import type { Finding, Fix, Range } from "../findings.js"
import type { ExpressionChecker } from "./expressions.js"
import type { ProviderTarget } from "./version.js"

/** One `resource.<type>.<name>` of the file, with where it is (the path of the object holding its type). */
export interface JsonResource {
  readonly type: string
  readonly name: string
  /** The `"<type>"` key, where the unsupported-API warning points. */
  readonly typeKey: Node
  readonly nameKey: Node
  readonly body: Node | undefined
  readonly at: ReadonlyArray<Segment>
}

export const prop = (n: Node | undefined, key: string): Node | undefined =>
  n?.type === "object" ? n.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1] : undefined
const items = (n: Node | undefined): Array<Node> =>
  n === undefined ? [] : n.type === "array" ? (n.children ?? []) : [n]

/** Every resource of the file: `"resource"` may be an object or an array of them, a body an array of one. */
export const jsonResources = (root: Node): Array<JsonResource> => {
  const out: Array<JsonResource> = []
  const resource = prop(root, "resource")
  items(resource).forEach((r, i) => {
    const at: Array<Segment> = resource?.type === "array" ? ["resource", i] : ["resource"]
    for (const typed of r.type === "object" ? (r.children ?? []) : []) {
      const [typeKey, byName] = typed.children ?? []
      if (typeKey?.type !== "string") continue
      for (const named of byName?.type === "object" ? (byName.children ?? []) : []) {
        const [nameKey, body] = named.children ?? []
        if (nameKey?.type !== "string") continue
        out.push({
          type: typeKey.value as string,
          name: nameKey.value as string,
          typeKey,
          nameKey,
          body: items(body).find((b) => b.type === "object"),
          at
        })
      }
    }
  })
  return out
}

/** A JSON string's text when Terraform reads it as written: no interpolation or directive, `$${` and `%%{` unescaped. */
export const literalOf = (s: string): string | undefined => {
  let out = ""
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    if ((c === "$" || c === "%") && s[i + 1] === c && s[i + 2] === "{") {
      out += `${c}{`
      i += 2
    } else if ((c === "$" || c === "%") && s[i + 1] === "{") return undefined
    else out += c
  }
  return out
}

/** The zone as an HCL expression, for titles and steps: `"${var.zone_id}"` -> `var.zone_id`, a literal quoted. */
export const zoneExpression = (value: unknown): string => {
  if (typeof value !== "string") return JSON.stringify(value)
  const ref = /^\$\{\s*([^{}]+?)\s*\}$/.exec(value)
  if (ref) return ref[1]!
  const lit = literalOf(value)
  return lit !== undefined ? JSON.stringify(lit) : JSON.stringify(value)
}

/** Builds a rewrite of the file's resources (the firewall's, the legacy products'; handed in through ../registry.ts): a fix per resource it can place, findings where it cannot tell. */
export type TerraformJsonRewrite = (
  text: string,
  resources: ReadonlyArray<JsonResource>,
  target: ProviderTarget,
  checker?: ExpressionChecker
) => { readonly fixes: ReadonlyMap<JsonResource, Fix>; readonly findings: ReadonlyArray<Finding> }

/** Where resource `type.label` is written in a Terraform JSON file. */
export const jsonResourceRange = (text: string, type: string, label: string): Range | undefined => {
  const root = parseTree(text)
  const r = root && jsonResources(root).find((x) => x.type === type && x.name === label)
  return r === undefined ? undefined : rangeOf(r.nameKey.parent ?? r.nameKey)
}
