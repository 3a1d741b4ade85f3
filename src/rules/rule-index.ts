/**
 * An index of a rule list by what each rule's expression requires of a request, so that an
 * evaluator runs only the rules that can match instead of all of them, in the same order.
 *
 * A rule's keys are values that some field must have for the expression to be true: `http.host eq
 * "a"` needs http.host = "a"; `ip.src in {192.0.2.0/24}` needs ip.src within that block; `a and b`
 * needs what `a` needs (or what `b` needs: the narrower is taken); `a or b` needs what `a` needs or
 * what `b` needs, so both must have keys. A comparison on a missing field is false, so a missing
 * value never meets a key. An expression with no such keys (`not`, `contains`, `matches`, lists,
 * functions) is always checked; `false` is never checked. The index only drops rules whose
 * expression is false for the request, so first-match, log and skip semantics stay exactly those
 * of the full in-order loop.
 */
import type { Comparison, Expression, Rhs } from "./ast.js"
import type { CheckedExpression } from "./check.js"
import type { RequestContext } from "./context.js"
import { cidrBounds, type IpAddress } from "./ip.js"

/** A value of a String or Int field, or an IP block (`prefix` bits of `base`) of an IP field. */
type RuleKey =
  | { readonly kind: "value"; readonly field: number; readonly value: string | number }
  | {
      readonly kind: "ip"
      readonly field: number
      readonly v: 4 | 6
      readonly prefix: number
      readonly base: number | bigint
    }

/** Keys to look rules up by: at least one holds when the expression is true. Undefined: none (always checked). */
export type RuleKeys = ReadonlyArray<RuleKey> | undefined

/** Beyond this many keys, a comparison is not indexed (a set of this many hosts or addresses is). */
const MAX_KEYS = 4096
/** An integer range or an IPv4 range that needs more keys than this (values, CIDR blocks) is not indexed. */
const MAX_RANGE_KEYS = 64

// Fields with a handful of values across all traffic: a key on them narrows little.
const COARSE_FIELDS = new Set(["http.request.method", "http.request.version", "ip.src.country", "ip.geoip.country"])

/** What `checked` requires of a request to be true, or undefined when it can be true without any key. */
export const requiredKeys = (checked: CheckedExpression): RuleKeys => keysOf(checked, checked.expression)

const keysOf = (checked: CheckedExpression, e: Expression): RuleKeys => {
  switch (e.kind) {
    case "constant":
      return e.value ? undefined : []
    case "group":
      return keysOf(checked, e.expression)
    case "comparison":
      return comparisonKeys(checked, e)
    case "logical": {
      if (e.op === "xor") return undefined
      const each = e.operands.map((o) => keysOf(checked, o))
      if (e.op === "or") return each.some((k) => k === undefined) ? undefined : each.flatMap((k) => k!)
      let best: RuleKeys
      for (const k of each) if (k !== undefined && (best === undefined || narrower(checked, k, best))) best = k
      return best
    }
    default:
      return undefined
  }
}

const coarse = (checked: CheckedExpression, keys: ReadonlyArray<RuleKey>) =>
  keys.some((k) => COARSE_FIELDS.has(checked.scheme.fields[k.field]?.name ?? ""))

/** Whether `a` should be preferred to `b` as the keys of a conjunction: fewer requests meet it. */
const narrower = (checked: CheckedExpression, a: ReadonlyArray<RuleKey>, b: ReadonlyArray<RuleKey>) => {
  const ca = coarse(checked, a)
  const cb = coarse(checked, b)
  return ca !== cb ? cb : a.length < b.length
}

const comparisonKeys = (checked: CheckedExpression, c: Comparison): RuleKeys => {
  if (c.lhs.kind !== "field") return undefined
  const op = c.operator.name
  if (op !== "eq" && op !== "in") return undefined
  const field = checked.scheme.fieldId(c.lhs.name)
  const type = checked.typeOf(c.lhs)?.type.kind
  if (field < 0 || (type !== "Bytes" && type !== "Int" && type !== "Ip")) return undefined
  const keys = op === "eq" ? literalKeys(field, type, c.rhs) : setKeys(field, type, c.rhs)
  return keys !== undefined && keys.length <= MAX_KEYS ? keys : undefined
}

const literalKeys = (field: number, type: "Bytes" | "Int" | "Ip", rhs: Rhs): RuleKeys => {
  if (type === "Ip") return rhs.kind === "ip" ? [ipKey(field, rhs.value, rhs.value.v === 4 ? 32 : 128)] : undefined
  if (type === "Int") return rhs.kind === "int" ? [{ kind: "value", field, value: rhs.value }] : undefined
  return rhs.kind === "string" || rhs.kind === "bytes" ? [{ kind: "value", field, value: rhs.value }] : undefined
}

const setKeys = (field: number, type: "Bytes" | "Int" | "Ip", rhs: Rhs): RuleKeys => {
  if (rhs.kind !== "set") return undefined
  const out: Array<RuleKey> = []
  for (const item of rhs.items) {
    if (out.length > MAX_KEYS) return undefined
    if (type === "Bytes") {
      if (item.kind === "string" || item.kind === "bytes") out.push({ kind: "value", field, value: item.value })
    } else if (type === "Int") {
      if (item.kind === "int") out.push({ kind: "value", field, value: item.value })
      else if (item.kind === "int-range") {
        if (item.to - item.from >= MAX_RANGE_KEYS) return undefined
        for (let v = item.from; v <= item.to; v++) out.push({ kind: "value", field, value: v })
      }
    } else if (item.kind === "ip") out.push(ipKey(field, item.value, item.value.v === 4 ? 32 : 128))
    else if (item.kind === "cidr") out.push(ipKey(field, item.address, item.prefix))
    else if (item.kind === "ip-range") {
      const blocks = rangeBlocks(item.from, item.to)
      if (blocks === undefined) return undefined
      for (const [address, prefix] of blocks) out.push(ipKey(field, address, prefix))
    }
  }
  return out
}

const ipKey = (field: number, address: IpAddress, prefix: number): RuleKey => ({
  kind: "ip",
  field,
  v: address.v,
  prefix,
  base: cidrBounds(address, prefix).lo.n
})

/** The CIDR blocks that cover an IPv4 range exactly, or undefined when they are too many (or IPv6). */
const rangeBlocks = (from: IpAddress, to: IpAddress): Array<readonly [IpAddress, number]> | undefined => {
  if (from.v !== 4 || to.v !== 4 || from.n > to.n) return undefined
  const out: Array<readonly [IpAddress, number]> = []
  let lo = from.n
  while (lo <= to.n) {
    let size = 1
    let prefix = 32
    while (prefix > 0 && lo % (size * 2) === 0 && lo + size * 2 - 1 <= to.n) {
      size *= 2
      prefix--
    }
    out.push([{ v: 4, n: lo }, prefix])
    if (out.length > MAX_RANGE_KEYS) return undefined
    lo += size
  }
  return out
}

interface IpGroup {
  readonly v: 4 | 6
  readonly prefix: number
  readonly map: Map<number | bigint, Array<number>>
  /** The block of `prefix` bits holding an address of the group's family, without allocating. */
  readonly base: (n: number | bigint) => number | bigint
}

const baseOf = (v: 4 | 6, prefix: number): IpGroup["base"] => {
  if (v === 4) {
    const size = 2 ** (32 - prefix)
    return (n) => (n as number) - ((n as number) % size)
  }
  const keep = ~((1n << BigInt(128 - prefix)) - 1n)
  return (n) => (n as bigint) & keep
}

export interface IndexOptions {
  /** Index the rules (true), evaluate every rule (false), or index when enough rules have keys (the default). */
  readonly index?: boolean
}

/** The rule positions to evaluate for a request, in ascending order. */
export interface RuleIndex {
  candidates(ctx: RequestContext): ArrayLike<number>
}

/** Below this many rules with keys, a lookup costs more than the rules it saves. */
const MIN_KEYED = 8

/** The index of a list of `count` rules (`keysAt(i)` for the rule at position i), or undefined when it is not worth one. */
export const ruleIndex = (
  count: number,
  keysAt: (position: number) => RuleKeys,
  options: IndexOptions = {}
): RuleIndex | undefined => {
  if (options.index === false || (options.index !== true && count < MIN_KEYED)) return undefined
  // Only now, for a list long enough, are the expressions' keys worked out.
  const keys = Array.from({ length: count }, (_, i) => keysAt(i))
  if (options.index !== true && keys.filter((k) => k !== undefined).length < MIN_KEYED) return undefined
  const always: Array<number> = []
  const values = new Map<number, Map<string | number, Array<number>>>()
  const ips = new Map<number, Array<IpGroup>>()
  const add = <K>(map: Map<K, Array<number>>, key: K, position: number) => {
    const at = map.get(key)
    if (at === undefined) map.set(key, [position])
    else if (at[at.length - 1] !== position) at.push(position)
  }
  keys.forEach((ks, position) => {
    if (ks === undefined) return always.push(position)
    for (const k of ks) {
      if (k.kind === "value") {
        let m = values.get(k.field)
        if (m === undefined) values.set(k.field, (m = new Map()))
        add(m, k.value, position)
        continue
      }
      let groups = ips.get(k.field)
      if (groups === undefined) ips.set(k.field, (groups = []))
      let g = groups.find((x) => x.v === k.v && x.prefix === k.prefix)
      if (g === undefined) groups.push((g = { v: k.v, prefix: k.prefix, map: new Map(), base: baseOf(k.v, k.prefix) }))
      add(g.map, k.base, position)
    }
  })
  const valueFields = [...values].map(([field, map]) => ({ field, map }))
  const ipFields = [...ips].map(([field, groups]) => ({ field, groups }))
  const alwaysList = Int32Array.from(always)
  // Merges go into two buffers in turn, reused by every request (an evaluation never re-enters).
  const buffers = [new Int32Array(keys.length), new Int32Array(keys.length)] as const
  return {
    candidates(ctx) {
      let hits: Array<ReadonlyArray<number>> | undefined
      for (const { field, map } of valueFields) {
        const v = ctx.get(field)
        if (v === undefined) continue
        const at = map.get(v as string | number)
        if (at !== undefined) (hits ??= []).push(at)
      }
      for (const { field, groups } of ipFields) {
        const ip = ctx.get(field) as IpAddress | undefined
        if (ip === undefined) continue
        for (const g of groups) {
          if (g.v !== ip.v) continue
          const at = g.map.get(g.base(ip.n))
          if (at !== undefined) (hits ??= []).push(at)
        }
      }
      if (hits === undefined) return alwaysList
      if (hits.length === 1 && alwaysList.length === 0) return hits[0]!
      let from: ArrayLike<number> = alwaysList
      let length = alwaysList.length
      for (let h = 0; h < hits.length; h++) {
        const into = buffers[h & 1]
        length = mergeInto(from, length, hits[h]!, into)
        from = into
      }
      return (from as Int32Array).subarray(0, length)
    }
  }
}

/** Writes the union of `a` (its first `n`) and `b`, both ascending, into `out`, ascending without repeats; its length. */
const mergeInto = (a: ArrayLike<number>, n: number, b: ReadonlyArray<number>, out: Int32Array): number => {
  let i = 0
  let j = 0
  let k = 0
  while (i < n && j < b.length) {
    const x = a[i]!
    const y = b[j]!
    if (x < y) {
      out[k++] = x
      i++
    } else {
      out[k++] = y
      j++
      if (x === y) i++
    }
  }
  while (i < n) out[k++] = a[i++]!
  while (j < b.length) out[k++] = b[j++]!
  return k
}
