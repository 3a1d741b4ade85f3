/**
 * Checks HCL against the vendored shapes of the cloudflare provider's resources
 * (fixtures/terraform/schema/provider-*.json): which resource types exist in that version, which
 * names are attributes and which are blocks (with their nesting and max items), computed-only
 * attributes that must not be set, and the kind of each literal value. References (`var.x`,
 * `each.key`) are accepted for any type, as the provider sees them only at plan time.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { parseHcl, type HclNode } from "../../src/lsp/hcl.js"
import { root } from "./cli.js"

type TypeSpec =
  | "string"
  | "bool"
  | "number"
  | "computed"
  | { list: TypeSpec }
  | { map: TypeSpec }
  | { object: Record<string, TypeSpec> }
interface BlockSpec {
  readonly attributes: Record<string, TypeSpec>
  readonly blocks?: Record<string, BlockSpec & { nesting: "list"; max_items?: number }>
}
export interface ProviderSchema {
  readonly provider: string
  readonly resources: Record<string, BlockSpec>
}

export const providerSchema = (file: string): ProviderSchema =>
  JSON.parse(fs.readFileSync(path.join(root, "fixtures", "terraform", "schema", file), "utf8"))

const META = new Set(["for_each", "count", "depends_on", "provider", "lifecycle"])

const unwrap = (n: HclNode): HclNode => {
  let x = n
  while (
    (x.type === "expression" || x.type === "collection_value" || x.type === "literal_value") &&
    x.namedChildren.length === 1
  )
    x = x.namedChildren[0]!
  return x
}

const checkValue = (spec: TypeSpec, value: HclNode, where: string, out: Array<string>): void => {
  const v = unwrap(value)
  if (v.type === "variable_expr" || value.namedChildren.some((c) => c?.type === "get_attr" || c?.type === "index"))
    return
  if (spec === "computed") {
    out.push(`${where}: computed only, cannot be set`)
    return
  }
  const kind =
    v.type === "string_lit" || v.type === "template_expr"
      ? "string"
      : v.type === "bool_lit"
        ? "bool"
        : v.type === "numeric_lit"
          ? "number"
          : v.type
  if (typeof spec === "string") {
    if (kind !== spec) out.push(`${where}: expected ${spec}, got ${kind}`)
    return
  }
  if ("list" in spec) {
    if (v.type !== "tuple") return void out.push(`${where}: expected a list, got ${kind}`)
    v.namedChildren
      .filter((c) => c?.type === "expression")
      .forEach((e, i) => checkValue(spec.list, e!, `${where}[${i}]`, out))
    return
  }
  if (v.type !== "object")
    return void out.push(`${where}: expected ${"map" in spec ? "a map" : "an object"}, got ${kind}`)
  for (const e of v.namedChildren) {
    if (e?.type !== "object_elem") continue
    const key = unwrap(e.namedChildren[0]!)
    const name = key.type === "string_lit" ? key.text.slice(1, -1) : key.text
    if ("map" in spec) checkValue(spec.map, e.namedChildren[1]!, `${where}.${name}`, out)
    else if (spec.object[name] === undefined) out.push(`${where}.${name}: no such attribute`)
    else checkValue(spec.object[name], e.namedChildren[1]!, `${where}.${name}`, out)
  }
}

const checkBody = (spec: BlockSpec, body: HclNode | undefined, where: string, out: Array<string>): void => {
  const counts = new Map<string, number>()
  for (const c of body?.namedChildren ?? []) {
    if (c?.type === "attribute") {
      const name = c.namedChildren[0]!.text
      if (META.has(name)) continue
      const t = spec.attributes[name]
      if (t === undefined)
        out.push(
          spec.blocks?.[name]
            ? `${where}.${name}: is a block here, not an attribute`
            : `${where}.${name}: no such attribute`
        )
      else checkValue(t, c.namedChildren[1]!, `${where}.${name}`, out)
    } else if (c?.type === "block") {
      const name = c.namedChildren[0]!.text
      if (META.has(name)) continue
      const b = spec.blocks?.[name]
      if (b === undefined) {
        out.push(
          spec.attributes[name]
            ? `${where}.${name}: is an attribute here, not a block`
            : `${where}.${name}: no such block`
        )
        continue
      }
      counts.set(name, (counts.get(name) ?? 0) + 1)
      if (b.max_items !== undefined && counts.get(name)! > b.max_items)
        out.push(`${where}.${name}: at most ${b.max_items} block(s)`)
      checkBody(b, c.namedChildren.find((x) => x?.type === "body") ?? undefined, `${where}.${name}`, out)
    }
  }
}

/** Every way the file's resources disagree with the provider version's schema (empty: it accepts them). */
export const schemaProblems = async (text: string, schema: ProviderSchema): Promise<Array<string>> => {
  const tree = await parseHcl(text)
  const out: Array<string> = []
  try {
    if (tree.rootNode.hasError) out.push("the file is not valid HCL")
    for (const b of tree.rootNode.namedChildren[0]?.namedChildren ?? []) {
      if (b?.type !== "block" || b.namedChildren[0]?.text !== "resource") continue
      const [type, name] = b.namedChildren.filter((c) => c?.type === "string_lit").map((c) => c!.text.slice(1, -1))
      const spec = schema.resources[type!]
      if (spec === undefined) out.push(`${type}.${name}: provider ${schema.provider} has no resource ${type}`)
      else checkBody(spec, b.namedChildren.find((c) => c?.type === "body") ?? undefined, `${type}.${name}`, out)
    }
  } finally {
    tree.delete()
  }
  return out
}

/** The provider versions a firewall-rules rewrite is checked against: a pin, its name, the schema
 * file of fixtures/terraform/schema/ and the id `terraform import` takes for a zone ruleset. */
export const RulesetVersions = [
  ["~> 3.35", "3.35", "provider-3.35.json", "zone/<zone_id>/<ruleset_id>"],
  [">= 4.2.0, < 5.0.0", "4.x", "provider-4.x.json", "zone/<zone_id>/<ruleset_id>"],
  ["~> 5", "5.x", "provider-5.x.json", "zones/<zone_id>/<ruleset_id>"]
] as const
