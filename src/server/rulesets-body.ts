/**
 * The custom phase's request bodies, read field by field so that a refusal names the field, the
 * limit and the value (`rules[2].action_parameters.products[0]: expected one of …, got "wafx"`):
 * a rule (entry point PUT, rule POST and PATCH), a position, the entry point's own fields, and the
 * `dry_run` parameter. Expressions are checked with the rules language for the zone's plan; as on
 * the platform, `matches` (regex) and the `log` action are refused below the plans that have them.
 */
import * as Either from "effect/Either"
import { InvalidExpression, InvalidInput } from "../domain/errors.js"
import { CustomRulesPhase } from "../domain/custom-rule.js"
import {
  parsingMessage,
  planGatedMessage,
  planGatedOperator,
  planOf,
  toWireDiagnostic
} from "../firewall/expression.js"
import { check, MAX_EXPRESSION_LENGTH } from "../rules/index.js"
import type { RateLimitParameters } from "../domain/ruleset.js"
import { jsonPrefix } from "./json-body.js"

const ACTIONS = ["block", "challenge", "js_challenge", "managed_challenge", "log", "skip"]
/** What a skip rule can skip beyond the rest of the phase (reference §2: bypass products and their successors). */
const SKIP_PRODUCTS = ["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"]
const SKIP_PHASES = ["http_ratelimit", "http_request_firewall_managed", "http_request_sbfm"]
const CONTENT_TYPES = ["text/html", "text/plain", "application/json", "text/xml"]
const RULE_FIELDS = ["id", "ref", "action", "expression", "description", "enabled", "action_parameters", "logging"]

export const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)
// Bounded: the messages are built before the check they belong to, for bodies of up to 100 MB.
export const show = (u: unknown) => (u === undefined ? "nothing" : (jsonPrefix(u, 80) ?? String(u)))

/** A refusal met while reading: thrown inside this module only, returned as a value by its exports. */
class Refused {
  constructor(readonly error: InvalidInput | InvalidExpression) {}
}
export const bad = (field: string, message: string): never => {
  throw new Refused(new InvalidInput({ message: `${field}: ${message}` }))
}
export const want = (cond: boolean, field: string, message: string) => {
  if (!cond) bad(field, message)
}
export const reading = <A>(read: () => A): Read<A> => {
  try {
    return Either.right(read())
  } catch (e) {
    if (e instanceof Refused) return Either.left(e.error)
    throw e
  }
}

/** A body read: its value, or the refusal (an Effect too: `yield* read` fails with the refusal). */
export type Read<A, E = InvalidInput | InvalidExpression> = Either.Either<A, E>

const optString = (o: Record<string, unknown>, k: string, at: string) => {
  want(o[k] === undefined || typeof o[k] === "string", `${at}${k}`, `expected a string, got ${show(o[k])}`)
  return o[k] as string | undefined
}
export const oneOf = (v: unknown, values: ReadonlyArray<string>, field: string) =>
  want(typeof v === "string" && values.includes(v), field, `expected one of ${values.join(", ")}, got ${show(v)}`)

const strings = (v: unknown, values: ReadonlyArray<string>, field: string) => {
  want(Array.isArray(v) && v.length > 0, field, `expected a non-empty array, got ${show(v)}`)
  ;(v as Array<unknown>).forEach((x, i) => oneOf(x, values, `${field}[${i}]`))
  return [...new Set(v as Array<string>)]
}

/** A rule as given: what the store turns into a rule with an id, a version and a time. */
export interface RuleInput {
  readonly id?: string | undefined
  readonly ref?: string | undefined
  readonly action: string
  readonly expression: string
  readonly description?: string | undefined
  readonly enabled: boolean
  readonly action_parameters?: Record<string, unknown> | undefined
  readonly logging?: { readonly enabled: boolean } | undefined
  /** A rate limiting rule's counter (the http_ratelimit phase, rulesets-ratelimit.ts). */
  readonly ratelimit?: RateLimitParameters | undefined
}

export const checkExpression = (
  expression: string,
  plan: string,
  field: string,
  phase: "request" | "response" = "request"
) => {
  want(expression.trim() !== "", field, "expected an expression, got an empty string")
  want(
    expression.length <= MAX_EXPRESSION_LENGTH,
    field,
    `expressions are limited to ${MAX_EXPRESSION_LENGTH.toLocaleString("en-US")} characters, got ${expression.length.toLocaleString("en-US")}`
  )
  const p = planOf(plan)
  const result = check(expression, p !== undefined ? { plan: p, phase } : { phase })
  const regex = planGatedOperator(result.diagnostics)
  const first = result.diagnostics.find((d) => d.severity === "error") ?? (result.valid ? regex : undefined)
  if (first === undefined) return
  throw new Refused(
    new InvalidExpression({
      message: `${field}: ${first === regex ? planGatedMessage(plan) : parsingMessage(expression, first)}`,
      diagnostics: result.diagnostics.map(toWireDiagnostic),
      meta: { expression, field }
    })
  )
}

const readParameters = (action: string, u: unknown, at: string): Record<string, unknown> | undefined => {
  if (u === undefined) {
    want(action !== "skip", at, "a skip rule needs ruleset, phases or products, got nothing")
    return undefined
  }
  want(isRecord(u), at, `expected an object, got ${show(u)}`)
  const o = u as Record<string, unknown>
  const allowed = action === "skip" ? ["ruleset", "phases", "products"] : action === "block" ? ["response"] : []
  const extra = Object.keys(o).find((k) => !allowed.includes(k))
  if (extra !== undefined) {
    bad(
      `${at}.${extra}`,
      allowed.length === 0
        ? `the ${action} action takes no parameters, got ${show(o[extra])}`
        : `the ${action} action takes ${allowed.join(", ")}, got ${extra}`
    )
  }
  if (action === "block") {
    const r = o.response
    if (r === undefined) return {}
    want(isRecord(r), `${at}.response`, `expected an object, got ${show(r)}`)
    const res = r as Record<string, unknown>
    const code = res.status_code
    want(
      typeof code === "number" && Number.isInteger(code) && code >= 400 && code <= 499,
      `${at}.response.status_code`,
      `expected an integer from 400 to 499, got ${show(code)}`
    )
    oneOf(res.content_type, CONTENT_TYPES, `${at}.response.content_type`)
    want(typeof res.content === "string", `${at}.response.content`, `expected a string, got ${show(res.content)}`)
    return { response: { status_code: code, content: res.content, content_type: res.content_type } }
  }
  const out: Record<string, unknown> = {}
  if (o.ruleset !== undefined) {
    oneOf(o.ruleset, ["current"], `${at}.ruleset`)
    out.ruleset = "current"
  }
  if (o.phases !== undefined) out.phases = strings(o.phases, SKIP_PHASES, `${at}.phases`)
  if (o.products !== undefined) out.products = strings(o.products, SKIP_PRODUCTS, `${at}.products`)
  want(Object.keys(out).length > 0, at, "a skip rule needs ruleset, phases or products, got none")
  return out
}

export const readRuleAt = (
  u: unknown,
  at: string,
  plan: string,
  extraFields: ReadonlyArray<string> = []
): RuleInput => {
  const field = (k: string) => `${at}${at === "" ? "" : "."}${k}`
  const prefix = at === "" ? "" : `${at}.`
  want(isRecord(u), at === "" ? "body" : at, `expected a rule object, got ${show(u)}`)
  const o = u as Record<string, unknown>
  const unknown = Object.keys(o).find((k) => !RULE_FIELDS.includes(k) && !extraFields.includes(k))
  // Read-only fields the platform answers are accepted back unchanged (a GET, edited, then PUT).
  if (unknown !== undefined && !["version", "last_updated", "categories"].includes(unknown)) {
    bad(field(unknown), `not a field of a custom rule (expected ${RULE_FIELDS.join(", ")})`)
  }
  oneOf(o.action, ACTIONS, field("action"))
  const action = o.action as string
  if (action === "log" && plan !== "enterprise") {
    bad(field("action"), `the log action needs the Enterprise plan, this zone is on ${plan}`)
  }
  want(typeof o.expression === "string", field("expression"), `expected a string, got ${show(o.expression)}`)
  checkExpression(o.expression as string, plan, field("expression"))
  const id = optString(o, "id", prefix)
  const ref = optString(o, "ref", prefix)
  const description = optString(o, "description", prefix)
  want(
    o.enabled === undefined || typeof o.enabled === "boolean",
    field("enabled"),
    `expected true or false, got ${show(o.enabled)}`
  )
  const parameters = readParameters(action, o.action_parameters, field("action_parameters"))
  let logging: { enabled: boolean } | undefined
  if (o.logging !== undefined) {
    want(action === "skip", field("logging"), `only a skip rule takes logging, this rule's action is ${action}`)
    const l = o.logging
    want(
      isRecord(l) && typeof l.enabled === "boolean",
      field("logging.enabled"),
      `expected true or false, got ${show(isRecord(l) ? l.enabled : l)}`
    )
    logging = { enabled: (l as { enabled: boolean }).enabled }
  }
  return {
    ...(id !== undefined && id !== "" ? { id } : {}),
    ...(ref !== undefined && ref !== "" ? { ref } : {}),
    action,
    expression: o.expression as string,
    ...(description !== undefined ? { description } : {}),
    enabled: (o.enabled as boolean | undefined) ?? true,
    ...(parameters !== undefined ? { action_parameters: parameters } : {}),
    ...(logging !== undefined ? { logging } : {})
  }
}

/** Where a rule goes: before or after a rule (`""`: first or last), or at a 1-based index. */
export type Position = { readonly before: string } | { readonly after: string } | { readonly index: number }

const readPosition = (u: unknown): Position | undefined => {
  if (u === undefined) return undefined
  want(isRecord(u), "position", `expected an object with before, after or index, got ${show(u)}`)
  const o = u as Record<string, unknown>
  const keys = Object.keys(o)
  want(
    keys.length === 1 && ["before", "after", "index"].includes(keys[0]!),
    "position",
    `expected exactly one of before, after or index, got ${show(u)}`
  )
  if (o.index !== undefined) {
    want(
      typeof o.index === "number" && Number.isInteger(o.index) && o.index >= 1,
      "position.index",
      `expected an integer from 1, got ${show(o.index)}`
    )
    return { index: o.index as number }
  }
  const k = keys[0] as "before" | "after"
  want(
    typeof o[k] === "string",
    `position.${k}`,
    `expected a rule id (or "" for the ${k === "before" ? "first" : "last"} place), got ${show(o[k])}`
  )
  return k === "before" ? { before: o[k] as string } : { after: o[k] as string }
}

/** A rule POST or PATCH: the rule (absent when a PATCH carries only `position`) and where it goes. */
export interface RuleChange {
  readonly rule: RuleInput | undefined
  readonly position: Position | undefined
}

export const readRuleChange = (u: unknown, plan: string, patch: boolean): Read<RuleChange> =>
  reading(() => {
    want(isRecord(u), "body", `expected a rule object, got ${show(u)}`)
    const o = u as Record<string, unknown>
    const position = readPosition(o.position)
    if (patch && Object.keys(o).every((k) => k === "position") && position !== undefined) {
      return { rule: undefined, position }
    }
    return { rule: readRuleAt(u, "", plan, ["position"]), position }
  })

/** The entry point PUT: `name`, `description`, `kind` and `phase` as the ruleset has them, and the whole rule list. */
export interface EntrypointInput {
  readonly name: string | undefined
  readonly description: string | undefined
  readonly rules: ReadonlyArray<RuleInput>
}

export const readEntrypoint = (u: unknown, plan: string): Read<EntrypointInput> =>
  reading(() => {
    want(isRecord(u), "body", `expected a ruleset object, got ${show(u)}`)
    const o = u as Record<string, unknown>
    const name = optString(o, "name", "")
    const description = optString(o, "description", "")
    if (o.kind !== undefined) oneOf(o.kind, ["zone"], "kind")
    if (o.phase !== undefined) oneOf(o.phase, [CustomRulesPhase], "phase")
    want(o.rules === undefined || Array.isArray(o.rules), "rules", `expected an array, got ${show(o.rules)}`)
    const rules = ((o.rules as Array<unknown> | undefined) ?? []).map((r, i) => readRuleAt(r, `rules[${i}]`, plan))
    return { name, description, rules }
  })

/**
 * The explicit create (`POST /zones/{zone_id}/rulesets`): `name`, `kind` and `phase` are required;
 * a zone ruleset of the custom phase is the one kind this platform keeps.
 */
export const readCreate = (u: unknown, plan: string): Read<EntrypointInput> => {
  if (isRecord(u)) {
    for (const k of ["name", "kind", "phase"]) {
      if (u[k] === undefined)
        return Either.left(new InvalidInput({ message: `${k}: required to create a ruleset, got nothing` }))
    }
    if (u.kind !== "zone") {
      return Either.left(
        new InvalidInput({ message: `kind: a zone's rulesets on this platform are of kind zone, got ${show(u.kind)}` })
      )
    }
  }
  return readEntrypoint(u, plan)
}

/** `dry_run`: true or false; anything else is a 400 (reference §5). */
export const readDryRun = (v: string | undefined): Read<boolean, InvalidInput> =>
  v === undefined || v === "true" || v === "false"
    ? Either.right(v === "true")
    : Either.left(new InvalidInput({ message: `dry_run: expected true or false, got ${show(v)}` }))
