/**
 * A file's `cloudflare_rate_limit`, `cloudflare_zone_lockdown` and `cloudflare_user_agent_blocking_rule`
 * resources read as the platform held them (src/domain/legacy-security.ts), from the HCL of either
 * provider shape: nested blocks (3.x, 4.x: `action { }`, `match { request { } }`, `configurations
 * { }`) or object attributes (5.x: `action = { }`, `configurations = [{ }]`). What the legacy
 * rewrite (./legacy-rewrite.ts) hands to the migrations' own plan functions. A value the
 * reader cannot take as a literal is a `Problem` naming the attribute: the rewrite then withholds
 * the zone's ruleset (it is the zone's whole entry point of the phase, so leaving the rule out
 * would drop it).
 */
import type { Lockdown, RateLimit, UaRule } from "../../domain/legacy-security.js"
import {
  RateLimitContentTypes,
  RateLimitMethods,
  RateLimitModes,
  RateLimitSchemes
} from "../../domain/legacy-security.js"
import { UaModes } from "../../domain/legacy-security.js"
import type { HclNode } from "../hcl.js"
import { LITERAL_HINT, META_HINT, type Problem } from "./firewall-read.js"
import type { ResourceBlock } from "./analyze.js"

/** An HCL value read as data; `Unread` where it is not a literal (a reference, a function call, a template). */
export type Value = string | number | boolean | null | ReadonlyArray<Value> | { readonly [k: string]: Value } | Unread
export class Unread {
  constructor(readonly text: string) {}
}

const unwrap = (n: HclNode): HclNode => {
  let x = n
  while (
    (x.type === "expression" || x.type === "collection_value" || x.type === "literal_value") &&
    x.namedChildren.length === 1
  )
    x = x.namedChildren[0]!
  return x
}

/** A quoted HCL string without templates, decoded (`$${` is a literal `${`). */
const decodeString = (n: HclNode): string | undefined => {
  if (n.namedChildren.some((c) => c?.type === "template_interpolation" || c?.type === "template_directive"))
    return undefined
  const inner = n.text
    .slice(1, -1)
    .replace(/\$\$\{/g, "${")
    .replace(/%%\{/g, "%{")
  try {
    return JSON.parse(`"${inner}"`) as string
  } catch {
    return undefined
  }
}

const valueOf = (node: HclNode): Value => {
  const v = unwrap(node)
  switch (v.type) {
    case "string_lit":
      return decodeString(v) ?? new Unread(node.text)
    case "numeric_lit":
      return Number(v.text)
    case "bool_lit":
      return v.text === "true"
    case "null_lit":
      return null
    case "tuple":
      return v.namedChildren.filter((c) => c?.type === "expression").map((c) => valueOf(c!))
    case "object": {
      const out: Record<string, Value> = {}
      for (const e of v.namedChildren) {
        if (e?.type !== "object_elem") continue
        const key = unwrap(e.namedChildren[0]!)
        const name = key.type === "string_lit" ? decodeString(key) : key.type === "variable_expr" ? key.text : undefined
        if (name === undefined) return new Unread(node.text)
        out[name] = valueOf(e.namedChildren[1]!)
      }
      return out
    }
    case "operation": {
      // `-1`: a unary minus on a number.
      const u = v.namedChildren[0]
      const operand = u?.type === "unary_operation" ? u.namedChildren[0] : undefined
      if (operand !== undefined && operand !== null && u!.text.startsWith("-")) {
        const n = valueOf(operand)
        if (typeof n === "number") return -n
      }
      return new Unread(node.text)
    }
    default:
      return new Unread(node.text)
  }
}

/** A block body as data: attributes by name, nested blocks as lists of bodies (blocks repeat). */
const bodyOf = (body: HclNode | null | undefined): Record<string, Value> => {
  const out: Record<string, Value> = {}
  for (const c of body?.namedChildren ?? []) {
    if (c?.type === "attribute") out[c.namedChildren[0]!.text] = valueOf(c.namedChildren[1]!)
    else if (c?.type === "block") {
      const name = c.namedChildren[0]!.text
      const inner = bodyOf(c.namedChildren.find((x) => x?.type === "body"))
      out[name] = [...((out[name] as ReadonlyArray<Value> | undefined) ?? []), inner]
    }
  }
  return out
}

export type Obj = { readonly [k: string]: Value }

/** Reads typed fields out of a resource's data, remembering the first value it could not take. */
class Reader {
  problem: Problem | undefined
  fail(at: string, why: string, hint = LITERAL_HINT): undefined {
    this.problem ??= { at: at.split(".")[0], why: `${at} ${why}`, hint }
    return undefined
  }
  /** An object: a 5.x attribute, or the one block of a max-1 block (3.x, 4.x). */
  obj(o: Obj | undefined, k: string, at: string): Obj | undefined {
    const v = o?.[k]
    if (v === undefined || v === null) return undefined
    if (v instanceof Unread) return this.fail(at, `= ${v.text} is not a literal`)
    if (Array.isArray(v)) return v.length === 0 ? undefined : this.obj({ x: v[0]! }, "x", at)
    if (typeof v === "object") return v as Obj
    return this.fail(at, `is ${JSON.stringify(v)}, not a block or an object`)
  }
  list(o: Obj | undefined, k: string, at: string): ReadonlyArray<Value> | undefined {
    const v = o?.[k]
    if (v === undefined || v === null) return undefined
    if (v instanceof Unread) return this.fail(at, `= ${v.text} is not a literal`)
    if (Array.isArray(v)) {
      const bad = v.find((x) => x instanceof Unread)
      return bad instanceof Unread ? this.fail(at, `has ${bad.text}, not a literal`) : v
    }
    return this.fail(at, `is ${JSON.stringify(v)}, not a list`)
  }
  /** A repeated block's bodies: a list (HCL blocks, 5.x's list attribute), or in JSON one object for one block. */
  blocks(o: Obj | undefined, k: string, at: string): ReadonlyArray<Value> | undefined {
    const v = o?.[k]
    return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Unread)
      ? [v]
      : this.list(o, k, at)
  }
  prim<T extends "string" | "number" | "boolean">(
    o: Obj | undefined,
    k: string,
    type: T,
    at: string
  ): (T extends "string" ? string : T extends "number" ? number : boolean) | undefined {
    const v = o?.[k]
    if (v === undefined || v === null) return undefined
    if (v instanceof Unread) return this.fail(at, `= ${v.text} is not a literal`)
    if (typeof v !== type) return this.fail(at, `is ${JSON.stringify(v)}, not a ${type}`)
    return v as never
  }
  oneOf<T extends string>(value: string | undefined, allowed: ReadonlyArray<T>, at: string): T | undefined {
    if (value === undefined) return undefined
    if ((allowed as ReadonlyArray<string>).includes(value)) return value as T
    return this.fail(at, `is "${value}": the API takes ${allowed.join(", ")}`, `write one of ${allowed.join(", ")}`)
  }
  required<T>(value: T | undefined, at: string): T | undefined {
    return value === undefined && this.problem === undefined ? this.fail(at, "is missing", `give it its ${at}`) : value
  }
}

/** A resource's body as data (attributes, and nested blocks as lists). */
export const dataOf = (b: ResourceBlock): Obj => bodyOf(b.node.namedChildren.find((c) => c?.type === "body"))

/** `for_each` / `count`: the resource stands for rules the rewrite cannot tell (HCL and JSON keep them as data alike). */
const metaProblem = (d: Obj): Problem | undefined => {
  for (const meta of ["for_each", "count"])
    if (d[meta] !== undefined)
      return { at: meta, why: `it has ${meta}: the rewrite cannot tell the rules it stands for`, hint: META_HINT }
  return undefined
}

/** A `cloudflare_rate_limit` (3.x/4.x blocks, 5.x objects: `url_pattern` or `url`, `statuses`, `bypass_url_patterns`). */
export const readRateLimit = (id: string, d: Obj): RateLimit | Problem => {
  const meta = metaProblem(d)
  if (meta !== undefined) return meta
  const r = new Reader()
  const action = r.obj(d, "action", "action")
  const match = r.obj(d, "match", "match")
  const request = r.obj(match, "request", "match.request")
  const response = r.obj(match, "response", "match.response")
  const strings = (o: Obj | undefined, k: string, at: string) => {
    const l = r.list(o, k, at)
    if (l === undefined) return undefined
    if (l.some((x) => typeof x !== "string")) return r.fail(at, "is not a list of strings") as undefined
    return l as ReadonlyArray<string>
  }
  const upper = (l: ReadonlyArray<string> | undefined) => l?.map((x) => x.toUpperCase())
  const methods = (upper(strings(request, "methods", "match.request.methods")) ?? ["_ALL_"]).map((m) =>
    r.oneOf(m, RateLimitMethods, "match.request.methods")
  )
  const schemes = (upper(strings(request, "schemes", "match.request.schemes")) ?? ["_ALL_"]).map((s) =>
    r.oneOf(s, RateLimitSchemes, "match.request.schemes")
  )
  const url =
    r.prim(request, "url_pattern", "string", "match.request.url_pattern") ??
    r.prim(request, "url", "string", "match.request.url") ??
    "*"
  const statuses = r.list(response, "statuses", "match.response.statuses")
  if (statuses?.some((s) => typeof s !== "number")) r.fail("match.response.statuses", "is not a list of numbers")
  // 3.x/4.x: `match.response.headers`; 5.x: `match.headers`.
  const headerList = r.list(response, "headers", "match.response.headers") ?? r.list(match, "headers", "match.headers")
  const headers = (headerList ?? []).map((h) => {
    const o = typeof h === "object" && h !== null && !Array.isArray(h) ? (h as Obj) : undefined
    const name = r.required(r.prim(o, "name", "string", "match.response.headers.name"), "headers.name")
    const op = r.oneOf(r.prim(o, "op", "string", "match.response.headers.op"), ["eq", "ne"] as const, "headers.op")
    const value = r.required(r.prim(o, "value", "string", "match.response.headers.value"), "headers.value")
    return { name: name ?? "", op: op ?? "eq", value: value ?? "" }
  })
  const mode = r.required(
    r.oneOf(r.prim(action, "mode", "string", "action.mode")?.toLowerCase(), RateLimitModes, "action.mode"),
    "action.mode"
  )
  const actionResponse = r.obj(action, "response", "action.response")
  const contentType = r.oneOf(
    r.prim(actionResponse, "content_type", "string", "action.response.content_type"),
    RateLimitContentTypes,
    "action.response.content_type"
  )
  const body = r.prim(actionResponse, "body", "string", "action.response.body")
  const timeout = r.prim(action, "timeout", "number", "action.timeout")
  const threshold = r.required(r.prim(d, "threshold", "number", "threshold"), "threshold")
  const period = r.required(r.prim(d, "period", "number", "period"), "period")
  const bypass = strings(d, "bypass_url_patterns", "bypass_url_patterns") ?? []
  const correlate = r.obj(d, "correlate", "correlate")
  const by = r.prim(correlate, "by", "string", "correlate.by")
  const disabled = r.prim(d, "disabled", "boolean", "disabled") ?? false
  const description = r.prim(d, "description", "string", "description") ?? ""
  const originTraffic = r.prim(response, "origin_traffic", "boolean", "match.response.origin_traffic") ?? false
  if (r.problem !== undefined) return r.problem
  return {
    id,
    disabled,
    description,
    match: {
      request: {
        methods: methods as Array<RateLimit["match"]["request"]["methods"][number]>,
        schemes: schemes as Array<RateLimit["match"]["request"]["schemes"][number]>,
        url
      },
      response: {
        ...(statuses !== undefined && statuses.length > 0 ? { status: statuses as Array<number> } : {}),
        origin_traffic: originTraffic,
        ...(headers.length > 0 ? { headers } : {})
      }
    },
    bypass: bypass.map((value) => ({ name: "url" as const, value })),
    threshold: threshold!,
    period: period!,
    action: {
      mode: mode!,
      ...(timeout !== undefined ? { timeout } : {}),
      ...(contentType !== undefined && body !== undefined ? { response: { content_type: contentType, body } } : {})
    },
    ...(by === "nat" ? { correlate: { by: "nat" as const } } : {})
  }
}

/** A `cloudflare_zone_lockdown` (3.x/4.x `configurations { }` blocks, 5.x a list of objects). */
export const readLockdown = (id: string, d: Obj): Lockdown | Problem => {
  const meta = metaProblem(d)
  if (meta !== undefined) return meta
  const r = new Reader()
  const urls = r.required(r.list(d, "urls", "urls"), "urls") ?? []
  if (urls.some((u) => typeof u !== "string")) r.fail("urls", "is not a list of strings")
  const configurations = (r.required(r.blocks(d, "configurations", "configurations"), "configurations") ?? []).map(
    (c) => {
      const o = typeof c === "object" && c !== null && !Array.isArray(c) ? (c as Obj) : undefined
      const target = r.oneOf(
        r.prim(o, "target", "string", "configurations.target"),
        ["ip", "ip_range"] as const,
        "configurations.target"
      )
      const value = r.required(r.prim(o, "value", "string", "configurations.value"), "configurations.value")
      return { target: target ?? "ip", value: value ?? "" }
    }
  )
  const priority = r.prim(d, "priority", "number", "priority")
  const paused = r.prim(d, "paused", "boolean", "paused") ?? false
  const description = r.prim(d, "description", "string", "description") ?? ""
  if (r.problem !== undefined) return r.problem
  return {
    id,
    created_on: "",
    modified_on: "",
    paused,
    description,
    urls: urls as Array<string>,
    configurations,
    ...(priority !== undefined ? { priority } : {})
  }
}

/** A `cloudflare_user_agent_blocking_rule` (`configuration` a block in 3.x/4.x, an object in 5.x). */
export const readUaRule = (id: string, d: Obj): UaRule | Problem => {
  const meta = metaProblem(d)
  if (meta !== undefined) return meta
  const r = new Reader()
  const mode = r.required(r.oneOf(r.prim(d, "mode", "string", "mode"), UaModes, "mode"), "mode")
  const configuration = r.required(r.obj(d, "configuration", "configuration"), "configuration")
  const target = r.prim(configuration, "target", "string", "configuration.target")
  if (target !== undefined && target !== "ua")
    r.fail("configuration.target", `is "${target}": a User Agent Blocking rule matches "ua"`, 'write target = "ua"')
  const value = r.required(r.prim(configuration, "value", "string", "configuration.value"), "configuration.value")
  const paused = r.prim(d, "paused", "boolean", "paused") ?? false
  const description = r.prim(d, "description", "string", "description") ?? ""
  if (r.problem !== undefined) return r.problem
  return { id, paused, description, mode: mode!, configuration: { target: "ua", value: value! } }
}
