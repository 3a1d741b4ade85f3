/**
 * `POST /zones/{zone_id}/dns_records` and `PATCH …/{id}`: the body of a new or changed record, checked whole before anything is
 * written. Structured types (src/domain/dns-data.ts) take `data` and get the content the platform
 * writes for it, or take `content` that must spell their fields; both at once must agree.
 */
import * as Either from "effect/Either"
import { DnsRecordTypes, type DnsRecord, type NewDnsRecord } from "../domain/dns.js"
import { contentFromData, dataFromContent, StructuredTypes } from "../domain/dns-data.js"
import { InvalidInput } from "../domain/errors.js"

const PROXIABLE = new Set(["A", "AAAA", "CNAME"])
const NEEDS_PRIORITY = new Set(["MX", "URI"])
const shown = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v))
const fail = (message: string) => Either.left(new InvalidInput({ message }))

// Without node:net, which a cold command would load for these two checks (test/cli/cold-start.test.ts).
const IPv4Octet = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)"
const IPv4 = new RegExp(`^${IPv4Octet}(\\.${IPv4Octet}){3}$`)
const isIPv4 = (s: string) => IPv4.test(s)
/** An IPv6 address as a URL's host takes it (brackets, no zone index), and nothing more. */
const isIPv6 = (s: string) => {
  if (!s.includes(":") || !/^[0-9a-fA-F:.]+$/.test(s)) return false
  try {
    return new URL(`http://[${s}]/`).hostname.length > 2
  } catch {
    return false
  }
}

/** The record a create body asks for in `zoneName`, or the first problem, naming the field. */
export const checkNewDnsRecord = (body: unknown, zoneName: string): Either.Either<NewDnsRecord, InvalidInput> => {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return fail(`body: must be a JSON object, got ${shown(body)}`)
  const b = body as Record<string, unknown>
  const type = b.type
  if (typeof type !== "string" || !(DnsRecordTypes as ReadonlyArray<string>).includes(type)) {
    return fail(`type: must be one of ${DnsRecordTypes.join(", ")}, got ${shown(type)}`)
  }
  if (typeof b.name !== "string" || b.name.trim() === "")
    return fail(`name: must be a non-empty string, got ${shown(b.name)}`)
  const raw = b.name.trim().toLowerCase().replace(/\.$/, "")
  // Like the platform: "@" is the apex, a relative name is completed with the zone's.
  const name = raw === "@" ? zoneName : raw === zoneName || raw.endsWith(`.${zoneName}`) ? raw : `${raw}.${zoneName}`
  if (name.length > 255) return fail(`name: at most 255 characters, got ${name.length}`)
  const ttl = b.ttl ?? 1
  if (typeof ttl !== "number" || !Number.isInteger(ttl) || (ttl !== 1 && (ttl < 60 || ttl > 86_400))) {
    return fail(`ttl: must be 1 (automatic) or from 60 to 86400 seconds, got ${shown(ttl)}`)
  }
  const proxiable = PROXIABLE.has(type)
  const proxied = b.proxied ?? false
  if (typeof proxied !== "boolean") return fail(`proxied: must be true or false, got ${shown(proxied)}`)
  if (proxied && !proxiable) return fail(`proxied: ${type} records cannot be proxied (only A, AAAA and CNAME)`)
  if (b.comment !== undefined && b.comment !== null && (typeof b.comment !== "string" || b.comment.length > 100)) {
    return fail(
      `comment: must be a string of at most 100 characters, got ${typeof b.comment === "string" ? `${b.comment.length} characters` : shown(b.comment)}`
    )
  }
  const tags = b.tags ?? []
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string"))
    return fail(`tags: must be an array of "name:value" strings, got ${shown(tags)}`)
  if (
    b.priority !== undefined &&
    (typeof b.priority !== "number" || !Number.isInteger(b.priority) || b.priority < 0 || b.priority > 65_535)
  ) {
    return fail(`priority: must be an integer from 0 to 65535, got ${shown(b.priority)}`)
  }
  let content: string
  let priority = (b.priority as number | undefined) ?? null
  if (b.data !== undefined && StructuredTypes.includes(type)) {
    const from = contentFromData(type, b.data, priority ?? undefined)
    if (Either.isLeft(from)) return fail(from.left)
    const made = from.right
    if (b.content !== undefined && b.content !== made.content) {
      return fail(
        `content: ${shown(b.content)} does not agree with data, which makes ${shown(made.content)}; send one of them`
      )
    }
    content = made.content
    priority = made.priority ?? priority
  } else {
    if (typeof b.content !== "string" || b.content.trim() === "") {
      return fail(
        `content: must be a non-empty string${StructuredTypes.includes(type) ? ` (or send data for a ${type} record)` : ""}, got ${shown(b.content)}`
      )
    }
    content = b.content.trim()
    // An address record holds an address of its family, as the platform checks it.
    if (type === "A" && !isIPv4(content))
      return fail(`content: an A record's content must be an IPv4 address, got ${shown(content)}`)
    if (type === "AAAA" && !isIPv6(content))
      return fail(`content: an AAAA record's content must be an IPv6 address, got ${shown(content)}`)
    if (StructuredTypes.includes(type) && dataFromContent(type, content, priority) === undefined) {
      return fail(
        `content: not a valid ${type} record content, got ${shown(content)}; send data to have it written for you`
      )
    }
  }
  if ((NEEDS_PRIORITY.has(type) || type === "SRV") && priority === null)
    return fail(`priority: required for ${type} records, got nothing`)
  return Either.right({
    type,
    name,
    content,
    priority,
    proxied,
    proxiable,
    ttl,
    comment: typeof b.comment === "string" ? b.comment : null,
    tags: tags as ReadonlyArray<string>
  })
}

/**
 * `PATCH /zones/{zone_id}/dns_records/{id}`: the fields the body names replace the record's, and the
 * result is checked whole as a new record would be (a type changed to MX needs its priority). A body
 * with `data` replaces the content the old data made.
 */
export const checkDnsRecordPatch = (
  body: unknown,
  current: DnsRecord,
  zoneName: string
): Either.Either<NewDnsRecord, InvalidInput> => {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return fail(`body: must be a JSON object, got ${shown(body)}`)
  const b = body as Record<string, unknown>
  const merged: Record<string, unknown> = {
    type: current.type,
    name: current.name,
    ...(b.data === undefined ? { content: current.content } : {}),
    ttl: current.ttl,
    proxied: current.proxied,
    comment: current.comment,
    tags: current.tags,
    ...(current.priority !== undefined ? { priority: current.priority } : {}),
    ...b
  }
  // A record that can no longer be proxied (a type changed to TXT) drops the flag it had.
  if (b.proxied === undefined && merged.type !== current.type && !PROXIABLE.has(String(merged.type)))
    merged.proxied = false
  return checkNewDnsRecord(merged, zoneName)
}
