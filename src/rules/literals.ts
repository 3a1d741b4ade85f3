/**
 * Bare literals (numbers, IP addresses, CIDR blocks, ranges, hex byte strings) read in the
 * context of the type they are compared with, with a precise diagnostic when they do not fit.
 */
import * as Either from "effect/Either"
import type {
  BytesLiteral,
  CidrLiteral,
  Diagnostic,
  IntLiteral,
  IntRange,
  Invalid,
  IpLiteral,
  IpRange,
  Range
} from "./ast.js"
import { diag } from "./lexer.js"
import { cidrBounds, compareIp, formatIp, parseIp, sameIp, type IpAddress } from "./ip.js"
import type { Type } from "./types.js"

/** What the context expects: a value of the left-hand side's type, or anything (unknown type, arguments). */
export type Expect = "int" | "ip" | "bytes" | "any"

/** What a right-hand side of type `t` expects (`any` when the type is unknown). */
export const expectFor = (t: Type | undefined): Expect =>
  t?.kind === "Int" ? "int" : t?.kind === "Ip" ? "ip" : t?.kind === "Bytes" ? "bytes" : "any"

export type BareLiteral = IntLiteral | IntRange | IpLiteral | CidrLiteral | IpRange | BytesLiteral | Invalid

const I64_MIN = -(2n ** 63n)
const I64_MAX = 2n ** 63n - 1n
const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

const INT_SHAPE = /^(-?[0-9]+|0x[0-9a-fA-F]+)$/
const IPV4_SHAPE = /^[0-9]+(\.[0-9]+){3}$/
const BYTES_SHAPE = /^[0-9a-fA-F]{2}([:.-][0-9a-fA-F]{2})+$/

const looksLikeIp = (t: string) => IPV4_SHAPE.test(t) || (t.includes(":") && Either.isRight(parseIp(t)))

/** What a bare word looks like, for messages. */
const shapeOf = (t: string): string => {
  if (INT_SHAPE.test(t)) return "an integer"
  if (t.includes("/")) return "a CIDR block"
  if (t.includes("..")) return "a range"
  if (looksLikeIp(t)) return "an IP address"
  if (BYTES_SHAPE.test(t)) return "a hex byte string"
  return `\`${t}\``
}

interface Ctx {
  readonly src: string
  readonly out: Array<Diagnostic>
  /** Inside `{...}`: ranges and CIDR blocks are allowed. */
  readonly inSet: boolean
  /** Report nothing (the left-hand side already has an error). */
  readonly quiet: boolean
}

const r = (start: number, end: number): Range => ({ start, end })

const report = (ctx: Ctx, code: string, message: string, range: Range, hint?: string) => {
  if (!ctx.quiet) ctx.out.push(diag("error", code, message, range, hint))
}

/** Reads the bare word `src[start, end)` as what `expect` asks for. */
export const readBare = (start: number, end: number, expect: Expect, ctx: Ctx): BareLiteral => {
  const text = ctx.src.slice(start, end)
  const whole = r(start, end)
  const invalid: Invalid = { kind: "invalid", range: whole }
  const kind: Expect = expect !== "any" ? expect : classify(text)
  switch (kind) {
    case "int": {
      if (text.includes("..") && ctx.inSet) {
        const dots = text.indexOf("..")
        const from = readInt(start, start + dots, ctx, expect === "int")
        const to = readInt(start + dots + 2, end, ctx, expect === "int")
        if (from === undefined || to === undefined) return invalid
        if (from.value > to.value) {
          report(
            ctx,
            "invalid-range",
            `the range ${text} is empty: its start is greater than its end`,
            whole,
            `write ${to.value}..${from.value}`
          )
          return invalid
        }
        return { kind: "int-range", from: from.value, to: to.value, text, range: whole }
      }
      return readInt(start, end, ctx, expect === "int") ?? invalid
    }
    case "ip":
      return readIpItem(start, end, ctx, expect === "ip") ?? invalid
    case "bytes": {
      if (BYTES_SHAPE.test(text)) {
        let value = ""
        for (let i = 0; i < text.length; i += 3) value += String.fromCharCode(parseInt(text.slice(i, i + 2), 16))
        return { kind: "bytes", value, text, range: whole }
      }
      if (expect === "bytes") {
        const quoted = JSON.stringify(text)
        report(
          ctx,
          "type-mismatch",
          `expected a string, got ${shapeOf(text)}`,
          whole,
          `String values are quoted: ${quoted}`
        )
      } else
        report(
          ctx,
          "invalid-literal",
          `\`${text}\` is not a value`,
          whole,
          'strings are quoted ("..."), numbers are digits'
        )
      return invalid
    }
    default:
      report(
        ctx,
        "invalid-literal",
        `\`${text}\` is not a value`,
        whole,
        'strings are quoted ("..."), numbers are digits'
      )
      return invalid
  }
}

const classify = (text: string): Expect => {
  if (INT_SHAPE.test(text) || /^-?[0-9]+\.\.-?[0-9]+$/.test(text) || /^0[0-9]+$/.test(text)) return "int"
  if (BYTES_SHAPE.test(text) && !looksLikeIp(text)) return "bytes"
  if (looksLikeIp(text) || /^[0-9a-fA-F:.]+(\/[0-9]*)?$/.test(text) || text.includes("..")) return "ip"
  return "bytes"
}

const readInt = (start: number, end: number, ctx: Ctx, typed: boolean): IntLiteral | undefined => {
  const text = ctx.src.slice(start, end)
  const range = r(start, end)
  let big: bigint
  if (/^0x[0-9a-fA-F]+$/.test(text)) big = BigInt(text)
  else if (/^0[0-7]+$/.test(text)) big = BigInt(`0o${text.slice(1)}`)
  else if (/^0[0-9]+$/.test(text)) {
    report(
      ctx,
      "invalid-integer",
      `${text} is not an octal number: a leading 0 makes an integer octal (digits 0-7)`,
      range,
      `write ${text.replace(/^0+(?=.)/, "")} for the decimal number`
    )
    return undefined
  } else if (/^-?[0-9]+$/.test(text)) big = BigInt(text)
  else {
    if (typed && text !== "") {
      const shape = shapeOf(text)
      if (shape.startsWith("`") || text.startsWith("0x"))
        report(
          ctx,
          "invalid-integer",
          `\`${text}\` is not an integer`,
          range,
          "integers are decimal (443), hexadecimal (0x1bb) or octal with a leading 0 (0673)"
        )
      else
        report(
          ctx,
          "type-mismatch",
          `expected an integer, got ${shape}`,
          range,
          "this field is an Integer: compare it with a number"
        )
    } else report(ctx, "invalid-integer", `\`${text}\` is not an integer`, range)
    return undefined
  }
  if (big < I64_MIN || big > I64_MAX) {
    report(
      ctx,
      "integer-out-of-range",
      `${text} does not fit in a 64-bit integer`,
      range,
      "integers range from -9223372036854775808 to 9223372036854775807"
    )
    return undefined
  }
  if ((big > SAFE || big < -SAFE) && !ctx.quiet) {
    ctx.out.push(
      diag("warning", "imprecise-integer", `${text} is beyond 2^53: it is evaluated as ${Number(big)}`, range)
    )
  }
  return { kind: "int", value: Number(big), text, range }
}

/** An IP address, and in sets a CIDR block or an address range. */
const readIpItem = (
  start: number,
  end: number,
  ctx: Ctx,
  typed: boolean
): IpLiteral | CidrLiteral | IpRange | undefined => {
  const text = ctx.src.slice(start, end)
  const whole = r(start, end)
  const slash = text.indexOf("/")
  if (slash >= 0) {
    const addrEnd = start + slash
    if (!ctx.inSet) {
      report(ctx, "cidr-outside-set", "a CIDR block can only be used inside a set", whole, `write \`in {${text}}\``)
      return undefined
    }
    const prefixText = text.slice(slash + 1)
    const address = readAddress(start, addrEnd, ctx, typed)
    if (!/^[0-9]{1,3}$/.test(prefixText)) {
      report(
        ctx,
        "invalid-cidr",
        `invalid CIDR prefix length ${JSON.stringify(prefixText)}`,
        r(addrEnd + 1, end),
        "the prefix length is a number: /24, /64"
      )
      return undefined
    }
    if (address === undefined) return undefined
    const prefix = Number(prefixText)
    const max = address.v === 4 ? 32 : 128
    if (prefix > max) {
      report(
        ctx,
        "invalid-cidr",
        `invalid CIDR: network length /${prefix} is too long for an IPv${address.v} address (at most /${max})`,
        whole
      )
      return undefined
    }
    const net = cidrBounds(address, prefix).lo
    if (!sameIp(net, address)) {
      report(
        ctx,
        "invalid-cidr",
        `invalid CIDR: ${formatIp(address)} has host bits set for /${prefix}`,
        r(start, addrEnd),
        `did you mean ${formatIp(net)}/${prefix}?`
      )
      return undefined
    }
    return { kind: "cidr", address, prefix, text, range: whole }
  }
  const dots = text.indexOf("..")
  if (dots >= 0) {
    if (!ctx.inSet) {
      report(
        ctx,
        "range-outside-set",
        "an address range can only be used inside a set",
        whole,
        `write \`in {${text}}\``
      )
      return undefined
    }
    const from = readAddress(start, start + dots, ctx, typed)
    const to = readAddress(start + dots + 2, end, ctx, typed)
    if (from === undefined || to === undefined) return undefined
    if (from.v !== to.v) {
      report(ctx, "invalid-range", "incompatible range bounds: one is IPv4, the other IPv6", whole)
      return undefined
    }
    if (compareIp(from, to) > 0) {
      report(
        ctx,
        "invalid-range",
        "incompatible range bounds: the start is greater than the end",
        whole,
        `write ${ctx.src.slice(start + dots + 2, end)}..${ctx.src.slice(start, start + dots)}`
      )
      return undefined
    }
    return { kind: "ip-range", from, to, text, range: whole }
  }
  const value = readAddress(start, end, ctx, typed)
  return value === undefined ? undefined : { kind: "ip", value, text, range: whole }
}

const readAddress = (start: number, end: number, ctx: Ctx, typed: boolean): IpAddress | undefined => {
  const text = ctx.src.slice(start, end)
  const p = parseIp(text)
  if (Either.isRight(p)) return p.right
  const range = r(start, end)
  if (text === "") report(ctx, "invalid-ip", "an IP address is missing here", range)
  else if (typed && !/^[0-9a-fA-F:.]+$/.test(text))
    report(
      ctx,
      "type-mismatch",
      `expected an IP address, got ${shapeOf(text)}`,
      range,
      "IP addresses are written bare: 192.0.2.1, 2001:db8::1"
    )
  else report(ctx, "invalid-ip", `${text} is not a valid IP address: ${p.left}`, range)
  return undefined
}
