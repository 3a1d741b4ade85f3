/**
 * JSON Schemas (draft-07) of the files edgectl reads: KV bulk put and delete files, a WAF
 * configuration, a custom rules document (`<name>.custom-rules.json`), one line of a replay
 * traffic file. One source: built here from what the commands check (the wire schemas of
 * src/domain, the KV fields and limits, the rules language's fields), written to `schemas/` by the
 * build (shipped in the package, for other editors' JSON servers and CI validators), and read by
 * the language server's completion (./json-schema-complete.ts).
 */
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"
import { CustomRule } from "../domain/custom-rule.js"
import { KeyMaxBytes, MaxExpiration, MinTtlSeconds } from "../domain/kv-limits.js"
import { WafConfig } from "../domain/waf.js"
import { EntryFields } from "../kv/entry-checks.js"
import { FIELDS } from "../rules/index.js"
import type { Type } from "../rules/types.js"
import { EntryFieldDocs } from "./kv-bulk-docs.js"

/** A JSON Schema, as far as completion reads one. */
export interface JsonSchema {
  readonly $schema?: string
  readonly $id?: string
  readonly title?: string
  readonly description?: string
  readonly type?: string | ReadonlyArray<string>
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly items?: JsonSchema
  readonly required?: ReadonlyArray<string>
  readonly enum?: ReadonlyArray<unknown>
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly additionalProperties?: boolean | JsonSchema
  /** `#/definitions/<name>` of the document's own `definitions`. */
  readonly $ref?: string
  readonly definitions?: Readonly<Record<string, JsonSchema>>
  readonly [k: string]: unknown
}

const DRAFT = "http://json-schema.org/draft-07/schema#"
const BASE = "https://edgectl.dev/schemas/"

/** The schema of an object document, with `$schema` allowed (a file may name its schema) and its title. */
const document = (name: string, title: string, description: string, body: JsonSchema): JsonSchema => {
  const { $schema: _drop, ...rest } = body
  return {
    $schema: DRAFT,
    $id: `${BASE}${name}.schema.json`,
    title,
    description,
    ...rest,
    ...(rest.type === "object" && rest.properties !== undefined
      ? { properties: { $schema: { type: "string", description: "the schema this file follows" }, ...rest.properties } }
      : {})
  }
}

const kvEntry: JsonSchema = {
  type: "object",
  required: ["key", "value"],
  properties: Object.fromEntries(
    EntryFields.map((f): [string, JsonSchema] => {
      const description = EntryFieldDocs[f]
      switch (f) {
        case "key":
          // maxLength counts characters, the limit bytes: a key of ASCII reaches both at once.
          return [f, { type: "string", minLength: 1, maxLength: KeyMaxBytes, description }]
        case "value":
          return [f, { type: "string", description }]
        case "expiration":
          return [f, { type: "integer", minimum: 0, maximum: MaxExpiration, description }]
        case "expiration_ttl":
          return [f, { type: "integer", minimum: MinTtlSeconds, description }]
        case "metadata":
          return [f, { type: ["object", "null"], description }]
        case "base64":
          return [f, { type: "boolean", description }]
      }
    })
  )
}

const kvBulkPut = document(
  "kv-bulk-put",
  "edgectl KV bulk put file",
  "the entries `edgectl kv bulk put FILE` writes (strict JSON: no comments, no trailing commas)",
  { type: "array", items: kvEntry }
)

const kvBulkDelete = document(
  "kv-bulk-delete",
  "edgectl KV bulk delete file",
  "the keys `edgectl kv bulk delete FILE` and `kv bulk get FILE` read: key strings, or `kv key list --json`'s objects",
  {
    type: "array",
    items: {
      oneOf: [
        { type: "string", minLength: 1, maxLength: KeyMaxBytes, description: "a key" },
        {
          type: "object",
          required: ["name"],
          properties: {
            name: { type: "string", minLength: 1, maxLength: KeyMaxBytes, description: "the key" },
            expiration: { type: "integer", description: "ignored: what `kv key list --json` prints" },
            metadata: { description: "ignored: what `kv key list --json` prints" }
          }
        }
      ]
    }
  }
)

const wafConfig = document(
  "waf-config",
  "edgectl WAF configuration",
  "the managed phase's rules (`http_request_firewall_managed`): what `edgectl waf config --json` prints and `waf config apply` takes",
  JSONSchema.make(WafConfig) as JsonSchema
)

const customRules = document(
  "custom-rules",
  "edgectl WAF custom rules",
  "the body of PUT /zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint: the zone's custom rules, in order",
  JSONSchema.make(Schema.Struct({ rules: Schema.Array(CustomRule) })) as JsonSchema
)

const valueSchema = (t: Type): JsonSchema => {
  switch (t.kind) {
    case "Bool":
      return { type: "boolean" }
    case "Int":
      return { type: "integer" }
    case "Bytes":
      return { type: "string" }
    case "Ip":
      return { type: "string", description: "an IPv4 or IPv6 address" }
    case "Array":
      return { type: "array", items: valueSchema(t.of) }
    case "Map":
      return { type: "object", additionalProperties: valueSchema(t.of) }
  }
}

const request: JsonSchema = {
  type: "object",
  description: "a request: field name to value, in the rules language's encoding",
  properties: {
    ...Object.fromEntries(
      FIELDS.map((f) => [
        f.name,
        {
          ...valueSchema(f.type),
          description: `${f.typeText}: ${f.summary}${f.replacedBy ? ` (use ${f.replacedBy})` : ""}`
        }
      ])
    ),
    $lists: {
      type: "object",
      description: "the named lists the request's expressions use: list name to items",
      additionalProperties: { type: "array" }
    },
    at: { $ref: "#/definitions/at" }
  },
  additionalProperties: false
}

/** A line's time (src/rules/traffic-line.ts): the rate limit replay counts requests per period with it. */
const at: JsonSchema = {
  description:
    'when the request came (not a field; the rate limit replay counts with it): an ISO time, milliseconds since 1970, or "+ms" after the previous request',
  anyOf: [
    { type: "string", format: "date-time", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}" },
    { type: "number", minimum: 0 },
    { type: "string", pattern: "^\\+\\d+(\\.\\d+)?$" }
  ]
}

const replayTraffic = {
  $schema: DRAFT,
  $id: `${BASE}replay-traffic.schema.json`,
  title: "edgectl replay traffic line",
  description:
    "one line of a traffic file (JSONL) for `waf replay --traffic` and every migration's `--replay`: a request, or {id, at, request}",
  definitions: { request, at },
  oneOf: [
    {
      type: "object",
      required: ["request"],
      properties: {
        id: { type: "string", description: "names the request in the report" },
        at: { $ref: "#/definitions/at" },
        request: { $ref: "#/definitions/request" }
      },
      additionalProperties: false
    },
    { $ref: "#/definitions/request" }
  ]
} satisfies JsonSchema

/** The schemas by file name under `schemas/`. */
export const JSON_SCHEMAS: ReadonlyMap<string, JsonSchema> = new Map([
  ["kv-bulk-put.schema.json", kvBulkPut],
  ["kv-bulk-delete.schema.json", kvBulkDelete],
  ["waf-config.schema.json", wafConfig],
  ["custom-rules.schema.json", customRules],
  ["replay-traffic.schema.json", replayTraffic]
])

/** A schema's file text as shipped (two-space JSON, a final newline). */
export const schemaText = (schema: JsonSchema): string => `${JSON.stringify(schema, null, 2)}\n`
