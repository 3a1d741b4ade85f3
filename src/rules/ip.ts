/**
 * IP addresses, CIDR blocks and ranges: parsing (strict: no leading zeros in IPv4 octets, no zone
 * ids) and membership. IPv4 addresses are numbers (0..2^32-1), IPv6 addresses bigints; an
 * IPv4-mapped IPv6 address is an IPv6 address, not equal to the IPv4 one.
 */
import * as Either from "effect/Either"

export type IpAddress = { readonly v: 4; readonly n: number } | { readonly v: 6; readonly n: bigint }

const parseV4Number = (s: string): number | string => {
  const parts = s.split(".")
  if (parts.length !== 4) return `an IPv4 address has 4 parts, this has ${parts.length}`
  let n = 0
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return p === "" ? "empty part in IPv4 address" : `invalid IPv4 part ${JSON.stringify(p)}`
    if (p.length > 1 && p[0] === "0") return `leading zero in IPv4 part ${JSON.stringify(p)}`
    const b = Number(p)
    if (b > 255) return `IPv4 part ${p} is greater than 255`
    n = n * 256 + b
  }
  return n
}

const parseV6Number = (s: string): bigint | string => {
  if (s.includes("%")) return "zone ids are not allowed in IPv6 addresses"
  let groups: Array<number>
  let tailV4: number | undefined
  const halves = s.split("::")
  if (halves.length > 2) return "`::` may appear only once in an IPv6 address"
  const parseGroups = (part: string, allowV4: boolean): Array<number> | string => {
    if (part === "") return []
    const out: Array<number> = []
    const items = part.split(":")
    for (let i = 0; i < items.length; i++) {
      const g = items[i]!
      if (allowV4 && i === items.length - 1 && g.includes(".")) {
        const v4 = parseV4Number(g)
        if (typeof v4 === "string") return v4
        tailV4 = v4
        continue
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(g))
        return g === "" ? "empty group in IPv6 address" : `invalid IPv6 group ${JSON.stringify(g)}`
      out.push(parseInt(g, 16))
    }
    return out
  }
  const head = parseGroups(halves[0]!, halves.length === 1)
  if (typeof head === "string") return head
  const tail = halves.length === 2 ? parseGroups(halves[1]!, true) : []
  if (typeof tail === "string") return tail
  const count = head.length + tail.length + (tailV4 !== undefined ? 2 : 0)
  if (halves.length === 1) {
    if (count !== 8) return `an IPv6 address has 8 groups, this has ${count}`
    groups = head
  } else {
    if (count > 7) return "too many groups around `::` in IPv6 address"
    groups = [...head, ...new Array<number>(8 - count).fill(0), ...tail]
  }
  let n = 0n
  for (const g of groups) n = (n << 16n) | BigInt(g)
  if (tailV4 !== undefined) n = (n << 32n) | BigInt(tailV4)
  return n
}

/** Parses one IPv4 or IPv6 address: the address, or why the text is not one. */
export const parseIp = (s: string): Either.Either<IpAddress, string> => {
  if (s.includes(":")) {
    const n = parseV6Number(s)
    return typeof n === "string" ? Either.left(n) : Either.right({ v: 6, n })
  }
  if (/^[0-9.]+$/.test(s)) {
    const n = parseV4Number(s)
    return typeof n === "string" ? Either.left(n) : Either.right({ v: 4, n })
  }
  return Either.left("not an IP address")
}

/** A fast parse for request values: IPv4 without allocation when it can. */
export const parseIpValue = (s: string): IpAddress | undefined => {
  let n = 0
  let part = -1
  let parts = 0
  let digits = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 48 && c <= 57 && !(digits > 0 && part === 0)) {
      part = part < 0 ? c - 48 : part * 10 + (c - 48)
      digits++
      if (part > 255) return slow(s)
    } else if (c === 46 && part >= 0 && parts < 3) {
      n = n * 256 + part
      part = -1
      digits = 0
      parts++
    } else return slow(s)
  }
  if (parts !== 3 || part < 0) return slow(s)
  return { v: 4, n: n * 256 + part }
}

const slow = (s: string): IpAddress | undefined => Either.getOrUndefined(parseIp(s))

export const formatIp = (ip: IpAddress): string => {
  if (ip.v === 4) return [ip.n >>> 24, (ip.n >>> 16) & 255, (ip.n >>> 8) & 255, ip.n & 255].join(".")
  const groups: Array<number> = []
  for (let i = 7; i >= 0; i--) groups.push(Number((ip.n >> BigInt(i * 16)) & 0xffffn))
  // The longest run of two or more zero groups becomes `::` (RFC 5952).
  let best = -1
  let bestLen = 1
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen) {
      best = i
      bestLen = j - i
    }
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (best < 0) return hex.join(":")
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLen).join(":")}`
}

export const sameIp = (a: IpAddress, b: IpAddress): boolean => a.v === b.v && a.n === b.n

export const compareIp = (a: IpAddress, b: IpAddress): number => (a.n < b.n ? -1 : a.n > b.n ? 1 : 0)

/** The first and last address of a CIDR block. */
export const cidrBounds = (address: IpAddress, prefix: number): { readonly lo: IpAddress; readonly hi: IpAddress } => {
  if (address.v === 4) {
    const size = 2 ** (32 - prefix)
    const lo = address.n - (address.n % size)
    return { lo: { v: 4, n: lo }, hi: { v: 4, n: lo + size - 1 } }
  }
  const hostBits = BigInt(128 - prefix)
  const mask = (1n << hostBits) - 1n
  const lo = address.n & ~mask
  return { lo: { v: 6, n: lo }, hi: { v: 6, n: lo | mask } }
}

/** The network address of `address` with `prefix` bits kept (the `cidr()` function). */
export const networkOf = (address: IpAddress, prefix: number): IpAddress => cidrBounds(address, prefix).lo

/**
 * A set of IP ranges, split by family, merged and sorted so that membership is a binary search.
 */
export class IpSet {
  private readonly v4lo: Float64Array
  private readonly v4hi: Float64Array
  private readonly v6: ReadonlyArray<readonly [bigint, bigint]>

  constructor(ranges: Iterable<{ readonly lo: IpAddress; readonly hi: IpAddress }>) {
    const four: Array<[number, number]> = []
    const six: Array<[bigint, bigint]> = []
    for (const r of ranges) {
      if (r.lo.v === 4) four.push([r.lo.n, (r.hi as { n: number }).n])
      else six.push([r.lo.n, (r.hi as { n: bigint }).n])
    }
    const m4 = merge(
      four,
      (a, b) => a - b,
      (a) => a + 1
    )
    this.v4lo = Float64Array.from(m4.map((r) => r[0]))
    this.v4hi = Float64Array.from(m4.map((r) => r[1]))
    this.v6 = merge(
      six,
      (a, b) => (a < b ? -1 : a > b ? 1 : 0),
      (a) => a + 1n
    )
  }

  has(ip: IpAddress): boolean {
    if (ip.v === 4) {
      const lo = this.v4lo
      let a = 0
      let b = lo.length - 1
      while (a <= b) {
        const m = (a + b) >> 1
        if (lo[m]! > ip.n) b = m - 1
        else if (this.v4hi[m]! < ip.n) a = m + 1
        else return true
      }
      return false
    }
    const six = this.v6
    let a = 0
    let b = six.length - 1
    while (a <= b) {
      const m = (a + b) >> 1
      const r = six[m]!
      if (r[0] > ip.n) b = m - 1
      else if (r[1] < ip.n) a = m + 1
      else return true
    }
    return false
  }
}

const merge = <N>(ranges: Array<[N, N]>, cmp: (a: N, b: N) => number, next: (a: N) => N): Array<[N, N]> => {
  ranges.sort((x, y) => cmp(x[0], y[0]))
  const out: Array<[N, N]> = []
  for (const r of ranges) {
    const last = out[out.length - 1]
    if (last !== undefined && cmp(r[0], next(last[1])) <= 0) {
      if (cmp(r[1], last[1]) > 0) last[1] = r[1]
    } else out.push([r[0], r[1]])
  }
  return out
}
