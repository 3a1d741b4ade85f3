/**
 * Expands a world definition (fixtures/world.json) into rows, deterministically: the same
 * definition always gives the same ids, records and certificates, so tests and docs can name them.
 */
import { hexId, uuidId } from "../domain/ids.js"
import { isoMicros } from "../domain/timestamps.js"
import { sha256 } from "../store/identity-repo.js"

interface ZoneDef {
  readonly name: string
  readonly status?: string
  readonly type?: string
  readonly paused?: boolean
  readonly records?: number
}
interface AccountDef {
  readonly name: string
  readonly type: string
  readonly plan: string
  readonly zones: ReadonlyArray<ZoneDef>
}
export interface WorldDef {
  readonly user: { readonly email: string; readonly api_key: string }
  readonly tokens: ReadonlyArray<{
    readonly name: string
    readonly secret: string
    readonly accounts: "*" | ReadonlyArray<string>
    readonly user_scope: boolean
    readonly status?: string
  }>
  readonly accounts: ReadonlyArray<AccountDef>
  readonly inviting_accounts: ReadonlyArray<AccountDef>
  readonly invites: ReadonlyArray<{
    readonly account: string
    readonly invited_by: string
    readonly roles: ReadonlyArray<string>
  }>
}

/** Deterministic PRNG (mulberry32) so worlds are reproducible. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const EPOCH = Date.UTC(2024, 0, 15, 9, 30, 0)
const PLANS: Record<string, { id: string; name: string; price: number; legacy_id: string }> = {
  free: { id: "0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee", name: "Free Website", price: 0, legacy_id: "free" },
  pro: { id: "e592fd9519420ba7405e1307bff33214", name: "Pro Plan", price: 20, legacy_id: "pro" },
  business: { id: "94f3b7b768b0458b56d2cac4fe5ec0f9", name: "Business Plan", price: 200, legacy_id: "business" },
  enterprise: {
    id: "a577b510288e82b26486fa3e8b61f3f5",
    name: "Enterprise Website",
    price: 5000,
    legacy_id: "enterprise"
  }
}
const planFor = (plan: string) => {
  const p = PLANS[plan] ?? PLANS.free!
  return {
    id: p.id,
    name: p.name,
    price: p.price,
    currency: "USD",
    frequency: p.price > 0 ? "monthly" : "",
    is_subscribed: true,
    can_subscribe: false,
    legacy_id: p.legacy_id,
    legacy_discount: false,
    externally_managed: false
  }
}

const NS = ["ada", "bob", "cruz", "dana", "elle", "finn", "gwen", "hugo"]

export interface Rows {
  accounts: Array<Record<string, unknown>>
  users: Array<Record<string, unknown>>
  memberships: Array<Record<string, unknown>>
  tokens: Array<Record<string, unknown>>
  token_accounts: Array<Record<string, unknown>>
  zones: Array<Record<string, unknown>>
  dns_records: Array<Record<string, unknown>>
  certificate_packs: Array<Record<string, unknown>>
  certificates: Array<Record<string, unknown>>
  invites: Array<Record<string, unknown>>
}

const defaultRecordCount = (i: number) => 6 + (i % 7)

/** DNS records of one zone: a realistic base set, then numbered hosts up to `count`. */
const zoneRecords = (zoneId: string, zone: string, count: number, rnd: () => number, createdMs: number) => {
  const out: Array<Record<string, unknown>> = []
  const add = (
    type: string,
    name: string,
    content: string,
    extra: { proxied?: boolean; priority?: number; ttl?: number; comment?: string } = {}
  ) => {
    const n = out.length
    const proxiable = type === "A" || type === "AAAA" || type === "CNAME"
    const ts = isoMicros(createdMs + n * 60_000, n)
    out.push({
      id: hexId("dns", zoneId, n),
      zone_id: zoneId,
      type,
      name,
      content,
      proxiable: proxiable ? 1 : 0,
      proxied: proxiable && (extra.proxied ?? false) ? 1 : 0,
      ttl: extra.ttl ?? (proxiable && extra.proxied ? 1 : 3600),
      priority: extra.priority ?? null,
      comment: extra.comment ?? null,
      tags: "[]",
      created_on: ts,
      modified_on: ts
    })
  }
  const ip = () => `203.0.113.${1 + Math.floor(rnd() * 250)}`
  add("A", zone, ip(), { proxied: true, comment: "apex" })
  add("AAAA", zone, `2001:db8::${(1 + Math.floor(rnd() * 0xfffe)).toString(16)}`, { proxied: true })
  add("CNAME", `www.${zone}`, zone, { proxied: true })
  add("MX", zone, `mx1.${zone}`, { priority: 10 })
  add("MX", zone, `mx2.${zone}`, { priority: 20 })
  add("TXT", zone, `"v=spf1 include:_spf.${zone} ~all"`)
  const types = ["A", "A", "A", "AAAA", "CNAME", "TXT", "MX", "SRV"] as const
  for (let i = out.length; i < count; i++) {
    const t = types[Math.floor(rnd() * types.length)]!
    const host = `host-${String(i).padStart(4, "0")}.${zone}`
    switch (t) {
      case "A":
        add("A", host, ip(), { proxied: rnd() < 0.5 })
        break
      case "AAAA":
        add("AAAA", host, `2001:db8::${i.toString(16)}`, { proxied: rnd() < 0.5 })
        break
      case "CNAME":
        add("CNAME", host, `origin-${i % 17}.${zone}`, { proxied: rnd() < 0.7 })
        break
      case "TXT":
        add("TXT", host, `"edgectl-verification=${hexId("txt", zone, i).slice(0, 16)}"`)
        break
      case "MX":
        add("MX", host, `mx${i % 3}.${zone}`, { priority: 10 * (1 + (i % 5)) })
        break
      case "SRV":
        add("SRV", `_sip._tcp.${host}`, `1 5060 sip.${zone}`, { priority: 10 })
        break
    }
  }
  return out
}

export interface WorldOptions {
  /** Total zones wanted; extra generated zones are spread over the member accounts. */
  readonly zones?: number
  /** Total DNS records wanted; spread over the zones beyond the defined ones. */
  readonly records?: number
}

export const expandWorld = (def: WorldDef, options: WorldOptions = {}): Rows => {
  const rnd = prng(20241115)
  const rows: Rows = {
    accounts: [],
    users: [],
    memberships: [],
    tokens: [],
    token_accounts: [],
    zones: [],
    dns_records: [],
    certificate_packs: [],
    certificates: [],
    invites: []
  }
  const userId = hexId("user", def.user.email)
  rows.users.push({ id: userId, email: def.user.email, api_key_hash: sha256(def.user.api_key) })
  const accountId = new Map<string, string>()
  const memberAccounts = def.accounts.map((a) => ({ ...a, zones: [...a.zones] }))
  const wantedZones = options.zones ?? 0
  const definedZones = memberAccounts.reduce((n, a) => n + a.zones.length, 0)
  for (let i = definedZones; i < wantedZones; i++) {
    memberAccounts[i % memberAccounts.length]!.zones.push({ name: `zone-${String(i).padStart(6, "0")}.example` })
  }
  const extraRecords = Math.max(0, (options.records ?? 0) - definedZones * 10)
  const generatedZones = Math.max(0, wantedZones - definedZones)
  const perGenerated = generatedZones > 0 ? Math.ceil(extraRecords / generatedZones) : 0
  let zoneIndex = 0
  const addAccount = (a: AccountDef, member: boolean) => {
    const id = hexId("account", a.name)
    accountId.set(a.name, id)
    rows.accounts.push({
      id,
      name: a.name,
      type: a.type,
      plan: a.plan,
      created_on: isoMicros(EPOCH - 400 * 86_400_000),
      settings: JSON.stringify({ enforce_twofactor: a.type === "enterprise", use_account_custom_ns_by_default: false })
    })
    if (member) {
      rows.memberships.push({
        id: hexId("membership", userId, id),
        user_id: userId,
        account_id: id,
        status: "accepted",
        roles: JSON.stringify(["Administrator"])
      })
    }
    for (const z of a.zones) {
      const i = zoneIndex++
      const zid = hexId("zone", z.name)
      const created = EPOCH + i * 3_600_000
      const status = z.status ?? "active"
      const ns = [`${NS[i % NS.length]}.ns.edgectl.dev`, `${NS[(i + 3) % NS.length]}.ns.edgectl.dev`]
      rows.zones.push({
        id: zid,
        name: z.name,
        account_id: id,
        status,
        paused: z.paused ? 1 : 0,
        type: z.type ?? "full",
        plan: JSON.stringify(planFor(a.plan)),
        development_mode: 0,
        name_servers: JSON.stringify(ns),
        original_name_servers: JSON.stringify([`ns1.registrar-dns.net`, `ns2.registrar-dns.net`]),
        original_registrar: "Example Registrar, Inc.",
        original_dnshost: null,
        created_on: isoMicros(created, i),
        modified_on: isoMicros(created + 86_400_000, i),
        activated_on: status === "active" ? isoMicros(created + 7_200_000, i) : null,
        meta: JSON.stringify({
          step: 2,
          custom_certificate_quota: a.plan === "enterprise" ? 10 : 0,
          page_rule_quota: a.plan === "enterprise" ? 125 : a.plan === "business" ? 50 : 20,
          phishing_detected: false
        }),
        owner: JSON.stringify({ id: null, name: null, type: null })
      })
      const count =
        z.records ?? (z.name.endsWith(".example") && perGenerated > 0 ? perGenerated : defaultRecordCount(i))
      for (const r of zoneRecords(zid, z.name, count, rnd, created)) rows.dns_records.push(r)
      const packs = z.name.endsWith(".example") ? 1 : 1 + (i % 2)
      for (let p = 0; p < packs; p++) {
        const packId = uuidId("pack", zid, p)
        const universal = p === 0
        const hosts = universal ? [z.name, `*.${z.name}`] : [z.name, `www.${z.name}`, `api.${z.name}`]
        const packStatus = universal
          ? status === "active"
            ? "active"
            : "pending_validation"
          : i % 4 === 1
            ? "pending_validation"
            : "active"
        const certCount = packStatus === "active" ? 2 : 0
        const certIds: Array<string> = []
        for (let c = 0; c < certCount; c++) {
          const cid = hexId("cert", packId, c)
          certIds.push(cid)
          const issued = created + 86_400_000 * (10 + c)
          rows.certificates.push({
            id: cid,
            pack_id: packId,
            zone_id: zid,
            hosts: JSON.stringify(hosts),
            issuer: universal ? "GoogleTrustServices" : "LetsEncrypt",
            signature: c === 0 ? "ECDSAWithSHA256" : "SHA256WithRSA",
            status: "active",
            bundle_method: "ubiquitous",
            uploaded_on: isoMicros(issued, c),
            modified_on: isoMicros(issued, c),
            expires_on: isoMicros(issued + 90 * 86_400_000, c),
            priority: c === 0 ? 1 : 2
          })
        }
        rows.certificate_packs.push({
          id: packId,
          zone_id: zid,
          type: universal ? "universal" : "advanced",
          hosts: JSON.stringify(hosts),
          status: packStatus,
          primary_certificate: certIds[0] ?? null,
          created_on: isoMicros(created + 3_600_000 * (p + 1), 123 + p),
          validity_days: 90,
          validation_method: universal ? "txt" : "http",
          certificate_authority: universal ? "google" : "lets_encrypt",
          cloudflare_branding: 0
        })
      }
    }
  }
  for (const a of memberAccounts) addAccount(a, true)
  for (const a of def.inviting_accounts) addAccount(a, false)
  for (const t of def.tokens) {
    const tid = hexId("token", t.name)
    rows.tokens.push({
      id: tid,
      user_id: userId,
      name: t.name,
      secret_hash: sha256(t.secret),
      status: t.status ?? "active",
      user_scope: t.user_scope ? 1 : 0,
      all_accounts: t.accounts === "*" ? 1 : 0,
      expires_on: t.status === "expired" ? isoMicros(EPOCH) : null,
      not_before: null
    })
    // An all-accounts token follows the user's memberships (an accepted invite adds an account).
    const names = t.accounts === "*" ? [] : t.accounts
    for (const n of names) rows.token_accounts.push({ token_id: tid, account_id: accountId.get(n)! })
  }
  def.invites.forEach((inv, i) => {
    const aid = accountId.get(inv.account)!
    const invited = EPOCH + 300 * 86_400_000 + i * 86_400_000
    rows.invites.push({
      id: hexId("invite", aid, userId),
      user_id: userId,
      invited_member_id: userId,
      account_id: aid,
      invited_by: inv.invited_by,
      invited_member_email: def.user.email,
      invited_on: isoMicros(invited, i),
      expires_on: isoMicros(invited + 7 * 365 * 86_400_000, i),
      roles: JSON.stringify(inv.roles),
      status: "pending"
    })
  })
  return rows
}
