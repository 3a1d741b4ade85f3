import * as Schema from "effect/Schema"

export const DnsRecordTypes = [
  "A",
  "AAAA",
  "CAA",
  "CERT",
  "CNAME",
  "DNSKEY",
  "DS",
  "HTTPS",
  "LOC",
  "MX",
  "NAPTR",
  "NS",
  "OPENPGPKEY",
  "PTR",
  "SMIMEA",
  "SRV",
  "SSHFP",
  "SVCB",
  "TLSA",
  "TXT",
  "URI"
] as const
export const DnsRecord = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  name: Schema.String,
  content: Schema.optional(Schema.String),
  /** The structured form of SRV, CAA, LOC, … records (src/domain/dns-data.ts); it agrees with content. */
  data: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  priority: Schema.optional(Schema.Number),
  proxiable: Schema.optional(Schema.Boolean),
  proxied: Schema.optional(Schema.Boolean),
  ttl: Schema.optional(Schema.Number),
  settings: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  comment: Schema.optional(Schema.NullOr(Schema.String)),
  tags: Schema.optional(Schema.Array(Schema.String)),
  meta: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  created_on: Schema.optional(Schema.String),
  modified_on: Schema.optional(Schema.String)
})
export type DnsRecord = typeof DnsRecord.Type

/**
 * The fields of a record a create sends, or an edit changes (PATCH: only those named): the contract's
 * body, which the client encodes; the server reads the body itself (src/server/dns-records.ts) and
 * checks the record whole, naming the field of a problem.
 */
export const DnsRecordBody = Schema.Struct({
  type: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String),
  content: Schema.optional(Schema.String),
  ttl: Schema.optional(Schema.Number),
  proxied: Schema.optional(Schema.Boolean),
  priority: Schema.optional(Schema.Number),
  comment: Schema.optional(Schema.NullOr(Schema.String))
})
export type DnsRecordBody = typeof DnsRecordBody.Type

/** A record to create, checked (src/server/dns-records.ts): the columns the store writes. */
export interface NewDnsRecord {
  readonly type: string
  readonly name: string
  readonly content: string
  readonly priority: number | null
  readonly proxied: boolean
  readonly proxiable: boolean
  readonly ttl: number
  readonly comment: string | null
  readonly tags: ReadonlyArray<string>
}
