/**
 * The comparison operators at evaluation: a predicate per (operator, literal, left-hand type),
 * built once at compile time (sets as hash sets and sorted IP ranges, regexes and wildcard
 * patterns compiled).
 */
import * as Either from "effect/Either"
import type { Rhs, SetItem } from "./ast.js"
import { toText } from "./bytes.js"
import { compileList, type ListContents, type RequestContext } from "./context.js"
import { cidrBounds, IpSet, type IpAddress } from "./ip.js"
import { compileRegex } from "./regex.js"
import type { ComparisonOperator, Type } from "./types.js"
import { parseWildcard, wildcardMatcher } from "./wildcard.js"

/** How comparisons evaluate (what `compile()` takes): here, beside the predicates that read it, as compile.ts imports them. */
export interface CompileOptions {
  /** Contents of named lists, by name: IPs/CIDRs/ranges, hostnames or ASNs. A request's `$lists` takes precedence. */
  readonly listItems?: Readonly<Record<string, ReadonlyArray<string | number>>>
  /** The open-source engine's default: `ne` on a missing value is true. The platform documents false. */
  readonly missingNotEqual?: boolean
}

export type Pred = (v: never, ctx: RequestContext) => boolean

export const predicate = (op: ComparisonOperator, rhs: Rhs, t: Type, options: CompileOptions): Pred => {
  if (op === "in") {
    if (rhs.kind === "list") return listPredicate(rhs.name, t, options)
    const items = rhs.kind === "set" ? rhs.items : []
    if (t.kind === "Ip") {
      const set = new IpSet(items.flatMap(ipRange))
      return ((v: IpAddress) => set.has(v)) as Pred
    }
    if (t.kind === "Int") {
      const discrete = new Set<number>()
      const ranges: Array<readonly [number, number]> = []
      for (const i of items) {
        if (i.kind === "int") discrete.add(i.value)
        else if (i.kind === "int-range") ranges.push([i.from, i.to])
      }
      if (ranges.length === 0) return ((v: number) => discrete.has(v)) as Pred
      return ((v: number) => discrete.has(v) || ranges.some(([a, b]) => v >= a && v <= b)) as Pred
    }
    const set = new Set(items.flatMap((i) => (i.kind === "string" || i.kind === "bytes" ? [i.value] : [])))
    return ((v: string) => set.has(v)) as Pred
  }
  const lit =
    rhs.kind === "string" || rhs.kind === "bytes" || rhs.kind === "int" || rhs.kind === "ip" ? rhs.value : undefined
  if (lit === undefined) throw new Error(`compile: \`${op}\` needs a literal`)
  if (t.kind === "Ip") {
    const ip = lit as IpAddress
    const eq = (v: IpAddress) => v.v === ip.v && v.n === ip.n
    return (op === "eq" ? eq : (v: IpAddress) => !eq(v)) as Pred
  }
  if (t.kind === "Int") {
    const x = lit as number
    switch (op) {
      case "eq":
        return ((v: number) => v === x) as Pred
      case "ne":
        return ((v: number) => v !== x) as Pred
      case "lt":
        return ((v: number) => v < x) as Pred
      case "le":
        return ((v: number) => v <= x) as Pred
      case "gt":
        return ((v: number) => v > x) as Pred
      case "ge":
        return ((v: number) => v >= x) as Pred
      case "bitwise_and": {
        const small = Math.abs(x) < 2 ** 31
        return ((v: number) =>
          small && Math.abs(v) < 2 ** 31
            ? (v & x) !== 0
            : (BigInt.asIntN(64, BigInt(v)) & BigInt.asIntN(64, BigInt(x))) !== 0n) as Pred
      }
    }
  }
  const s = lit as string
  switch (op) {
    case "eq":
      return ((v: string) => v === s) as Pred
    case "ne":
      return ((v: string) => v !== s) as Pred
    case "lt":
      return ((v: string) => v < s) as Pred
    case "le":
      return ((v: string) => v <= s) as Pred
    case "gt":
      return ((v: string) => v > s) as Pred
    case "ge":
      return ((v: string) => v >= s) as Pred
    case "contains":
      return (s === "" ? () => true : (v: string) => v.includes(s)) as Pred
    case "matches": {
      const r = compileRegex(rhs.kind === "string" && rhs.pattern !== undefined ? rhs.pattern : s)
      if (Either.isLeft(r)) throw new Error(`compile: invalid regular expression: ${r.left.message}`)
      const re = r.right.regexp
      return (r.right.unicode ? (v: string) => re.test(toText(v)) : (v: string) => re.test(v)) as Pred
    }
    case "wildcard":
    case "strict wildcard": {
      const w = parseWildcard(s)
      if (Either.isLeft(w)) throw new Error(`compile: ${w.left.message}`)
      return wildcardMatcher(w.right, op === "strict wildcard") as Pred
    }
  }
  throw new Error(`compile: \`${op}\` is not defined on ${t.kind}`)
}

const listPredicate = (name: string, t: Type, options: CompileOptions): Pred => {
  const given = options.listItems?.[name]
  const fallback = given === undefined ? undefined : compileList(given)
  const members = (ctx: RequestContext): ListContents | undefined => ctx.list(name) ?? fallback
  if (t.kind === "Ip") return ((v: IpAddress, ctx: RequestContext) => members(ctx)?.ips.has(v) ?? false) as Pred
  if (t.kind === "Int") return ((v: number, ctx: RequestContext) => members(ctx)?.ints.has(v) ?? false) as Pred
  return ((v: string, ctx: RequestContext) => members(ctx)?.strings.has(v) ?? false) as Pred
}

const ipRange = (i: SetItem): ReadonlyArray<{ lo: IpAddress; hi: IpAddress }> => {
  if (i.kind === "ip") return [{ lo: i.value, hi: i.value }]
  if (i.kind === "cidr") return [cidrBounds(i.address, i.prefix)]
  if (i.kind === "ip-range") return [{ lo: i.from, hi: i.to }]
  return []
}
