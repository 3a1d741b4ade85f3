/**
 * Reads the bodies of the legacy security products' writes (Zone Lockdown, User Agent Blocking,
 * rate limiting previous version) field by field, collecting every problem, so one answer names
 * each field, its limit and the value sent. Pure. The fields and limits are the reference's
 * (lockdown-ua-migration.md §2.3, §3.2; rate-limiting-migration.md §2.2); where a source gives
 * two limits, the API specification's is used.
 */
import * as Either from "effect/Either"
import * as net from "node:net"
import {
  type Lockdown,
  type LockdownConfiguration,
  type RateLimit,
  RateLimitContentTypes,
  RateLimitMethods,
  RateLimitModes,
  RateLimitSchemes,
  type UaRule,
  UaModes
} from "../domain/legacy-security.js"

const LegacyLimits = { description: 1024, url: 1024, urls: 100, configurations: 1000, body: 32_768 } as const

/** A body read: its fields, or every problem it has (each naming its field). */
export type Read<A> = Either.Either<A, ReadonlyArray<string>>

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const show = (v: unknown) => {
  const s = JSON.stringify(v)
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s
}

class Fields {
  readonly problems: string[] = []
  constructor(readonly body: Record<string, unknown>) {}

  fail(field: string, message: string) {
    this.problems.push(`${field} ${message}`)
  }

  /** A string of at most `max` characters; `required` or the fallback. */
  text(o: Record<string, unknown>, key: string, at: string, max: number, fallback?: string): string {
    const v = o[key]
    if (v === undefined || v === null) {
      if (fallback === undefined) this.fail(at, "is required")
      return fallback ?? ""
    }
    if (typeof v !== "string") {
      this.fail(at, `must be a string, got ${show(v)}`)
      return ""
    }
    if (v.length > max) this.fail(at, `must be at most ${max} characters, got ${v.length}`)
    return v
  }

  bool(o: Record<string, unknown>, key: string, at: string, fallback: boolean): boolean {
    const v = o[key]
    if (v === undefined || v === null) return fallback
    if (typeof v !== "boolean") {
      this.fail(at, `must be true or false, got ${show(v)}`)
      return fallback
    }
    return v
  }

  int(o: Record<string, unknown>, key: string, at: string, min: number, max: number): number | undefined {
    const v = o[key]
    if (v === undefined || v === null) return undefined
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
      this.fail(at, `must be an integer from ${min} to ${max}, got ${show(v)}`)
      return undefined
    }
    return v
  }

  oneOf<const V extends ReadonlyArray<string>>(v: unknown, values: V, at: string): V[number] | undefined {
    if (typeof v === "string" && (values as ReadonlyArray<string>).includes(v)) return v
    this.fail(at, `must be one of ${values.join(", ")}, got ${v === undefined ? "nothing" : show(v)}`)
    return undefined
  }

  list(o: Record<string, unknown>, key: string, at: string): ReadonlyArray<unknown> | undefined {
    const v = o[key]
    if (v === undefined || v === null) return undefined
    if (!Array.isArray(v)) {
      this.fail(at, `must be an array, got ${show(v)}`)
      return undefined
    }
    return v
  }

  record(o: Record<string, unknown>, key: string, at: string): Record<string, unknown> | undefined {
    const v = o[key]
    if (v === undefined || v === null) return undefined
    if (!isRecord(v)) {
      this.fail(at, `must be an object, got ${show(v)}`)
      return undefined
    }
    return v
  }

  done<A>(value: A): Read<A> {
    return this.problems.length === 0 ? Either.right(value) : Either.left(this.problems)
  }
}

const notObject = <A>(body: unknown): Read<A> =>
  Either.left([`the body must be a JSON object, got ${Array.isArray(body) ? "an array" : show(body)}`])

/** An IP address or a CIDR range: `ip` takes an address, `ip_range` a prefix (any length; the docs' examples use /64). */
const ipProblem = (target: "ip" | "ip_range", value: string): string | undefined => {
  if (target === "ip") return net.isIP(value) === 0 ? "must be an IPv4 or IPv6 address" : undefined
  const [addr, len, extra] = value.split("/")
  const family = net.isIP(addr ?? "")
  const bits = Number(len)
  if (extra !== undefined || family === 0 || len === undefined || !/^\d+$/.test(len)) {
    return "must be an address range such as 192.0.2.0/24 or 2001:db8::/64"
  }
  const max = family === 4 ? 32 : 128
  return bits > max ? `must have a prefix length of at most ${max}` : undefined
}

export type LockdownFields = Omit<Lockdown, "id" | "created_on" | "modified_on">

export const readLockdown = (body: unknown): Read<LockdownFields> => {
  if (!isRecord(body)) return notObject(body)
  const f = new Fields(body)
  const urls = f.list(body, "urls", "urls")
  if (urls === undefined) f.fail("urls", "is required: the URLs the rule protects, such as example.com/admin/*")
  else if (urls.length === 0) f.fail("urls", "must list at least one URL, got []")
  else if (urls.length > LegacyLimits.urls)
    f.fail("urls", `may list at most ${LegacyLimits.urls} URLs, got ${urls.length}`)
  const urlValues = (urls ?? []).map((u, i) => {
    if (typeof u !== "string" || u.trim() === "") {
      f.fail(`urls[${i}]`, `must be a non-empty string, got ${show(u)}`)
      return ""
    }
    if (u.length > LegacyLimits.url)
      f.fail(`urls[${i}]`, `must be at most ${LegacyLimits.url} characters, got ${u.length}`)
    return u
  })
  const configs = f.list(body, "configurations", "configurations")
  if (configs === undefined)
    f.fail("configurations", 'is required: the IPs or ranges allowed, such as {"target":"ip","value":"198.51.100.4"}')
  else if (configs.length === 0) f.fail("configurations", "must list at least one IP or range, got []")
  else if (configs.length > LegacyLimits.configurations) {
    f.fail("configurations", `may list at most ${LegacyLimits.configurations} entries, got ${configs.length}`)
  }
  const configurations: LockdownConfiguration[] = []
  for (const [i, c] of (configs ?? []).entries()) {
    const at = `configurations[${i}]`
    if (!isRecord(c)) {
      f.fail(at, `must be an object {target, value}, got ${show(c)}`)
      continue
    }
    const target = f.oneOf(c.target, ["ip", "ip_range"] as const, `${at}.target`)
    const value = f.text(c, "value", `${at}.value`, 64)
    if (target !== undefined && value !== "") {
      const problem = ipProblem(target, value)
      if (problem !== undefined) f.fail(`${at}.value`, `${problem}, got ${show(value)}`)
      else configurations.push({ target, value })
    }
  }
  const description = f.text(body, "description", "description", LegacyLimits.description, "")
  const paused = f.bool(body, "paused", "paused", false)
  const priority = f.int(body, "priority", "priority", 0, 2_147_483_647)
  return f.done({
    urls: urlValues,
    configurations,
    description,
    paused,
    ...(priority !== undefined ? { priority } : {})
  })
}

export type UaRuleFields = Omit<UaRule, "id">

export const readUaRule = (body: unknown): Read<UaRuleFields> => {
  if (!isRecord(body)) return notObject(body)
  const f = new Fields(body)
  const mode = f.oneOf(body.mode, UaModes, "mode")
  const configuration = f.record(body, "configuration", "configuration")
  let value = ""
  if (configuration === undefined) {
    f.fail("configuration", 'is required: {"target":"ua","value":"<the exact User-Agent>"}')
  } else {
    f.oneOf(configuration.target, ["ua"] as const, "configuration.target")
    value = f.text(configuration, "value", "configuration.value", 1024)
    if (value === "" && typeof configuration.value === "string") f.fail("configuration.value", "must not be empty")
  }
  const description = f.text(body, "description", "description", LegacyLimits.description, "")
  const paused = f.bool(body, "paused", "paused", false)
  return f.done({ mode: mode ?? "block", configuration: { target: "ua" as const, value }, description, paused })
}

export type RateLimitFields = Omit<RateLimit, "id">

const uniqueList = <const V extends ReadonlyArray<string>>(
  f: Fields,
  o: Record<string, unknown>,
  key: string,
  at: string,
  values: V
): Array<V[number]> => {
  const list = f.list(o, key, at)
  if (list === undefined || list.length === 0) return ["_ALL_" as V[number]]
  const out: Array<V[number]> = []
  for (const [i, v] of list.entries()) {
    const ok = f.oneOf(v, values, `${at}[${i}]`)
    if (ok !== undefined && !out.includes(ok)) out.push(ok)
  }
  return out
}

export const readRateLimit = (body: unknown): Read<RateLimitFields> => {
  if (!isRecord(body)) return notObject(body)
  const f = new Fields(body)
  const match = f.record(body, "match", "match")
  if (match === undefined) f.fail("match", 'is required: {"request": {"url": "example.com/login*"}}')
  const request = match === undefined ? undefined : f.record(match, "request", "match.request")
  if (match !== undefined && request === undefined)
    f.fail("match.request", 'is required: {"url": "example.com/login*"}')
  const url = request === undefined ? "" : f.text(request, "url", "match.request.url", LegacyLimits.url)
  const methods =
    request === undefined
      ? ["_ALL_" as const]
      : uniqueList(f, request, "methods", "match.request.methods", RateLimitMethods)
  const schemes =
    request === undefined
      ? ["_ALL_" as const]
      : uniqueList(f, request, "schemes", "match.request.schemes", RateLimitSchemes)
  const response = match === undefined ? undefined : f.record(match, "response", "match.response")
  const statusList = response === undefined ? undefined : f.list(response, "status", "match.response.status")
  const status = (statusList ?? []).flatMap((s, i) => {
    if (typeof s !== "number" || !Number.isInteger(s) || s < 100 || s > 599) {
      f.fail(`match.response.status[${i}]`, `must be an HTTP status from 100 to 599, got ${show(s)}`)
      return []
    }
    return [s]
  })
  const headerList = response === undefined ? undefined : f.list(response, "headers", "match.response.headers")
  const headers = (headerList ?? []).flatMap((h, i) => {
    const at = `match.response.headers[${i}]`
    if (!isRecord(h)) {
      f.fail(at, `must be an object {name, op, value}, got ${show(h)}`)
      return []
    }
    const name = f.text(h, "name", `${at}.name`, 256)
    const op = f.oneOf(h.op, ["eq", "ne"] as const, `${at}.op`)
    const value = f.text(h, "value", `${at}.value`, 1024)
    return op === undefined ? [] : [{ name, op, value }]
  })
  const originTraffic =
    response === undefined ? true : f.bool(response, "origin_traffic", "match.response.origin_traffic", true)
  const bypassList = f.list(body, "bypass", "bypass") ?? []
  const bypass = bypassList.flatMap((b, i) => {
    const at = `bypass[${i}]`
    if (!isRecord(b)) {
      f.fail(at, `must be an object {"name":"url","value":...}, got ${show(b)}`)
      return []
    }
    const name = f.oneOf(b.name, ["url"] as const, `${at}.name`)
    const value = f.text(b, "value", `${at}.value`, LegacyLimits.url)
    return name === undefined ? [] : [{ name, value }]
  })
  const threshold = f.int(body, "threshold", "threshold", 1, 1_000_000)
  if (body.threshold === undefined)
    f.fail("threshold", "is required: the number of requests that trips the limit (1 to 1000000)")
  const period = f.int(body, "period", "period", 10, 86_400)
  if (body.period === undefined) f.fail("period", "is required: the counting period in seconds (10 to 86400)")
  const action = f.record(body, "action", "action")
  if (action === undefined) f.fail("action", 'is required: {"mode": "ban", "timeout": 60}')
  const mode = action === undefined ? undefined : f.oneOf(action.mode, RateLimitModes, "action.mode")
  const challenge = mode === "challenge" || mode === "js_challenge" || mode === "managed_challenge"
  let timeout = action === undefined ? undefined : f.int(action, "timeout", "action.timeout", 1, 86_400)
  if (challenge && timeout !== undefined) {
    f.fail("action.timeout", `must not be given for ${mode}: the zone's Challenge Passage time applies, got ${timeout}`)
  }
  // "Setting a timeout shorter than the threshold causes the API to automatically increase the timeout" (§2.3).
  if (!challenge && mode !== undefined && period !== undefined) timeout = Math.max(timeout ?? period, period)
  const responseBody = action === undefined ? undefined : f.record(action, "response", "action.response")
  let actionResponse: { content_type: (typeof RateLimitContentTypes)[number]; body: string } | undefined
  if (responseBody !== undefined) {
    if (challenge) f.fail("action.response", `must not be given for ${mode}`)
    const contentType = f.oneOf(responseBody.content_type, RateLimitContentTypes, "action.response.content_type")
    const text = f.text(responseBody, "body", "action.response.body", LegacyLimits.body)
    if (contentType !== undefined) actionResponse = { content_type: contentType, body: text }
  }
  const correlate = f.record(body, "correlate", "correlate")
  if (correlate !== undefined) f.oneOf(correlate.by, ["nat"] as const, "correlate.by")
  const description = f.text(body, "description", "description", LegacyLimits.description, "")
  const disabled = f.bool(body, "disabled", "disabled", false)
  return f.done({
    disabled,
    description,
    match: {
      request: { methods, schemes, url },
      response: {
        ...(status.length > 0 ? { status } : {}),
        origin_traffic: originTraffic,
        ...(headers.length > 0 ? { headers } : {})
      }
    },
    bypass,
    threshold: threshold ?? 1,
    period: period ?? 60,
    action: {
      mode: mode ?? "ban",
      ...(timeout !== undefined && !challenge ? { timeout } : {}),
      ...(actionResponse !== undefined ? { response: actionResponse } : {})
    },
    ...(correlate !== undefined ? { correlate: { by: "nat" as const } } : {})
  })
}
