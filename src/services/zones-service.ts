/** Zones, DNS records and certificate packs: the operations users run, over the v4 client. */
import * as Effect from "effect/Effect"
import { call, callPage, type ClientEnv } from "../api/client.js"
import { collectPages, eachPage } from "../api/pages.js"
import { Endpoints, type DnsListParams, type ZonesListParams } from "../api/contract-core.js"
import { NotFound, type InvalidInput, type PlatformError } from "../domain/errors.js"
import type { PlannedRequest } from "../domain/request-text.js"
import type { DnsRecord } from "../domain/dns.js"
import type { Zone } from "../domain/zone.js"
import type { DnsRecordBody } from "../domain/dns.js"

export interface ZoneFilter {
  readonly accountId?: string | undefined
  readonly name?: string | undefined
  readonly status?: ZonesListParams["status"] | undefined
}

const zoneQuery = (f: ZoneFilter) => ({ "account.id": f.accountId, name: f.name, status: f.status })

export const listZonesPage = (f: ZoneFilter & { page?: number; perPage?: number }) =>
  call(Endpoints.listZones, { urlParams: { ...zoneQuery(f), page: f.page, per_page: f.perPage } })

/** Page `page` of the zones matching the filter, 50 a page (the platform's most). */
const zonesPage = (f: ZoneFilter) => (page: number) =>
  callPage(Endpoints.listZones, { urlParams: { ...zoneQuery(f), page, per_page: 50 } })

/** Every zone matching the filter, read 50 at a time. */
export const allZones = (f: ZoneFilter) => collectPages(zonesPage(f))

/** The zones matching the filter, each page handed to `onPage` as it is read (see `eachPage`). */
export const eachZonesPage = (f: ZoneFilter, onPage: (zones: ReadonlyArray<Zone>) => boolean | void) =>
  eachPage(zonesPage(f), onPage)

const ZONE_ID = /^[0-9a-f]{32}$/

/** A zone by id or by name. */
export const resolveZone = (ref: string): Effect.Effect<Zone, NotFound | InvalidInput | PlatformError, ClientEnv> =>
  ZONE_ID.test(ref)
    ? call(Endpoints.getZone, { path: { zone_id: ref } })
    : Effect.flatMap(call(Endpoints.listZones, { urlParams: { name: ref.toLowerCase(), per_page: 5 } }), (page) =>
        page.items[0]
          ? Effect.succeed(page.items[0])
          : Effect.fail(
              new NotFound({
                message: `no zone named ${ref.trim() === "" || /\s/.test(ref) ? JSON.stringify(ref) : ref} is visible to these credentials`,
                // edgectl's reading of an empty list, not a code the platform sent.
                clientSide: true
              })
            )
      )

export interface DnsFilter {
  readonly type?: DnsListParams["type"] | undefined
  readonly name?: string | undefined
  readonly content?: string | undefined
  readonly proxied?: boolean | undefined
}

const dnsQuery = (f: DnsFilter) => ({
  type: f.type,
  "name.contains": f.name,
  "content.contains": f.content,
  proxied: f.proxied
})

export const listDnsPage = (zoneId: string, f: DnsFilter & { page?: number; perPage?: number }) =>
  call(Endpoints.listDnsRecords, {
    path: { zone_id: zoneId },
    urlParams: { ...dnsQuery(f), page: f.page, per_page: f.perPage }
  })

const dnsPage = (zoneId: string, f: DnsFilter) => (page: number) =>
  callPage(Endpoints.listDnsRecords, { path: { zone_id: zoneId }, urlParams: { ...dnsQuery(f), page, per_page: 500 } })

export const allDnsRecords = (zoneId: string, f: DnsFilter = {}) => collectPages(dnsPage(zoneId, f))

/** A zone's records matching the filter, each page handed to `onPage` as it is read (see `eachPage`). */
export const eachDnsRecordsPage = (
  zoneId: string,
  f: DnsFilter,
  onPage: (records: ReadonlyArray<DnsRecord>) => boolean | void
) => eachPage(dnsPage(zoneId, f), onPage)

export const allCertificatePacks = (zoneId: string) =>
  collectPages((page) =>
    call(Endpoints.listCertificatePacks, {
      path: { zone_id: zoneId },
      urlParams: { status: "all", page, per_page: 50 }
    })
  )

export type { DnsRecordBody }

// Each part encoded as the client encodes path parameters (src/api/client.ts).
const dnsPath = (zoneId: string, id?: string) =>
  `/zones/${encodeURIComponent(zoneId)}/dns_records${id === undefined ? "" : `/${encodeURIComponent(id)}`}`

/** The requests the DNS writes below send, as the CLI's `--dry-run` and the TUI's `v` show them. */
export const dnsCreateRequest = (zoneId: string, body: DnsRecordBody): PlannedRequest => ({
  method: "POST",
  path: dnsPath(zoneId),
  body
})
export const dnsUpdateRequest = (zoneId: string, id: string, body: DnsRecordBody): PlannedRequest => ({
  method: "PATCH",
  path: dnsPath(zoneId, id),
  body
})
export const dnsDeleteRequest = (zoneId: string, id: string): PlannedRequest => ({
  method: "DELETE",
  path: dnsPath(zoneId, id)
})

export const createDnsRecord = (zoneId: string, body: DnsRecordBody) =>
  call(Endpoints.createDnsRecord, { path: { zone_id: zoneId }, payload: body })

export const updateDnsRecord = (zoneId: string, id: string, body: DnsRecordBody) =>
  call(Endpoints.updateDnsRecord, { path: { zone_id: zoneId, dns_record_id: id }, payload: body })

export const deleteDnsRecord = (zoneId: string, id: string) =>
  call(Endpoints.deleteDnsRecord, { path: { zone_id: zoneId, dns_record_id: id } })
