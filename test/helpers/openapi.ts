/**
 * The platform's OpenAPI document (fixtures/openapi/) as JSON Schema validators, for the contract
 * tests. OpenAPI 3.0's `nullable` becomes `anyOf [..., null]`; the generic 4XX schema (which asks
 * `success` to be both true and false through `allOf`) is replaced by its failure envelope alone.
 *
 * Two validators: `asPublished` is the document as it is; `asDocumented` has the places where the
 * document contradicts the platform's own documentation corrected (`Documented`, each with its
 * reason). A case that relies on a correction names it, and the test checks that the published
 * document really rejects that answer, so a correction can neither hide a defect nor go stale.
 */
import AjvModule, { type ValidateFunction } from "ajv"
import doc from "../../fixtures/openapi/platform-openapi-subset.json" with { type: "json" }

type Json = any

export type Method = "get" | "post" | "put" | "patch" | "delete"

/** Every operation of the document, as `METHOD /path/{template}`. */
export const operations = (): Array<string> =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, o]) => typeof o === "object" && o !== null && "responses" in o)
      .map(([m]) => `${m.toUpperCase()} ${path}`)
  )

// Ajv is CommonJS: under NodeNext its class is the default export's `default`.
const Ajv = AjvModule.default
const nullable = (s: Json) => ({ anyOf: [s, { type: "null" }] })
const envelopeOf = (result: Json) => ({
  type: "object",
  required: ["success", "errors", "messages", "result"],
  properties: { success: { enum: [true] }, errors: { type: "array" }, messages: { type: "array" }, result }
})

type Doc = { components: { schemas: Record<string, Json> }; paths: Record<string, Record<string, Json>> }
const schemaOf = (d: Doc, name: string) => {
  const s = d.components.schemas[name]
  if (!s) throw new Error(`the document has no component ${name}`)
  return s
}
const items = { type: "array", items: { type: "object", required: ["id"], properties: { id: { type: "string" } } } }

/**
 * Where the platform's documentation (../api-reference.md "spec vs platform", the firewall guide, the
 * SDK) or plain logic and the published document disagree: each entry corrects one place.
 */
export const Documented = {
  rulePriorityNullable: {
    why: "a firewall rule without priority answers `priority: null` (the document allows numbers only)",
    patch: (d: Doc) =>
      void (d.components.schemas["firewall_components-schemas-priority"] = nullable(
        schemaOf(d, "firewall_components-schemas-priority")
      ))
  },
  singleDeleteIsArray: {
    why: "single deletes of filters and rules answer `[{id}]`, like the bulk deletes (the firewall guide)",
    patch: (d: Doc) => {
      d.components.schemas["firewall_filter-delete-response-single"] = envelopeOf(items)
      d.components.schemas["firewall_filter-rules-single-response-delete"] = envelopeOf(items)
    }
  },
  zoneOwnerNullable: {
    why: "a zone's owner.id and owner.name are null when withheld (owner.type stays a string)",
    patch: (d: Doc) => {
      const owner = schemaOf(d, "zones_zone").properties.owner
      owner.properties.id = nullable(owner.properties.id)
      owner.properties.name = nullable(owner.properties.name)
    }
  },
  zoneMetaMayBeAbsent: {
    why: "recorded zone answers (the platform's older API docs) have no `meta`, which the document requires",
    patch: (d: Doc) => {
      const z = schemaOf(d, "zones_zone")
      z.required = z.required.filter((f: string) => f !== "meta")
    }
  },
  dnsCommentNullable: {
    why: "a DNS record's `comment` is null when unset",
    patch: (d: Doc) => void (d.components.schemas["dns-records_comment"] = nullable(schemaOf(d, "dns-records_comment")))
  },
  inviteRolesByName: {
    why: "an invite lists its roles by name (strings), as the current SDK types them",
    patch: (d: Doc) => void (schemaOf(d, "iam_base").properties.roles = { type: "array", items: { type: "string" } })
  },
  ruleActionWithUnderscore: {
    why:
      "a ruleset rule's `action` is typed `^[a-z]+$`, which refuses the document's own `managed_challenge` " +
      "and `js_challenge` (each rule's `enum`): the pattern admits `_`",
    patch: (d: Doc) => void (schemaOf(d, "rulesets_RuleAction").pattern = "^[a-z_]+$")
  },
  overlappingOneOf: {
    why:
      "the document's `oneOf` alternatives for the WAF package answer and the memberships list overlap " +
      "(the second accepts everything the first does), so no answer can match exactly one: read as anyOf",
    patch: (d: Doc) => {
      const pkg = schemaOf(d, "firewall_package_response_single")
      pkg.anyOf = pkg.oneOf
      delete pkg.oneOf
      const members = d.paths["/memberships"]!.get.responses["200"].content["application/json"].schema
      members.anyOf = members.oneOf
      delete members.oneOf
    }
  }
} as const
export type Documented = keyof typeof Documented

const clone = <A>(a: A): A => JSON.parse(JSON.stringify(a))

/** OpenAPI 3.0 → JSON Schema: `nullable: true` as an alternative of `null`. */
const jsonSchema = (v: Json): Json => {
  if (Array.isArray(v)) return v.map(jsonSchema)
  if (v === null || typeof v !== "object") return v
  const out: Json = {}
  for (const [k, x] of Object.entries(v)) if (k !== "nullable") out[k] = jsonSchema(x)
  return v.nullable === true ? { anyOf: [out, { type: "null" }] } : out
}

/** The failure envelope of a 4XX schema: the member of an `allOf` that is one, or the schema itself. */
const failureOf = (schema: Json): Json =>
  (schema.allOf ?? []).find((s: Json) => typeof s.$ref === "string" && /failure/.test(s.$ref)) ?? schema

const build = (corrections: ReadonlyArray<Documented>) => {
  const d = clone(doc) as Json
  for (const c of corrections) Documented[c].patch(d)
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true })
  ajv.addFormat("date-time", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/)
  ajv.addFormat("hostname", /^[a-z0-9*_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/i)
  ajv.addFormat("ipv4", /^(\d{1,3}\.){3}\d{1,3}$/)
  ajv.addFormat("ipv6", /^[0-9a-f:.]+$/i)
  ajv.addSchema({ $id: "openapi", components: jsonSchema(d.components) })
  const cache = new Map<string, ValidateFunction>()
  return (method: Method, path: string, status: number): ValidateFunction => {
    const key = `${method} ${path} ${status}`
    const known = cache.get(key)
    if (known) return known
    const op = d.paths[path]?.[method]
    if (!op) throw new Error(`the document has no operation ${method.toUpperCase()} ${path}`)
    let response =
      op.responses[status >= 200 && status < 300 ? "200" : Object.keys(op.responses).find((k) => /^4xx$/i.test(k))!]
    if (response.$ref) response = d.components.responses[response.$ref.replace("#/components/responses/", "")]
    // JSON where the document has it; the KV value is documented as raw bytes (a string).
    const content = response.content?.["application/json"] ?? Object.values(response.content ?? {})[0]
    if (!content) throw new Error(`${method.toUpperCase()} ${path} documents no answer for ${status}`)
    const schema = status >= 400 ? failureOf(content.schema) : content.schema
    // Component references resolve against the registered components.
    const rooted = JSON.parse(JSON.stringify(jsonSchema(schema)).replaceAll('"#/components/', '"openapi#/components/'))
    const v = ajv.compile(rooted)
    cache.set(key, v)
    return v
  }
}

export const asPublished = build([])
export const asDocumented = build(Object.keys(Documented) as Array<Documented>)

/** Ajv's errors, short enough for a failure message. */
export const explain = (v: ValidateFunction) =>
  (v.errors ?? [])
    .slice(0, 6)
    .map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`)
    .join("; ")
