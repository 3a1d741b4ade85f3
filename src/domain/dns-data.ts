/**
 * The structured form (`data`) of the record types the platform gives one, and its agreement with
 * `content`: a record created with `data` gets the content the platform writes for it, and a record
 * stored with content alone answers with the `data` that content spells. Pure: the store, the server
 * and tests share it.
 *
 * Content is the record's presentation form without the owner, class and TTL. Like MX, SRV and URI
 * keep their priority in the record's `priority` field, not in `content` (SRV also repeats it in
 * `data.priority`, as the platform does); every other type's content holds all of its fields.
 */
import * as Either from "effect/Either"

export type RecordData = Readonly<Record<string, string | number>>

type Kind = "u8" | "u16" | "word" | "quoted" | "rest" | "params"
type Field = readonly [name: string, kind: Kind]

const U8 = 255
const U16 = 65_535

/**
 * Fields in content order. `rest` takes the remainder of the content as it is (keys, certificates);
 * `params` too, but may be empty (an SVCB/HTTPS record in alias mode has no parameters).
 */
const FIELDS: Readonly<Record<string, ReadonlyArray<Field>>> = {
  SRV: [
    ["weight", "u16"],
    ["port", "u16"],
    ["target", "word"]
  ],
  URI: [
    ["weight", "u16"],
    ["target", "quoted"]
  ],
  CAA: [
    ["flags", "u8"],
    ["tag", "word"],
    ["value", "quoted"]
  ],
  CERT: [
    ["type", "u16"],
    ["key_tag", "u16"],
    ["algorithm", "u8"],
    ["certificate", "rest"]
  ],
  DNSKEY: [
    ["flags", "u16"],
    ["protocol", "u8"],
    ["algorithm", "u8"],
    ["public_key", "rest"]
  ],
  DS: [
    ["key_tag", "u16"],
    ["algorithm", "u8"],
    ["digest_type", "u8"],
    ["digest", "rest"]
  ],
  NAPTR: [
    ["order", "u16"],
    ["preference", "u16"],
    ["flags", "quoted"],
    ["service", "quoted"],
    ["regex", "quoted"],
    ["replacement", "word"]
  ],
  SMIMEA: [
    ["usage", "u8"],
    ["selector", "u8"],
    ["matching_type", "u8"],
    ["certificate", "rest"]
  ],
  TLSA: [
    ["usage", "u8"],
    ["selector", "u8"],
    ["matching_type", "u8"],
    ["certificate", "rest"]
  ],
  SSHFP: [
    ["algorithm", "u8"],
    ["type", "u8"],
    ["fingerprint", "rest"]
  ],
  SVCB: [
    ["priority", "u16"],
    ["target", "word"],
    ["value", "params"]
  ],
  HTTPS: [
    ["priority", "u16"],
    ["target", "word"],
    ["value", "params"]
  ]
}

/** LOC's fields, their ranges and defaults (the platform's documented limits). */
const LOC: ReadonlyArray<readonly [name: string, min: number, max: number, fallback?: number]> = [
  ["lat_degrees", 0, 90],
  ["lat_minutes", 0, 59, 0],
  ["lat_seconds", 0, 59.999, 0],
  ["long_degrees", 0, 180],
  ["long_minutes", 0, 59, 0],
  ["long_seconds", 0, 59.999, 0],
  ["altitude", -100_000, 42_849_672.95],
  ["size", 0, 90_000_000, 0],
  ["precision_horz", 0, 90_000_000, 0],
  ["precision_vert", 0, 90_000_000, 0]
]

export const StructuredTypes: ReadonlyArray<string> = [...Object.keys(FIELDS), "LOC"]
/** Types whose priority lives in the record's `priority` field rather than in content. */
const PRIORITY_OUTSIDE = new Set(["SRV", "URI"])

interface Token {
  readonly text: string
  readonly start: number
  readonly quoted: boolean
}

/** Splits presentation text into words; a double-quoted word may hold spaces and `\"`. */
const tokens = (content: string): Array<Token> => {
  const out: Array<Token> = []
  let i = 0
  while (i < content.length) {
    if (/\s/.test(content[i]!)) {
      i++
      continue
    }
    const start = i
    if (content[i] === '"') {
      let text = ""
      i++
      while (i < content.length && content[i] !== '"') {
        if (content[i] === "\\" && i + 1 < content.length) i++
        text += content[i++]
      }
      i++
      out.push({ text, start, quoted: true })
    } else {
      while (i < content.length && !/\s/.test(content[i]!)) i++
      out.push({ text: content.slice(start, i), start, quoted: false })
    }
  }
  return out
}

const quote = (s: string) => `"${s.replace(/["\\]/g, "\\$&")}"`
const isInt = (s: string) => /^\d+$/.test(s)

/** The `data` a stored content spells, or undefined when the content does not parse for its type. */
export const dataFromContent = (type: string, content: string, priority?: number | null): RecordData | undefined => {
  if (type === "LOC") return locData(content)
  const fields = FIELDS[type]
  if (!fields) return undefined
  const words = tokens(content)
  const data: Record<string, string | number> = type === "SRV" && priority != null ? { priority } : {}
  for (const [n, [name, kind]] of fields.entries()) {
    const w = words[n]
    if (!w && kind === "params") {
      data[name] = ""
      return data
    }
    if (!w) return undefined
    if (kind === "rest" || kind === "params") {
      data[name] = content.slice(w.start).trim()
      return data
    }
    if (kind === "u8" || kind === "u16") {
      if (!isInt(w.text) || Number(w.text) > (kind === "u8" ? U8 : U16)) return undefined
      data[name] = Number(w.text)
    } else data[name] = w.text
  }
  return words.length === fields.length ? data : undefined
}

const locData = (content: string): RecordData | undefined => {
  const m = /^(\d+) (\d+) ([\d.]+) ([NS]) (\d+) (\d+) ([\d.]+) ([EW]) (-?[\d.]+)m ([\d.]+)m ([\d.]+)m ([\d.]+)m$/.exec(
    content.trim()
  )
  if (!m) return undefined
  const n = (i: number) => Number(m[i])
  return {
    lat_degrees: n(1),
    lat_minutes: n(2),
    lat_seconds: n(3),
    lat_direction: m[4]!,
    long_degrees: n(5),
    long_minutes: n(6),
    long_seconds: n(7),
    long_direction: m[8]!,
    altitude: n(9),
    size: n(10),
    precision_horz: n(11),
    precision_vert: n(12)
  }
}

/** The content a record's `data` makes, with the priority for SRV/URI; or why it makes none. */
type FromData = Either.Either<{ readonly content: string; readonly priority?: number }, string>

const bad = (message: string): FromData => Either.left(message)
const shown = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v))

/**
 * The content (and, for SRV/URI, the priority) the platform writes for a record created with `data`;
 * a missing or out-of-range field is an error naming it, its limit and the value given.
 */
export const contentFromData = (type: string, data: unknown, priority?: number): FromData => {
  if (typeof data !== "object" || data === null || Array.isArray(data))
    return bad(`data: must be an object for a ${type} record, got ${shown(data)}`)
  const d = data as Record<string, unknown>
  if (type === "LOC") return locContent(d)
  const fields = FIELDS[type]
  if (!fields) return bad(`data: ${type} records have no structured form; send content`)
  const parts: Array<string> = []
  for (const [name, kind] of fields) {
    const v = d[name]
    if (kind === "u8" || kind === "u16") {
      const max = kind === "u8" ? U8 : U16
      if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > max) {
        return bad(`data.${name}: must be an integer from 0 to ${max}, got ${shown(v)}`)
      }
      parts.push(String(v))
    } else {
      if (kind === "params" && (v === undefined || v === "")) continue
      if (typeof v !== "string" || (kind !== "quoted" && v.trim() === ""))
        return bad(`data.${name}: must be a non-empty string, got ${shown(v)}`)
      if (kind === "word" && /\s/.test(v)) return bad(`data.${name}: must not contain spaces, got ${shown(v)}`)
      parts.push(kind === "quoted" ? quote(v) : v.trim())
    }
  }
  if (!PRIORITY_OUTSIDE.has(type)) return Either.right({ content: parts.join(" ") })
  const p = type === "SRV" ? (d.priority ?? priority) : priority
  if (typeof p !== "number" || !Number.isInteger(p) || p < 0 || p > U16) {
    return bad(`${type === "SRV" ? "data.priority" : "priority"}: must be an integer from 0 to ${U16}, got ${shown(p)}`)
  }
  return Either.right({ content: parts.join(" "), priority: p })
}

const locContent = (d: Record<string, unknown>): FromData => {
  const v: Record<string, number> = {}
  for (const [name, min, max, fallback] of LOC) {
    const x = d[name] ?? fallback
    if (typeof x !== "number" || !Number.isFinite(x) || x < min || x > max)
      return bad(`data.${name}: must be a number from ${min} to ${max}, got ${shown(x)}`)
    v[name] = x
  }
  for (const [name, allowed] of [
    ["lat_direction", ["N", "S"]],
    ["long_direction", ["E", "W"]]
  ] as const) {
    if (!allowed.includes(d[name] as never))
      return bad(`data.${name}: must be one of ${allowed.join(", ")}, got ${shown(d[name])}`)
  }
  const m = (x: number) => `${x.toFixed(2)}m`
  return Either.right({
    content: [
      v.lat_degrees,
      v.lat_minutes,
      v.lat_seconds,
      d.lat_direction,
      v.long_degrees,
      v.long_minutes,
      v.long_seconds,
      d.long_direction,
      m(v.altitude!),
      m(v.size!),
      m(v.precision_horz!),
      m(v.precision_vert!)
    ].join(" ")
  })
}
