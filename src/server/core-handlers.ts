/** Handlers of the foundation's endpoints (zones, DNS, certificates, accounts, user). */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { CoreApi, type DnsListParams, Principal } from "../api/contract-core.js"
import { InvalidInput, NotFound, Unauthorized } from "../domain/errors.js"
import { Db } from "../store/db.js"
import * as Identity from "../store/identity-repo.js"
import { isoMicros } from "../domain/timestamps.js"
import * as Zones from "../store/zones-repo.js"
import { PlatformClock } from "./clock.js"
import { checkDnsRecordPatch, checkNewDnsRecord } from "./dns-records.js"
import { nodeCrypto } from "../lazy-builtins.js"
import { requestPayload } from "./body-guard.js"

export const noRoute = (path: string) =>
  new NotFound({ message: `Could not route to ${path}, perhaps your object identifier is invalid?` })

/** The zone named in the path, if the caller may see it. */
export const visibleZone = (zoneId: string, suffix = "") =>
  Effect.gen(function* () {
    const { db } = yield* Db
    const principal = yield* Principal
    const zone = Zones.getZone(db, zoneId, principal.accountIds)
    if (!zone) return yield* Effect.fail(noRoute(`/zones/${zoneId}${suffix}`))
    return zone
  })

const userScoped = Effect.flatMap(Principal, (p) =>
  p.userScope
    ? Effect.succeed(p)
    : Effect.fail(
        new Unauthorized({ message: "Authentication error: an account-scoped token cannot use user endpoints" })
      )
)

const typesOf = (t: string | ReadonlyArray<string> | undefined) =>
  t === undefined
    ? undefined
    : (typeof t === "string" ? t.split(",") : t).map((s) => s.trim()).filter((s) => s.length > 0)

const ZONE_TYPES = ["full", "partial", "secondary", "internal"]

/** The store's query for a DNS list's parameters (the route table, door/route-table.ts, asks it too). */
export const dnsQuery = (zoneId: string, q: DnsListParams): Zones.DnsQuery => ({
  zoneId,
  type: q.type,
  name: {
    exact: q["name.exact"] ?? q.name,
    contains: q["name.contains"],
    startswith: q["name.startswith"],
    endswith: q["name.endswith"]
  },
  content: {
    exact: q["content.exact"] ?? q.content,
    contains: q["content.contains"],
    startswith: q["content.startswith"],
    endswith: q["content.endswith"]
  },
  proxied: q.proxied,
  match: q.match,
  order: q.order,
  direction: q.direction,
  page: q.page ?? 1,
  perPage: q.per_page ?? 100
})

export const ZonesLive = HttpApiBuilder.group(CoreApi(), "zones", (handlers) =>
  handlers
    .handle("list", ({ urlParams: q }) =>
      Effect.gen(function* () {
        const { db } = yield* Db
        const principal = yield* Principal
        const types = typesOf(q.type)
        const bad = types?.find((t) => !ZONE_TYPES.includes(t))
        if (bad !== undefined) {
          return yield* Effect.fail(
            new InvalidInput({ message: `type must be one of ${ZONE_TYPES.join(", ")}, got ${JSON.stringify(bad)}` })
          )
        }
        return Zones.listZones(db, {
          accountIds: principal.accountIds,
          name: q.name,
          status: q.status,
          accountId: q["account.id"],
          accountName: q["account.name"],
          types,
          match: q.match,
          order: q.order,
          direction: q.direction,
          page: q.page ?? 1,
          perPage: q.per_page ?? 20
        })
      })
    )
    .handle("get", ({ path }) => visibleZone(path.zone_id))
    .handle("dnsRecords", ({ path, urlParams: q }) =>
      Effect.gen(function* () {
        yield* visibleZone(path.zone_id, "/dns_records")
        const { db } = yield* Db
        return Zones.listDnsRecords(db, dnsQuery(path.zone_id, q))
      })
    )
    .handleRaw("createDnsRecord", ({ path, request }) =>
      Effect.gen(function* () {
        const payload = yield* requestPayload(request)
        const zone = yield* visibleZone(path.zone_id, "/dns_records")
        const record = yield* checkNewDnsRecord(payload, zone.name)
        const { sql } = yield* Db
        const now = (yield* PlatformClock).now().getTime()
        const id = nodeCrypto().randomBytes(16).toString("hex")
        return yield* Effect.orDie(Zones.insertDnsRecord(sql, zone.id, id, record, isoMicros(now)))
      })
    )
    .handleRaw("updateDnsRecord", ({ path, request }) =>
      Effect.gen(function* () {
        const payload = yield* requestPayload(request)
        const where = `/dns_records/${path.dns_record_id}`
        const zone = yield* visibleZone(path.zone_id, where)
        const { sql } = yield* Db
        const current = yield* Effect.orDie(Zones.getDnsRecord(sql, zone.id, path.dns_record_id))
        if (current === undefined) return yield* Effect.fail(noRoute(`/zones/${zone.id}${where}`))
        const record = yield* checkDnsRecordPatch(payload, current, zone.name)
        const now = (yield* PlatformClock).now().getTime()
        const written = yield* Effect.orDie(Zones.updateDnsRecord(sql, zone.id, current.id, record, isoMicros(now)))
        if (written === undefined) return yield* Effect.fail(noRoute(`/zones/${zone.id}${where}`))
        return written
      })
    )
    .handle("deleteDnsRecord", ({ path }) =>
      Effect.gen(function* () {
        const where = `/dns_records/${path.dns_record_id}`
        const zone = yield* visibleZone(path.zone_id, where)
        const { sql } = yield* Db
        if (!(yield* Effect.orDie(Zones.deleteDnsRecord(sql, zone.id, path.dns_record_id))))
          return yield* Effect.fail(noRoute(`/zones/${zone.id}${where}`))
        return { id: path.dns_record_id }
      })
    )
    .handle("certificatePacks", ({ path, urlParams: q }) =>
      Effect.gen(function* () {
        yield* visibleZone(path.zone_id, "/ssl/certificate_packs")
        const { db, sql } = yield* Db
        const all = q.status === "all" || q.ssl_status === "all"
        return yield* Effect.orDie(
          Zones.listCertificatePacks(db, sql, path.zone_id, all, q.page ?? 1, q.per_page ?? 20)
        )
      })
    )
)

export const UserLive = HttpApiBuilder.group(CoreApi(), "user", (handlers) =>
  handlers
    .handle("invites", () =>
      Effect.gen(function* () {
        const p = yield* userScoped
        const { sql } = yield* Db
        return yield* Effect.orDie(Identity.listInvites(sql, p.userId))
      })
    )
    .handle("invite", ({ path }) =>
      Effect.gen(function* () {
        const p = yield* userScoped
        const { sql } = yield* Db
        const invite = yield* Effect.orDie(Identity.getInvite(sql, p.userId, path.id))
        if (!invite) return yield* Effect.fail(noRoute(`/user/invites/${path.id}`))
        return invite
      })
    )
    .handle("respondInvite", ({ path, payload }) =>
      Effect.gen(function* () {
        const p = yield* userScoped
        const store = yield* Db
        const invite = yield* Effect.orDie(Identity.getInvite(store.sql, p.userId, path.id))
        if (!invite) return yield* Effect.fail(noRoute(`/user/invites/${path.id}`))
        if (invite.status !== "pending") {
          return yield* Effect.fail(
            new InvalidInput({
              message: `status: the invite is already ${invite.status}; only a pending invite can be accepted or rejected`
            })
          )
        }
        return yield* Effect.orDie(Identity.respondInvite(store, p.userId, invite, payload.status))
      })
    )
    .handle("verifyToken", () =>
      Effect.gen(function* () {
        const p = yield* Principal
        const { sql } = yield* Db
        if (p.kind !== "token" || p.tokenId === null) {
          return yield* Effect.fail(
            new Unauthorized({ message: "Authentication error: token verification needs an API token" })
          )
        }
        const verified = yield* Effect.orDie(Identity.verifyToken(sql, p.tokenId))
        if (!verified) return yield* Effect.fail(new Unauthorized({ message: "Invalid API Token" }))
        return verified
      })
    )
)

export const AccountsLive = HttpApiBuilder.group(CoreApi(), "accounts", (handlers) =>
  handlers
    .handle("list", ({ urlParams: q }) =>
      Effect.gen(function* () {
        const p = yield* Principal
        const { db } = yield* Db
        return Identity.listAccounts(db, p.accountIds, {
          name: q.name,
          direction: q.direction,
          page: q.page ?? 1,
          perPage: q.per_page ?? 20
        })
      })
    )
    .handle("get", ({ path }) =>
      Effect.gen(function* () {
        const p = yield* Principal
        const { db } = yield* Db
        const a = Identity.getAccount(db, path.account_id, p.accountIds)
        if (!a) return yield* Effect.fail(noRoute(`/accounts/${path.account_id}`))
        return a
      })
    )
    .handle("memberships", ({ urlParams: q }) =>
      Effect.gen(function* () {
        const p = yield* userScoped
        const { db } = yield* Db
        return Identity.listMemberships(db, p.userId, Identity.memberAccountIds(db, p.userId), {
          status: q.status,
          accountName: q["account.name"],
          direction: q.direction,
          page: q.page ?? 1,
          perPage: q.per_page ?? 20
        })
      })
    )
)
