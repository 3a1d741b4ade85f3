/**
 * Completion from a JSON Schema (./json-schemas.ts, the schemas shipped in `schemas/`): at a
 * property key, the properties the schema gives that object and the object does not have yet,
 * each with its description; at a value, the values of its `enum`. The language server and other
 * editors' JSON servers thus offer the same names.
 */
import { findNodeAtOffset, getLocation, parseTree, type Node, type Segment } from "jsonc-parser"
import type { CompletionResult, JsonFeatures } from "./features.js"
import { rangeOf } from "./json-path.js"
import type { JsonSchema } from "./json-schemas.js"

/** The schemas a value at `path` may follow (every branch of a `oneOf` / `anyOf` that has it). */
const schemasAt = (schema: JsonSchema, path: ReadonlyArray<Segment>): ReadonlyArray<JsonSchema> => {
  let level: ReadonlyArray<JsonSchema> = [schema]
  const resolve = (s: JsonSchema): JsonSchema =>
    s.$ref?.startsWith("#/definitions/") ? (schema.definitions?.[s.$ref.slice(14)] ?? s) : s
  const expand = (s: JsonSchema): ReadonlyArray<JsonSchema> => [s, ...(s.oneOf ?? []), ...(s.anyOf ?? [])].map(resolve)
  for (const seg of path) {
    level = level.flatMap(expand).flatMap((s): ReadonlyArray<JsonSchema> => {
      if (typeof seg === "number") return s.items ? [s.items] : []
      const p = s.properties?.[seg]
      if (p !== undefined) return [p]
      return typeof s.additionalProperties === "object" ? [s.additionalProperties] : []
    })
  }
  return level.flatMap(expand)
}

const objectAt = (root: Node, offset: number): Node | undefined => {
  let n = findNodeAtOffset(root, offset, true)
  while (n !== undefined && n.type !== "object") n = n.parent
  return n
}

export const schemaCompletion = (schema: JsonSchema, text: string, offset: number): CompletionResult | undefined => {
  const root = parseTree(text)
  if (root === undefined) return undefined
  const location = getLocation(text, offset)
  const typed =
    location.previousNode?.type === "property" || location.previousNode?.type === "string"
      ? location.previousNode
      : undefined
  const replace = typed !== undefined ? rangeOf(typed) : { start: offset, end: offset }
  if (location.isAtPropertyKey) {
    const candidates = schemasAt(schema, location.path.slice(0, -1))
    const object = objectAt(root, offset)
    const present = new Set(
      (object?.children ?? []).map((p) => p.children?.[0]?.value).filter((v) => v !== typed?.value)
    )
    // A key being renamed keeps its `:`; a new one gets it, so the value is typed next.
    const colon = /^\s*:/.test(text.slice(replace.end)) ? "" : ": "
    const seen = new Set<string>()
    const items = candidates.flatMap((s) =>
      Object.entries(s.properties ?? {})
        .filter(([k]) => k !== "$schema" && !present.has(k) && !seen.has(k) && (seen.add(k), true))
        .map(([k, p]) => ({
          label: k,
          kind: "property" as const,
          detail: p.description ?? (typeof p.type === "string" ? p.type : ""),
          insertText: `"${k}"${colon}`
        }))
    )
    return items.length === 0 ? undefined : { replace, items }
  }
  const values = schemasAt(schema, location.path).flatMap((s) => s.enum ?? [])
  if (values.length === 0) return undefined
  return {
    replace,
    items: values.map((v) => ({
      label: JSON.stringify(v),
      kind: "enum" as const,
      detail: "",
      insertText: JSON.stringify(v)
    }))
  }
}

/** A kind's features with completion from its schema where the kind's own has nothing (property names, enums). */
export const withSchemaCompletion = (
  features: JsonFeatures,
  schema: JsonSchema,
  applies: (name: string) => boolean = () => true
): JsonFeatures => ({
  ...features,
  complete: async (text, offset, analysis, name = "") =>
    (await features.complete?.(text, offset, analysis, name)) ??
    (applies(name) ? schemaCompletion(schema, text, offset) : undefined)
})
