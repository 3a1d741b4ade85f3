/**
 * Zones, DNS records and certificate packs of the local platform, as the v4 API returns them. The
 * DNS writes and a record's read go through the store's SQL client; the listings (zones, a DNS
 * page, a certificate page) and a zone read by id stay on the handle: the route table and the
 * credential check answer them before the app, without a fiber (docs/architecture.md, "The store").
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import type { CertificatePack } from "../domain/certificate.js"
import type { DnsRecord, NewDnsRecord } from "../domain/dns.js"
import { dataFromContent } from "../domain/dns-data.js"
import { pageInfo, type Page } from "../domain/envelope.js"
import type { Zone } from "../domain/zone.js"
import { inList, json, parseOperator, stmt, textClause, where, type Clause } from "./query.js"
import { seekPage, seekTotal } from "./seek.js"
import { storeFailure } from "./sql-client.js"
import type { StoreError } from "./store-error.js"

type Row = Record<string, unknown>

const ZONE_COLUMNS = "z.*, a.name AS account_name"
const ZONE_FROM = "FROM zones z JOIN accounts a ON a.id = z.account_id"
const ZONE_SELECT = `SELECT ${ZONE_COLUMNS} ${ZONE_FROM}`

type Owner = NonNullable<Zone["owner"]>

/**
 * The platform always names the owner's kind: a zone without an organization is the user's, even
 * when its id and email are withheld (`null`). Stores seeded before this rule hold `type: null`.
 */
const ownerOf = (o: Owner): Owner => ({ ...o, type: o.type ?? "user" })

const zoneFromRow = (r: Row): Zone => ({
  id: r.id as string,
  name: r.name as string,
  status: r.status as string,
  paused: r.paused === 1,
  type: r.type as string,
  development_mode: r.development_mode as number,
  name_servers: json(r.name_servers, []),
  original_name_servers: json(r.original_name_servers, null),
  original_registrar: (r.original_registrar as string | null) ?? null,
  original_dnshost: (r.original_dnshost as string | null) ?? null,
  created_on: r.created_on as string,
  modified_on: r.modified_on as string,
  activated_on: (r.activated_on as string | null) ?? null,
  meta: json(r.meta, {}),
  owner: ownerOf(json(r.owner, {})),
  account: { id: r.account_id as string, name: r.account_name as string },
  plan: json(r.plan, undefined as never),
  permissions: ["#zone:read", "#zone:edit", "#dns_records:read", "#dns_records:edit", "#ssl:read"]
})

export interface ZoneQuery {
  readonly accountIds: ReadonlyArray<string>
  readonly name?: string | undefined
  readonly status?: string | undefined
  readonly accountId?: string | undefined
  readonly accountName?: string | undefined
  readonly types?: ReadonlyArray<string> | undefined
  readonly match?: "any" | "all" | undefined
  readonly order?: string | undefined
  readonly direction?: "asc" | "desc" | undefined
  readonly page: number
  readonly perPage: number
}

// Each order's expression, and the column of `ZONE_COLUMNS` that holds it (keyset keys read it).
const ZONE_ORDER: Record<string, { readonly expr: string; readonly column?: string }> = {
  name: { expr: "z.name", column: "name" },
  status: { expr: "z.status", column: "status" },
  "account.id": { expr: "z.account_id", column: "account_id" },
  "account.name": { expr: "a.name", column: "account_name" },
  "plan.id": { expr: "json_extract(z.plan, '$.id')" }
}

export const listZones = (db: Database.Database, q: ZoneQuery): Page<Zone> => {
  const filters: Array<Clause> = []
  if (q.name !== undefined) filters.push(textClause("z.name", ...parseOperator(q.name)))
  if (q.accountName !== undefined) filters.push(textClause("a.name", ...parseOperator(q.accountName)))
  if (q.status !== undefined) filters.push({ sql: "z.status = ?", params: [q.status] })
  if (q.accountId !== undefined) filters.push({ sql: "z.account_id = ?", params: [q.accountId] })
  const typeScope =
    q.types && q.types.length > 0 ? inList("z.type", q.types) : { sql: "z.type <> 'internal'", params: [] }
  // Without a type filter the platform leaves internal zones out.
  const w = where([inList("z.account_id", q.accountIds), typeScope], filters, q.match)
  const total = seekTotal(db, ZONE_FROM, w)
  const desc = q.direction === "desc"
  // Zone names are unique: the name ends every order, and ordering by name alone walks its index.
  const key = q.order ?? "name"
  const first = ZONE_ORDER[key]
  const keys = [
    ...(first !== undefined && key !== "name" ? [{ ...first, desc }] : []),
    { expr: "z.name", desc, column: "name" }
  ]
  // Many zones in the caller's accounts: walk the name index and skip other accounts' zones (the
  // unary + keeps SQLite off the account index, which would sort every zone of those accounts for
  // each page: 17 ms instead of 3 for a page of 10,000 zones). Few: the account index and a sort.
  const byName = key === "name" && total > 500
  const scan = byName ? where([inList("+z.account_id", q.accountIds), typeScope], filters, q.match) : w
  const { rows } = seekPage(db, {
    select: ZONE_COLUMNS,
    from: ZONE_FROM,
    where: scan,
    keys,
    page: q.page,
    perPage: q.perPage,
    total
  })
  return { items: rows.map(zoneFromRow), info: pageInfo(q.page, q.perPage, total, rows.length) }
}

export const getZone = (db: Database.Database, id: string, accountIds: ReadonlyArray<string>): Zone | undefined => {
  const row = stmt(db, `${ZONE_SELECT} WHERE z.id = ?`).get(id) as Row | undefined
  return row && accountIds.includes(row.account_id as string) ? zoneFromRow(row) : undefined
}

const dnsFromRow = (r: Row): DnsRecord => {
  const data = dataFromContent(r.type as string, r.content as string, r.priority as number | null)
  return {
    id: r.id as string,
    type: r.type as string,
    name: r.name as string,
    content: r.content as string,
    // Structured types answer with the fields their content spells (clients read `.data.target`).
    ...(data !== undefined ? { data } : {}),
    ...(r.priority !== null ? { priority: r.priority as number } : {}),
    proxiable: r.proxiable === 1,
    proxied: r.proxied === 1,
    ttl: r.ttl as number,
    settings: {},
    meta: {},
    comment: (r.comment as string | null) ?? null,
    tags: json(r.tags, []),
    created_on: r.created_on as string,
    modified_on: r.modified_on as string
  }
}

const failing = storeFailure("cannot read or write the zone's DNS records")

/** Writes a checked new record (src/server/dns-records.ts) and answers it as the list does. */
export const insertDnsRecord = (
  sql: SqlClient,
  zoneId: string,
  id: string,
  r: NewDnsRecord,
  now: string
): Effect.Effect<DnsRecord, StoreError> =>
  sql`INSERT INTO dns_records (id, zone_id, type, name, content, proxiable, proxied, ttl, priority, comment, tags, created_on, modified_on)
      VALUES (${id}, ${zoneId}, ${r.type}, ${r.name}, ${r.content}, ${r.proxiable ? 1 : 0}, ${r.proxied ? 1 : 0}, ${r.ttl},
        ${r.priority}, ${r.comment}, ${JSON.stringify(r.tags)}, ${now}, ${now})`.pipe(
    Effect.zipRight(sql<Row>`SELECT * FROM dns_records WHERE id = ${id}`),
    sql.withTransaction,
    Effect.map(([row]) => dnsFromRow(row!)),
    Effect.mapError(failing)
  )

/** One record of a zone, as the list answers it. */
export const getDnsRecord = (
  sql: SqlClient,
  zoneId: string,
  id: string
): Effect.Effect<DnsRecord | undefined, StoreError> =>
  sql<Row>`SELECT * FROM dns_records WHERE id = ${id} AND zone_id = ${zoneId}`.pipe(
    Effect.map(([row]) => (row === undefined ? undefined : dnsFromRow(row))),
    Effect.mapError(failing)
  )

/** Writes a checked record over the one with `id` (its id and creation time stay). */
export const updateDnsRecord = (
  sql: SqlClient,
  zoneId: string,
  id: string,
  r: NewDnsRecord,
  now: string
): Effect.Effect<DnsRecord | undefined, StoreError> =>
  sql`UPDATE dns_records SET type = ${r.type}, name = ${r.name}, content = ${r.content}, proxiable = ${r.proxiable ? 1 : 0},
        proxied = ${r.proxied ? 1 : 0}, ttl = ${r.ttl}, priority = ${r.priority}, comment = ${r.comment},
        tags = ${JSON.stringify(r.tags)}, modified_on = ${now}
      WHERE id = ${id} AND zone_id = ${zoneId}`.raw.pipe(
    Effect.mapError(failing),
    Effect.flatMap((res) =>
      (res as Database.RunResult).changes === 0 ? Effect.succeed(undefined) : getDnsRecord(sql, zoneId, id)
    ),
    sql.withTransaction,
    Effect.catchTag("SqlError", (e) => Effect.fail(failing(e)))
  )

/** False when the zone has no record with `id`. */
export const deleteDnsRecord = (sql: SqlClient, zoneId: string, id: string): Effect.Effect<boolean, StoreError> =>
  sql`DELETE FROM dns_records WHERE id = ${id} AND zone_id = ${zoneId}`.raw.pipe(
    Effect.map((res) => (res as Database.RunResult).changes > 0),
    Effect.mapError(failing)
  )

export interface DnsQuery {
  readonly zoneId: string
  readonly type?: string | undefined
  readonly name?: Partial<Record<"exact" | "contains" | "startswith" | "endswith", string | undefined>>
  readonly content?: Partial<Record<"exact" | "contains" | "startswith" | "endswith", string | undefined>>
  readonly proxied?: boolean | undefined
  readonly match?: "any" | "all" | undefined
  readonly order?: string | undefined
  readonly direction?: "asc" | "desc" | undefined
  readonly page: number
  readonly perPage: number
}

const DNS_OPS = { exact: "equal", contains: "contains", startswith: "starts_with", endswith: "ends_with" } as const

export const listDnsRecords = (db: Database.Database, q: DnsQuery): Page<DnsRecord> => {
  const filters: Array<Clause> = []
  if (q.type !== undefined) filters.push({ sql: "type = ?", params: [q.type] })
  for (const [column, ops] of [
    ["name", q.name],
    ["content", q.content]
  ] as const) {
    for (const [op, value] of Object.entries(ops ?? {})) {
      if (value !== undefined) filters.push(textClause(column, DNS_OPS[op as keyof typeof DNS_OPS], value))
    }
  }
  if (q.proxied !== undefined) filters.push({ sql: "proxied = ?", params: [q.proxied ? 1 : 0] })
  const w = where([{ sql: "zone_id = ?", params: [q.zoneId] }], filters, q.match)
  const desc = q.direction === "desc"
  const order = q.order ?? "type"
  // The record's sequence (its creation order) breaks ties, ascending in either direction.
  const keys = [
    ...(order !== "name" ? [{ expr: order, desc, column: order }] : []),
    { expr: "name", desc, column: "name" },
    { expr: "seq", desc: false, column: "seq" }
  ]
  const { rows, total } = seekPage(db, {
    select: "*",
    from: "FROM dns_records",
    where: w,
    keys,
    page: q.page,
    perPage: q.perPage
  })
  return { items: rows.map(dnsFromRow), info: pageInfo(q.page, q.perPage, total, rows.length) }
}

/**
 * A page of the zone's certificate packs: the page through seek.ts on the handle (its memo of
 * where pages end is kept per handle), each pack's certificates through the client.
 */
export const listCertificatePacks = (
  db: Database.Database,
  sql: SqlClient,
  zoneId: string,
  all: boolean,
  page: number,
  perPage: number
): Effect.Effect<Page<CertificatePack>, StoreError> => {
  const w = { sql: all ? "WHERE zone_id = ?" : "WHERE zone_id = ? AND status = 'active'", params: [zoneId] }
  const { rows: packs, total } = seekPage(db, {
    select: "*",
    from: "FROM certificate_packs",
    where: w,
    keys: [
      { expr: "created_on", desc: false, column: "created_on" },
      { expr: "id", desc: false, column: "id" }
    ],
    page,
    perPage
  })
  const pack = (p: Row) =>
    sql<Row>`SELECT * FROM certificates WHERE pack_id = ${p.id as string} ORDER BY priority, id`.pipe(
      Effect.map((certs): CertificatePack => ({
        id: p.id as string,
        type: p.type as string,
        hosts: json(p.hosts, []),
        primary_certificate: (p.primary_certificate as string | null) ?? null,
        status: p.status as string,
        certificates: certs.map((c) => ({
          id: c.id as string,
          hosts: json(c.hosts, []),
          issuer: c.issuer as string,
          signature: c.signature as string,
          status: c.status as string,
          bundle_method: c.bundle_method as string,
          zone_id: c.zone_id as string,
          uploaded_on: c.uploaded_on as string,
          modified_on: c.modified_on as string,
          expires_on: c.expires_on as string,
          priority: (c.priority as number | null) ?? null
        })),
        created_on: p.created_on as string,
        validity_days: p.validity_days as number,
        validation_method: p.validation_method as string,
        certificate_authority: p.certificate_authority as string,
        cloudflare_branding: p.cloudflare_branding === 1
      }))
    )
  return Effect.forEach(packs, pack).pipe(
    Effect.map((items) => ({ items, info: pageInfo(page, perPage, total, items.length) })),
    Effect.mapError(storeFailure("cannot read the zone's certificates"))
  )
}
