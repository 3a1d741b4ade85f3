/**
 * A request to evaluate against, and its encodings. A request is a plain object of field name to
 * value, as JSON can carry it:
 *
 * - String (Bytes) fields: a string (its UTF-8 bytes), a `Uint8Array`, or `{"$base64": "..."}`
 *   for bytes that are not text (`cf.random_seed`).
 * - Integer fields: a number (an integer) or a bigint.
 * - Boolean fields: `true` / `false`.
 * - IP address fields: a string, `"192.0.2.1"` or `"2001:db8::1"`.
 * - Array fields: an array of the element encoding.
 * - Map fields: an object (or a `Map`) of key to the element encoding; keys are compared bytewise
 *   (header names are lowercase on the platform).
 * - Missing values: the field absent, `null` or `undefined`. A value of the wrong shape is missing
 *   too (`validateRequest()` reports it).
 * - `"$lists"`: the contents of named lists, `{"office": ["192.0.2.0/24", "198.51.100.7"]}` for IP
 *   lists (addresses, CIDR blocks, `a..b` ranges), hostnames for hostname lists, numbers for ASN lists.
 *
 * A `RequestContext` converts each field once, when an expression first reads it, and is shared by
 * every expression evaluated against the same request.
 */
import * as Either from "effect/Either"
import { decodeBase64, fromBytes, fromText } from "./bytes.js"
import { cidrBounds, IpSet, parseIp, parseIpValue, type IpAddress } from "./ip.js"
import { HTTP_SCHEME, suggest, type Scheme } from "./scheme.js"
import { typeName, type Type } from "./types.js"

export type Request = Readonly<Record<string, unknown>>

/** A named list's contents, compiled for membership tests. */
export interface ListContents {
  readonly ips: IpSet
  readonly strings: ReadonlySet<string>
  readonly ints: ReadonlySet<number>
}

const MISSING = Symbol("missing")

export class RequestContext {
  private readonly cache: Array<unknown>
  private listCache: Map<string, ListContents | undefined> | undefined
  private memo: Array<unknown> | undefined

  constructor(
    readonly request: Request,
    readonly scheme: Scheme = HTTP_SCHEME,
    private readonly lists?: ReadonlyMap<string, ListContents>
  ) {
    this.cache = new Array(scheme.fields.length)
  }

  /** The converted value of field `id` (`scheme.fieldId(name)`), or undefined when missing. */
  get(id: number): unknown {
    let v = this.cache[id]
    if (v === undefined) {
      const f = this.scheme.fields[id]!
      v = convert(f.type, this.request[f.name]) ?? MISSING
      this.cache[id] = v
    }
    return v === MISSING ? undefined : v
  }

  /**
   * The value of a pure function call (`lower(http.user_agent)`), computed once per request
   * however many expressions use it. `slot` identifies the call's canonical text process-wide.
   */
  memoized(slot: number, compute: (ctx: RequestContext) => unknown): unknown {
    const memo = (this.memo ??= [])
    let v = memo[slot]
    if (v === undefined) {
      v = compute(this) ?? MISSING
      memo[slot] = v
    }
    return v === MISSING ? undefined : v
  }

  /** A named list: from the request's `$lists`, else from the compile options. */
  list(name: string): ListContents | undefined {
    const own = this.request.$lists as Record<string, unknown> | undefined
    if (
      own !== undefined &&
      own !== null &&
      typeof own === "object" &&
      Object.prototype.hasOwnProperty.call(own, name)
    ) {
      this.listCache ??= new Map()
      if (!this.listCache.has(name)) this.listCache.set(name, compileList((own as Record<string, unknown>)[name]))
      return this.listCache.get(name)
    }
    return this.lists?.get(name)
  }
}

/** Converts a request value to the evaluator's representation, or undefined (missing). */
const convert = (t: Type, v: unknown): unknown => {
  if (v === null || v === undefined) return undefined
  switch (t.kind) {
    case "Bool":
      return typeof v === "boolean" ? v : undefined
    case "Int":
      if (typeof v === "number") return Number.isInteger(v) ? v : undefined
      if (typeof v === "bigint") return Number(v)
      return undefined
    case "Bytes":
      return toBinary(v)
    case "Ip":
      return typeof v === "string" ? parseIpValue(v) : undefined
    case "Array": {
      if (!Array.isArray(v)) return undefined
      const out: Array<unknown> = []
      for (const e of v) {
        const c = convert(t.of, e)
        if (c !== undefined) out.push(c)
      }
      return out
    }
    case "Map": {
      const entries =
        v instanceof Map
          ? [...v.entries()]
          : typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array)
            ? Object.entries(v)
            : undefined
      if (entries === undefined) return undefined
      const out = new Map<string, unknown>()
      for (const [k, e] of entries) {
        const c = convert(t.of, e)
        if (c !== undefined && typeof k === "string") out.set(fromText(k), c)
      }
      return out
    }
  }
}

const toBinary = (v: unknown): string | undefined => {
  if (typeof v === "string") return fromText(v)
  if (v instanceof Uint8Array) return fromBytes(v)
  if (typeof v === "object" && v !== null && typeof (v as { $base64?: unknown }).$base64 === "string")
    return decodeBase64((v as { $base64: string }).$base64)
  return undefined
}

/** Compiles a list's items: IP addresses, CIDR blocks and ranges; strings; integers. */
export const compileList = (items: unknown): ListContents | undefined => {
  if (!Array.isArray(items)) return undefined
  const ranges: Array<{ lo: IpAddress; hi: IpAddress }> = []
  const strings = new Set<string>()
  const ints = new Set<number>()
  for (const item of items) {
    if (typeof item === "number" && Number.isInteger(item)) ints.add(item)
    else if (typeof item === "string") {
      strings.add(fromText(item))
      const r = ipRangeOf(item)
      if (r !== undefined) ranges.push(r)
    }
  }
  return { ips: new IpSet(ranges), strings, ints }
}

const ipRangeOf = (item: string): { lo: IpAddress; hi: IpAddress } | undefined => {
  const slash = item.indexOf("/")
  if (slash >= 0) {
    const a = Either.getOrUndefined(parseIp(item.slice(0, slash)))
    const p = Number(item.slice(slash + 1))
    if (a === undefined || !/^[0-9]{1,3}$/.test(item.slice(slash + 1)) || p > (a.v === 4 ? 32 : 128)) return undefined
    return cidrBounds(a, p)
  }
  const dots = item.indexOf("..")
  if (dots >= 0) {
    const a = Either.getOrUndefined(parseIp(item.slice(0, dots)))
    const b = Either.getOrUndefined(parseIp(item.slice(dots + 2)))
    return a !== undefined && b !== undefined && a.v === b.v ? { lo: a, hi: b } : undefined
  }
  const a = Either.getOrUndefined(parseIp(item))
  return a !== undefined ? { lo: a, hi: a } : undefined
}

export interface RequestProblem {
  readonly field: string
  readonly message: string
}

/** What is wrong with a request: unknown fields, and values that do not fit their field's type. */
export const validateRequest = (request: unknown, scheme: Scheme = HTTP_SCHEME): ReadonlyArray<RequestProblem> => {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return [{ field: "", message: "a request is a JSON object of field name to value" }]
  }
  const out: Array<RequestProblem> = []
  for (const [name, value] of Object.entries(request)) {
    if (name === "$lists") {
      if (typeof value !== "object" || value === null || Array.isArray(value))
        out.push({ field: name, message: "must be an object of list name to an array of items" })
      else
        for (const [list, items] of Object.entries(value))
          if (!Array.isArray(items)) out.push({ field: `$lists.${list}`, message: "must be an array of items" })
      continue
    }
    const f = scheme.field(name)
    if (f === undefined) {
      const s = suggest(
        name,
        scheme.fields.map((x) => x.name)
      )
      out.push({ field: name, message: `unknown field${s ? ` (did you mean ${s}?)` : ""}` })
      continue
    }
    if (value === null || value === undefined) continue
    const problem = shapeProblem(f.type, value)
    if (problem !== undefined) out.push({ field: name, message: problem })
  }
  return out
}

const shapeProblem = (t: Type, v: unknown): string | undefined => {
  if (t.kind === "Array") {
    if (!Array.isArray(v)) return `expected an array (${typeName(t)}), got ${describe(v)}`
    for (let i = 0; i < v.length; i++) {
      const p = shapeProblem(t.of, v[i])
      if (p !== undefined) return `element ${i}: ${p}`
    }
    return undefined
  }
  if (t.kind === "Map") {
    if (typeof v !== "object" || v === null || Array.isArray(v))
      return `expected an object (${typeName(t)}), got ${describe(v)}`
    for (const [k, e] of Object.entries(v)) {
      const p = shapeProblem(t.of, e)
      if (p !== undefined) return `key ${JSON.stringify(k)}: ${p}`
    }
    return undefined
  }
  if (convert(t, v) !== undefined) return undefined
  switch (t.kind) {
    case "Int":
      return `expected an integer, got ${describe(v)}`
    case "Bool":
      return `expected true or false, got ${describe(v)}`
    case "Ip":
      return `expected an IP address string, got ${describe(v)}`
    default: {
      const b64 = typeof v === "object" && v !== null ? (v as { $base64?: unknown }).$base64 : undefined
      if (typeof b64 === "string")
        return `the "$base64" value is not valid base64: ${JSON.stringify(b64.length > 40 ? `${b64.slice(0, 39)}…` : b64)}`
      return `expected a string (or {"$base64": "..."}), got ${describe(v)}`
    }
  }
}

const describe = (v: unknown): string => {
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`
  if (Array.isArray(v)) return "an array"
  if (v === null) return "null"
  if (typeof v === "object") return "an object"
  return `${typeof v} ${String(v)}`
}
