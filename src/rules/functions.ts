/**
 * The functions of the language: signature, meaning, where they may be used, and the argument
 * rules the checker enforces (count, type, field-or-literal, literal values). The table powers
 * checking, completion and hover; `builtins.ts` evaluates them.
 */
import type { Plan } from "./fields.js"
import { arrayOf, Bool, Bytes, Int, Ip, type Type } from "./types.js"

/** What an argument position accepts. */
export type ParamType =
  "Bytes" | "Int" | "Ip" | "Bool" | "Array<Bool>" | "Array<Bytes>" | "Bytes|Array" | "Bytes|Int" | "Int|Bool|Ip"

export interface Param {
  readonly name: string
  readonly type: ParamType
  /** `field`: not a literal (a field, a function call or an index); `literal`: only a literal. */
  readonly kind?: "field" | "literal"
  readonly optional?: boolean
  /** Checks a literal argument's value; returns a message when it is not allowed. */
  readonly literal?: (value: number | string) => string | undefined
}

/** Where a function may be used: in filter expressions (firewall, custom and rate limiting rules, WAF) or only in rewrite/value expressions. */
export type FunctionContext = "filter" | "rewrite"

export interface FunctionInfo {
  readonly name: string
  readonly signature: string
  readonly summary: string
  readonly params: ReadonlyArray<Param>
  /** Repeats the last parameter (concat, lookup_json_*, remove_query_args). */
  readonly variadic?: boolean
  readonly context: FunctionContext
  /** Said in the "not available" message. */
  readonly where?: string
  readonly plan?: Plan
  /** Network (Magic Firewall) scheme only. */
  readonly network?: boolean
  /** Quantifiers take the array as a whole: `[*]` in their argument does not map them. */
  readonly quantifier?: boolean
  /** The result type, from the first argument's (element) type. */
  readonly returns: (first: Type | undefined) => Type | undefined
}

const fixed = (t: Type) => () => t
const sameAsFirst = (first: Type | undefined) => first

const intIn = (lo: number, hi: number) => (v: number | string) =>
  typeof v === "number" && v >= lo && v <= hi ? undefined : `must be an integer from ${lo} to ${hi}, got ${v}`

const FUNCTIONS: ReadonlyArray<FunctionInfo> = [
  {
    name: "any",
    signature: "any(Array<Boolean>) -> Boolean",
    context: "filter",
    quantifier: true,
    summary: "True when at least one element is true (false for an empty or missing array)",
    params: [{ name: "conditions", type: "Array<Bool>" }],
    returns: fixed(Bool)
  },
  {
    name: "all",
    signature: "all(Array<Boolean>) -> Boolean",
    context: "filter",
    quantifier: true,
    summary: "True when every element is true (true for an empty array, false for a missing one)",
    params: [{ name: "conditions", type: "Array<Bool>" }],
    returns: fixed(Bool)
  },
  {
    name: "cidr",
    signature: "cidr(address IP address, ipv4_network_bits Integer, ipv6_network_bits Integer) -> IP address",
    context: "filter",
    summary: "The network address of an IPv4 or IPv6 address for the given prefix lengths",
    params: [
      { name: "address", type: "Ip", kind: "field" },
      { name: "ipv4_network_bits", type: "Int", kind: "literal", literal: intIn(1, 32) },
      { name: "ipv6_network_bits", type: "Int", kind: "literal", literal: intIn(1, 128) }
    ],
    returns: fixed(Ip)
  },
  {
    name: "cidr6",
    signature: "cidr6(address IP address, ipv6_network_bits Integer) -> IP address",
    context: "filter",
    summary: "The network address of an IPv6 address for the given prefix length; IPv4 addresses unchanged",
    params: [
      { name: "address", type: "Ip", kind: "field" },
      { name: "ipv6_network_bits", type: "Int", kind: "literal", literal: intIn(1, 128) }
    ],
    returns: fixed(Ip)
  },
  {
    name: "concat",
    signature: "concat(String | Array, ...) -> String | Array",
    context: "filter",
    variadic: true,
    summary: "Concatenates strings, or arrays of the same type; missing values count as empty",
    params: [{ name: "value", type: "Bytes|Array" }],
    returns: sameAsFirst
  },
  {
    name: "decode_base64",
    signature: "decode_base64(source String) -> String",
    context: "filter",
    summary: "Decodes Base64 (standard or URL-safe alphabet, padding optional); missing when it is not Base64",
    params: [{ name: "source", type: "Bytes", kind: "field" }],
    returns: fixed(Bytes)
  },
  {
    name: "ends_with",
    signature: "ends_with(source String, substring String) -> Boolean",
    context: "filter",
    summary: "True when the source ends with the substring",
    params: [
      { name: "source", type: "Bytes", kind: "field" },
      { name: "substring", type: "Bytes" }
    ],
    returns: fixed(Bool)
  },
  {
    name: "starts_with",
    signature: "starts_with(source String, substring String) -> Boolean",
    context: "filter",
    summary: "True when the source starts with the substring",
    params: [
      { name: "source", type: "Bytes", kind: "field" },
      { name: "substring", type: "Bytes" }
    ],
    returns: fixed(Bool)
  },
  {
    name: "join",
    signature: "join(items Array<String>, separator String) -> String",
    context: "filter",
    summary: "The items joined with the separator between them",
    params: [
      { name: "items", type: "Array<Bytes>" },
      { name: "separator", type: "Bytes" }
    ],
    returns: fixed(Bytes)
  },
  {
    name: "len",
    signature: "len(String | Array) -> Integer",
    context: "filter",
    summary: "The length in bytes of a string, or the number of elements of an array",
    params: [{ name: "value", type: "Bytes|Array" }],
    returns: fixed(Int)
  },
  {
    name: "lookup_json_integer",
    signature: "lookup_json_integer(field String, key String | Integer, ...) -> Integer",
    context: "filter",
    variadic: true,
    summary: "The plain integer at the path of keys and array positions in a JSON document",
    params: [
      { name: "field", type: "Bytes", kind: "field" },
      { name: "key", type: "Bytes|Int" }
    ],
    returns: fixed(Int)
  },
  {
    name: "lookup_json_string",
    signature: "lookup_json_string(field String, key String | Integer, ...) -> String",
    context: "filter",
    variadic: true,
    summary: "The string at the path of keys and array positions in a JSON document",
    params: [
      { name: "field", type: "Bytes", kind: "field" },
      { name: "key", type: "Bytes|Int" }
    ],
    returns: fixed(Bytes)
  },
  {
    name: "lower",
    signature: "lower(String) -> String",
    context: "filter",
    summary: "The string with ASCII uppercase letters made lowercase (other bytes unchanged)",
    params: [{ name: "value", type: "Bytes" }],
    returns: fixed(Bytes)
  },
  {
    name: "upper",
    signature: "upper(String) -> String",
    context: "filter",
    summary: "The string with ASCII lowercase letters made uppercase (other bytes unchanged)",
    params: [{ name: "value", type: "Bytes" }],
    returns: fixed(Bytes)
  },
  {
    name: "remove_bytes",
    signature: "remove_bytes(Bytes, Bytes) -> Bytes",
    context: "filter",
    summary: "The value with every occurrence of each of the given bytes removed",
    params: [
      { name: "value", type: "Bytes" },
      { name: "bytes", type: "Bytes" }
    ],
    returns: fixed(Bytes)
  },
  {
    name: "substring",
    signature: "substring(field String, start Integer [, end Integer]) -> String",
    context: "filter",
    summary: "The bytes from start up to (not including) end; negative indexes count from the end",
    params: [
      { name: "field", type: "Bytes", kind: "field" },
      { name: "start", type: "Int" },
      { name: "end", type: "Int", optional: true }
    ],
    returns: fixed(Bytes)
  },
  {
    name: "url_decode",
    signature: 'url_decode(source String [, options "r" | "u" | "ur"]) -> String',
    context: "filter",
    summary: "Decodes %XX escapes and + to bytes; option r decodes recursively, u also decodes %uXXXX to UTF-8",
    params: [
      { name: "source", type: "Bytes", kind: "field" },
      {
        name: "options",
        type: "Bytes",
        kind: "literal",
        optional: true,
        literal: (v) =>
          typeof v === "string" && /^(r|u|ur|ru)$/.test(v)
            ? undefined
            : `must be "r", "u" or "ur", got ${JSON.stringify(v)}`
      }
    ],
    returns: fixed(Bytes)
  },
  {
    name: "is_timed_hmac_valid_v0",
    plan: "pro",
    context: "filter",
    signature:
      "is_timed_hmac_valid_v0(key String, message_mac String, ttl Integer, now Integer [, separator_length Integer [, flags String]]) -> Boolean",
    summary: "True when message_mac holds a valid, unexpired HMAC-SHA256 token for the key",
    params: [
      { name: "key", type: "Bytes", kind: "literal" },
      { name: "message_mac", type: "Bytes", kind: "field" },
      { name: "ttl", type: "Int", kind: "literal", literal: intIn(0, Number.MAX_SAFE_INTEGER) },
      { name: "now", type: "Int" },
      { name: "separator_length", type: "Int", kind: "literal", optional: true, literal: intIn(0, 1024) },
      {
        name: "flags",
        type: "Bytes",
        kind: "literal",
        optional: true,
        literal: (v) =>
          v === "s" || v === "" ? undefined : `must be "s" (URL-safe Base64 without padding), got ${JSON.stringify(v)}`
      }
    ],
    returns: fixed(Bool)
  },
  {
    name: "bit_slice",
    signature: "bit_slice(protocol String, offset_start Integer, offset_end Integer) -> Integer",
    context: "filter",
    network: true,
    summary: "The bits offset_start..offset_end (at most 32, offsets up to 2,040) of a protocol header, as an integer",
    params: [
      {
        name: "protocol",
        type: "Bytes",
        kind: "literal",
        literal: (v) =>
          typeof v === "string" && ["ip", "tcp", "udp", "icmp"].includes(v)
            ? undefined
            : `must be "ip", "tcp", "udp" or "icmp", got ${JSON.stringify(v)}`
      },
      { name: "offset_start", type: "Int", kind: "literal", literal: intIn(0, 2040) },
      { name: "offset_end", type: "Int", kind: "literal", literal: intIn(1, 2040) }
    ],
    returns: fixed(Int)
  },
  // Value-expression functions: recognised so that the message can say where they belong.
  {
    name: "regex_replace",
    context: "rewrite",
    where: "rewrite expressions of Transform Rules and dynamic redirect targets",
    signature: "regex_replace(source String, regular_expression String, replacement String) -> String",
    summary: "The source with the first match of the regular expression replaced (${1}..${8} refer to groups)",
    params: [
      { name: "source", type: "Bytes" },
      { name: "regular_expression", type: "Bytes", kind: "literal" },
      { name: "replacement", type: "Bytes", kind: "literal" }
    ],
    returns: fixed(Bytes)
  },
  {
    name: "wildcard_replace",
    context: "rewrite",
    where: "URL rewrites and dynamic redirect targets",
    signature: "wildcard_replace(source Bytes, wildcard_pattern Bytes, replacement Bytes [, flags Bytes]) -> String",
    summary: "The replacement (with ${n} captures) when the whole source matches the wildcard pattern, else the source",
    params: [
      { name: "source", type: "Bytes", kind: "field" },
      { name: "wildcard_pattern", type: "Bytes", kind: "literal" },
      { name: "replacement", type: "Bytes", kind: "literal" },
      { name: "flags", type: "Bytes", kind: "literal", optional: true }
    ],
    returns: fixed(Bytes)
  },
  {
    name: "remove_query_args",
    context: "rewrite",
    variadic: true,
    where: "rewrite expressions of Transform Rules",
    signature: "remove_query_args(field String, query_param String, ...) -> String",
    summary: "The query string without the named parameters",
    params: [
      { name: "field", type: "Bytes", kind: "field" },
      { name: "query_param", type: "Bytes", kind: "literal" }
    ],
    returns: fixed(Bytes)
  },
  {
    name: "split",
    context: "rewrite",
    where: "response header transform rules and Custom Error Rules",
    signature: "split(input String, separator String, limit Integer) -> Array<String>",
    summary: "The input split at every separator, into at most limit elements",
    params: [
      { name: "input", type: "Bytes" },
      { name: "separator", type: "Bytes", kind: "literal" },
      { name: "limit", type: "Int", kind: "literal", literal: intIn(1, 128) }
    ],
    returns: fixed(arrayOf(Bytes))
  },
  {
    name: "to_string",
    context: "rewrite",
    where: "rewrite expressions of Transform Rules and dynamic redirect targets",
    signature: "to_string(Integer | Boolean | IP address) -> String",
    summary: "The value as a string",
    params: [{ name: "value", type: "Int|Bool|Ip" }],
    returns: fixed(Bytes)
  },
  {
    name: "uuidv4",
    context: "rewrite",
    where: "rewrite expressions of Transform Rules",
    signature: "uuidv4(source Bytes) -> String",
    summary: "A UUIDv4 made from the random bytes given (cf.random_seed)",
    params: [{ name: "source", type: "Bytes" }],
    returns: fixed(Bytes)
  }
]

/** Every function, by name. */
export const FUNCTION_TABLE: ReadonlyMap<string, FunctionInfo> = new Map(FUNCTIONS.map((f) => [f.name, f]))

export const FUNCTION_LIST: ReadonlyArray<FunctionInfo> = FUNCTIONS

/** Whether a type fits a parameter type. */
export const fits = (p: ParamType, t: Type): boolean => {
  switch (p) {
    case "Bytes":
    case "Int":
    case "Ip":
    case "Bool":
      return t.kind === p
    case "Array<Bool>":
      return t.kind === "Array" && t.of.kind === "Bool"
    case "Array<Bytes>":
      return t.kind === "Array" && t.of.kind === "Bytes"
    case "Bytes|Array":
      return t.kind === "Bytes" || t.kind === "Array"
    case "Bytes|Int":
      return t.kind === "Bytes" || t.kind === "Int"
    case "Int|Bool|Ip":
      return t.kind === "Int" || t.kind === "Bool" || t.kind === "Ip"
  }
}

export const paramTypeName = (p: ParamType): string =>
  p
    .replace(/Bytes/g, "String")
    .replace(/Bool/g, "Boolean")
    .replace(/Int(?!e)/g, "Integer")
    .replace(/\bIp\b/g, "IP address")
    .replace(/\|/g, " or ")
