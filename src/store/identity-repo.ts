/**
 * Users, credentials, accounts, memberships and invites of the local platform. The credential
 * check and the reads the route table answers run on the store's handle (the hot path:
 * docs/architecture.md, "The store"); invites and token verification through its SQL client.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import type { Account, Membership, TokenVerification } from "../domain/account.js"
import { pageInfo, type Page } from "../domain/envelope.js"
import type { Invite } from "../domain/invite.js"
import { nodeCrypto } from "../lazy-builtins.js"
import { inList, json, stmt } from "./query.js"
import { seekPage } from "./seek.js"
import { storeFailure } from "./sql-client.js"
import type { StoreError } from "./store-error.js"

type Row = Record<string, unknown>

const failing = storeFailure("cannot read or write the invites and tokens")

/**
 * SHA-256 of the demo world's all-accounts token (fixtures/world.json), which local mode presents
 * on every call: its hash is known, so a command checks its credential without loading node:crypto.
 */
const knownHashes = new Map([
  ["edgectl-local-token-all-accounts-0000000", "57a261ef9eafb13641a625b04129b4b1b73a3e544591a0bacbdc03edeaec1b5d"]
])

/** The hex SHA-256 of a secret: credentials are stored hashed, as the platform stores them. */
export const sha256 = (secret: string) =>
  knownHashes.get(secret) ?? nodeCrypto().createHash("sha256").update(secret).digest("hex")

export interface TokenRow {
  readonly id: string
  readonly userId: string
  readonly status: string
  readonly userScope: boolean
  readonly expiresOn: string | null
  readonly notBefore: string | null
  readonly accountIds: ReadonlyArray<string>
}

/**
 * Credentials checked on every request, remembered per store handle: a lookup costs two or three
 * queries and a SHA-256, a tenth of a small request. An entry holds while the store is unchanged by
 * other connections (`data_version`) and by this one's membership writes (`respondInvite`).
 */
interface CredentialCache {
  version: unknown
  readonly entries: Map<
    string,
    TokenRow | { readonly userId: string; readonly accountIds: ReadonlyArray<string> } | undefined
  >
}
const credentialCaches = new WeakMap<Database.Database, CredentialCache>()

const cached = <A>(db: Database.Database, key: string, look: () => A): A => {
  const version = stmt(db, "PRAGMA data_version").pluck().get()
  let cache = credentialCaches.get(db)
  if (cache === undefined || cache.version !== version)
    credentialCaches.set(db, (cache = { version, entries: new Map() }))
  if (cache.entries.has(key)) return cache.entries.get(key) as A
  const found = look()
  // Bounded: a client cycling through made-up tokens must not grow it.
  if (cache.entries.size >= 1000) cache.entries.clear()
  cache.entries.set(key, found as never)
  return found
}

const forgetCredentials = (db: Database.Database) => credentialCaches.delete(db)

export const findToken = (db: Database.Database, secret: string): TokenRow | undefined =>
  cached(db, `t ${secret}`, () => lookToken(db, secret))

const lookToken = (db: Database.Database, secret: string): TokenRow | undefined => {
  const t = stmt(db, "SELECT * FROM tokens WHERE secret_hash = ?").get(sha256(secret)) as Row | undefined
  if (!t) return undefined
  const accounts = stmt(db, "SELECT account_id FROM token_accounts WHERE token_id = ?").all(t.id) as Array<Row>
  return {
    id: t.id as string,
    userId: t.user_id as string,
    status: t.status as string,
    userScope: t.user_scope === 1,
    expiresOn: (t.expires_on as string | null) ?? null,
    notBefore: (t.not_before as string | null) ?? null,
    accountIds:
      t.all_accounts === 1 ? memberAccountIds(db, t.user_id as string) : accounts.map((a) => a.account_id as string)
  }
}

/** The user for a global API key + email, with the accounts they are a member of. */
export const findKeyUser = (db: Database.Database, email: string, key: string) =>
  cached(db, `k ${email.toLowerCase()} ${key}`, () => lookKeyUser(db, email, key))

const lookKeyUser = (db: Database.Database, email: string, key: string) => {
  const u = stmt(db, "SELECT * FROM users WHERE email = ? COLLATE NOCASE AND api_key_hash = ?").get(
    email,
    sha256(key)
  ) as Row | undefined
  return u ? { userId: u.id as string, accountIds: memberAccountIds(db, u.id as string) } : undefined
}

export const memberAccountIds = (db: Database.Database, userId: string): ReadonlyArray<string> =>
  (
    stmt(db, "SELECT account_id FROM memberships WHERE user_id = ? AND status = 'accepted' ORDER BY account_id").all(
      userId
    ) as Array<Row>
  ).map((r) => r.account_id as string)

/** The platform leaves `expires_on` and `not_before` out when unset (never `null`). */
const verified = (
  id: string,
  status: string,
  expiresOn: string | null,
  notBefore: string | null
): TokenVerification => ({
  id,
  status,
  ...(expiresOn !== null ? { expires_on: expiresOn } : {}),
  ...(notBefore !== null ? { not_before: notBefore } : {})
})

/** `GET /user/tokens/verify` for the token with this id (the one that authenticated the call). */
export const verifyToken = (
  sql: SqlClient,
  tokenId: string
): Effect.Effect<TokenVerification | undefined, StoreError> =>
  sql<Row>`SELECT * FROM tokens WHERE id = ${tokenId}`.pipe(
    Effect.map(
      ([t]) =>
        t &&
        verified(
          t.id as string,
          t.status as string,
          (t.expires_on as string | null) ?? null,
          (t.not_before as string | null) ?? null
        )
    ),
    Effect.mapError(failing)
  )

const accountFromRow = (r: Row): Account => ({
  id: r.id as string,
  name: r.name as string,
  type: r.type as string,
  created_on: r.created_on as string,
  settings: json(r.settings, {})
})

export const listAccounts = (
  db: Database.Database,
  accountIds: ReadonlyArray<string>,
  q: { name?: string | undefined; direction?: "asc" | "desc" | undefined; page: number; perPage: number }
): Page<Account> => {
  const scope = inList("id", accountIds)
  const filter = q.name !== undefined ? " AND name LIKE ?" : ""
  const params = [...scope.params, ...(q.name !== undefined ? [`%${q.name}%`] : [])]
  const r = seekPage(db, {
    select: "*",
    from: "FROM accounts",
    where: { sql: `WHERE ${scope.sql}${filter}`, params },
    keys: [
      { expr: "name", desc: q.direction === "desc", column: "name" },
      { expr: "id", desc: false, column: "id" }
    ],
    page: q.page,
    perPage: q.perPage
  })
  return { items: r.rows.map(accountFromRow), info: pageInfo(q.page, q.perPage, r.total, r.rows.length) }
}

export const getAccount = (
  db: Database.Database,
  id: string,
  accountIds: ReadonlyArray<string>
): Account | undefined => {
  if (!accountIds.includes(id)) return undefined
  const r = stmt(db, "SELECT * FROM accounts WHERE id = ?").get(id) as Row | undefined
  return r ? accountFromRow(r) : undefined
}

export const listMemberships = (
  db: Database.Database,
  userId: string,
  accountIds: ReadonlyArray<string>,
  q: {
    status?: string | undefined
    accountName?: string | undefined
    direction?: "asc" | "desc" | undefined
    page: number
    perPage: number
  }
): Page<Membership> => {
  const scope = inList("m.account_id", accountIds)
  let sql = `FROM memberships m JOIN accounts a ON a.id = m.account_id WHERE m.user_id = ? AND ${scope.sql}`
  const params: Array<unknown> = [userId, ...scope.params]
  if (q.status !== undefined) {
    sql += " AND m.status = ?"
    params.push(q.status)
  }
  if (q.accountName !== undefined) {
    sql += " AND a.name LIKE ?"
    params.push(`%${q.accountName}%`)
  }
  const total = (stmt(db, `SELECT COUNT(*) AS n ${sql}`).get(...params) as { n: number }).n
  const rows = stmt(
    db,
    `SELECT m.*, a.name AS account_name ${sql} ORDER BY a.name ${q.direction === "desc" ? "DESC" : "ASC"}, m.id LIMIT ? OFFSET ?`
  ).all(...params, q.perPage, (q.page - 1) * q.perPage) as Array<Row>
  const items = rows.map((r): Membership => ({
    id: r.id as string,
    status: r.status as string,
    account: { id: r.account_id as string, name: r.account_name as string },
    roles: json(r.roles, [])
  }))
  return { items, info: pageInfo(q.page, q.perPage, total, items.length) }
}

const inviteFromRow = (r: Row): Invite => ({
  id: r.id as string,
  invited_member_id: (r.invited_member_id as string | null) ?? null,
  organization_id: r.account_id as string,
  organization_name: r.account_name as string,
  invited_by: r.invited_by as string,
  invited_member_email: r.invited_member_email as string,
  invited_on: r.invited_on as string,
  expires_on: r.expires_on as string,
  organization_is_enforcing_twofactor: r.account_type === "enterprise",
  roles: json(r.roles, []),
  status: r.status as string
})

const INVITE_SELECT =
  "SELECT i.*, a.name AS account_name, a.type AS account_type FROM invites i JOIN accounts a ON a.id = i.account_id"

export const listInvites = (sql: SqlClient, userId: string): Effect.Effect<ReadonlyArray<Invite>, StoreError> =>
  sql.unsafe<Row>(`${INVITE_SELECT} WHERE i.user_id = ? ORDER BY i.invited_on, i.id`, [userId]).pipe(
    Effect.map((rows) => rows.map(inviteFromRow)),
    Effect.mapError(failing)
  )

export const getInvite = (sql: SqlClient, userId: string, id: string): Effect.Effect<Invite | undefined, StoreError> =>
  sql.unsafe<Row>(`${INVITE_SELECT} WHERE i.user_id = ? AND i.id = ?`, [userId, id]).pipe(
    Effect.map(([r]) => (r ? inviteFromRow(r) : undefined)),
    Effect.mapError(failing)
  )

/**
 * Accepting makes the user a member of the inviting account; both writes are one of the client's
 * transactions. The store's handle is for its credential cache, which a membership changes.
 */
export const respondInvite = (
  store: { readonly db: Database.Database; readonly sql: SqlClient },
  userId: string,
  invite: Invite,
  status: "accepted" | "rejected"
): Effect.Effect<Invite, StoreError> => {
  const { db, sql } = store
  const writes = Effect.gen(function* () {
    yield* sql`UPDATE invites SET status = ${status} WHERE id = ${invite.id}`
    if (status === "accepted") {
      yield* sql`INSERT OR IGNORE INTO memberships (id, user_id, account_id, status, roles)
                 VALUES (${invite.id}, ${userId}, ${invite.organization_id}, 'accepted', ${JSON.stringify(invite.roles ?? [])})`
    }
  })
  return Effect.sync(() => forgetCredentials(db)).pipe(
    Effect.zipRight(sql.withTransaction(writes)),
    Effect.as({ ...invite, status }),
    Effect.mapError(failing)
  )
}
