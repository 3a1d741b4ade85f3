/**
 * Checks resources written in Terraform's JSON syntax (`*.tf.json`) against the vendored shapes of
 * the cloudflare provider (./terraform-schema.ts): a nested block is an object or an array of them,
 * an attribute's value of the kind the schema wants (a `"${…}"` template passes as a reference), the
 * `"//"` comment property ignored.
 */
import type { ProviderSchema } from "./terraform-schema.js"

type Obj = Record<string, any>

/** What the JSON syntax makes of a value where the schema wants `spec` (strings are templates; references pass). */
const checkValue = (spec: any, v: unknown, where: string, out: Array<string>): void => {
  if (typeof v === "string" && /^\$\{[^}]+\}$/.test(v)) return
  if (spec === "computed") return void out.push(`${where}: computed only, cannot be set`)
  const kind = Array.isArray(v) ? "tuple" : v === null ? "null" : typeof v === "boolean" ? "bool" : typeof v
  if (typeof spec === "string") {
    if (kind !== spec) out.push(`${where}: expected ${spec}, got ${kind}`)
    return
  }
  if ("list" in spec) {
    if (!Array.isArray(v)) return void out.push(`${where}: expected a list, got ${kind}`)
    return v.forEach((e, i) => checkValue(spec.list, e, `${where}[${i}]`, out))
  }
  if (kind !== "object") return void out.push(`${where}: expected an object, got ${kind}`)
  for (const [k, e] of Object.entries(v as Obj)) {
    if ("map" in spec) checkValue(spec.map, e, `${where}.${k}`, out)
    else if (spec.object[k] === undefined) out.push(`${where}.${k}: no such attribute`)
    else checkValue(spec.object[k], e, `${where}.${k}`, out)
  }
}

/** A block body in the JSON syntax: `"//"` ignored, a nested block an object or an array of them. */
const checkBody = (spec: any, body: Obj, where: string, out: Array<string>): void => {
  for (const [k, v] of Object.entries(body)) {
    if (k === "//" || k === "provider") continue
    if (spec.attributes[k] !== undefined) checkValue(spec.attributes[k], v, `${where}.${k}`, out)
    else if (spec.blocks?.[k] !== undefined) {
      const bodies = Array.isArray(v) ? v : [v]
      if (spec.blocks[k].max_items !== undefined && bodies.length > spec.blocks[k].max_items)
        out.push(`${where}.${k}: at most ${spec.blocks[k].max_items} block(s)`)
      bodies.forEach((b, i) =>
        typeof b === "object" && b !== null && !Array.isArray(b)
          ? checkBody(spec.blocks[k], b, `${where}.${k}[${i}]`, out)
          : out.push(`${where}.${k}[${i}]: a block body must be an object`)
      )
    } else out.push(`${where}.${k}: no such attribute or block`)
  }
}

/** Every way the `cloudflare_ruleset` resources (a JSON file's `resource.cloudflare_ruleset`, by name) disagree with the provider version's schema. */
export const jsonRulesetProblems = (ruleset: Obj, schema: ProviderSchema): Array<string> => {
  const out: Array<string> = []
  for (const [name, body] of Object.entries(ruleset))
    checkBody(schema.resources.cloudflare_ruleset, body as Obj, `cloudflare_ruleset.${name}`, out)
  return out
}
