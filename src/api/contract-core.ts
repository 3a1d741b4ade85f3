/**
 * The core of the v4 contract: the platform's errors on the wire, authentication, and the
 * foundation's groups (zones, user, accounts). Each area's group is in its own contract-<area>.ts;
 * contract.ts assembles them all into `V4Api`. `platformApi` gives any set of groups the platform's
 * errors and base path: `edgectl serve` builds all of them, local mode one part at a time
 * (src/server/door/parts.ts), so a command never builds the routes it does not call.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Context from "effect/Context"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import type { ParseOptions } from "effect/SchemaAST"
import { Account, Membership, TokenVerification } from "../domain/account.js"
import { CertificatePack } from "../domain/certificate.js"
import { DnsRecord, DnsRecordBody, DnsRecordTypes } from "../domain/dns.js"
import { Envelope, FailureEnvelope, Paged } from "../domain/envelope.js"
import {
  ErrorTable,
  fromFailure,
  toFailureEnvelope,
  V4ErrorClasses,
  type V4Error,
  type V4ErrorTag
} from "../domain/errors.js"
import { Invite, InviteResponse } from "../domain/invite.js"
import { Zone } from "../domain/zone.js"
import { BoolParam, Direction, IntParam, Match, OneOf, TextParam } from "../domain/params.js"
import { lazily, lazyRecord } from "./contract-lazy.js"

/**
 * A tagged error on the wire: the failure envelope with the table's status. Built as the AST that
 * `Schema.transform(FailureEnvelope, Schema.declare(is, { identifier }), ...).annotations({ status })`
 * gives, node for node, under one schema class: the combinators create a class per step (five per
 * error), and twenty errors' classes were ~2 ms of every cold start.
 */
const wire = <T extends V4ErrorTag>(tag: T) => {
  const cls = V4ErrorClasses[tag]
  const status = ErrorTable[tag].status
  const check = () => (input: unknown, _: ParseOptions, self: AST.Declaration) =>
    input instanceof cls ? ParseResult.succeed(input) : ParseResult.fail(new ParseResult.Type(self, input))
  const error = new AST.Declaration([], check, check, { [AST.IdentifierAnnotationId]: tag })
  const transformation = new AST.FinalTransformation(
    (env) => ParseResult.succeed(fromFailure(status, (env as FailureEnvelope).errors)),
    (e) => ParseResult.succeed(toFailureEnvelope(e as V4Error))
  )
  return Schema.make<Extract<V4Error, { _tag: T }>, typeof FailureEnvelope.Encoded, never>(
    new AST.Transformation(FailureEnvelope.ast, error, transformation, HttpApiSchema.annotations({ status }))
  )
}

export const Wire = {
  MissingCredentials: wire("MissingCredentials"),
  MalformedCredentials: wire("MalformedCredentials"),
  InvalidCredentials: wire("InvalidCredentials"),
  Unauthorized: wire("Unauthorized"),
  NotFound: wire("NotFound"),
  NoRoute: wire("NoRoute"),
  InvalidInput: wire("InvalidInput"),
  Conflict: wire("Conflict"),
  QuotaExceeded: wire("QuotaExceeded"),
  DuplicateFilter: wire("DuplicateFilter"),
  InvalidExpression: wire("InvalidExpression"),
  Incompatible: wire("Incompatible"),
  MigrationFinished: wire("MigrationFinished"),
  ValidationModeNotAllowed: wire("ValidationModeNotAllowed"),
  TooManyRules: wire("TooManyRules"),
  ExpressionTooLong: wire("ExpressionTooLong"),
  UriOverridePresent: wire("UriOverridePresent"),
  Gone: wire("Gone"),
  MaintenanceMode: wire("MaintenanceMode"),
  TransactionRolledBack: wire("TransactionRolledBack"),
  RateLimited: wire("RateLimited"),
  ApiError: wire("ApiError")
}

/**
 * An endpoint answering `errors` too, each with its status (`.pipe(answers(Wire.NotFound))`): what
 * an endpoint declares is what its handler may fail with and what a caller may catch.
 */
export const answers =
  <const W extends ReadonlyArray<Schema.Schema.Any>>(...errors: W) =>
  <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(
    endpoint: E
  ): HttpApiEndpoint.HttpApiEndpoint.AddError<E, Schema.Schema.Type<W[number]>, Schema.Schema.Context<W[number]>> =>
    // Each addError gives the endpoint another type; the signature states the final one.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    errors.reduce<any>((e, w) => e.addError(w), endpoint)

/** An endpoint on an object its path names: the object may not exist, the input may be refused. */
export const onObject = answers(Wire.NotFound, Wire.InvalidInput)

/** Who is calling: the user behind the credential and the accounts it may see. */
export interface Principal {
  readonly kind: "token" | "key"
  readonly userId: string
  readonly tokenId: string | null
  readonly accountIds: ReadonlyArray<string>
  /** May use `/user/...` endpoints (user-level tokens and the global key; not account-scoped tokens). */
  readonly userScope: boolean
}
export const Principal = Context.GenericTag<Principal>("edgectl/Principal")

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  provides: Principal,
  failure: Schema.Union(Wire.MissingCredentials, Wire.MalformedCredentials, Wire.InvalidCredentials)
}) {}

const ZoneId = Schema.Struct({ zone_id: Schema.String })
const IdParam = Schema.Struct({ id: Schema.String })
const DnsRecordPath = Schema.Struct({ zone_id: Schema.String, dns_record_id: Schema.String })
const Page = IntParam("page", 1, 1_000_000)

export const ZonesListParams = lazily(() =>
  Schema.Struct({
    name: Schema.optional(TextParam("name", 253)),
    status: Schema.optional(OneOf("status", ["initializing", "pending", "active", "moved"])),
    "account.id": Schema.optional(TextParam("account.id", 32)),
    "account.name": Schema.optional(TextParam("account.name", 253)),
    type: Schema.optional(Schema.Union(Schema.String, Schema.Array(Schema.String))),
    match: Schema.optional(Match),
    order: Schema.optional(OneOf("order", ["name", "status", "account.id", "account.name", "plan.id"])),
    direction: Schema.optional(Direction),
    page: Schema.optional(Page),
    per_page: Schema.optional(IntParam("per_page", 5, 50))
  })
)
export type ZonesListParams = ReturnType<typeof ZonesListParams>["Type"]

const textFilters = <const P extends string>(prefix: P) =>
  ({
    [prefix]: Schema.optional(TextParam(prefix, 255)),
    [`${prefix}.exact`]: Schema.optional(TextParam(`${prefix}.exact`, 255)),
    [`${prefix}.contains`]: Schema.optional(TextParam(`${prefix}.contains`, 255)),
    [`${prefix}.startswith`]: Schema.optional(TextParam(`${prefix}.startswith`, 255)),
    [`${prefix}.endswith`]: Schema.optional(TextParam(`${prefix}.endswith`, 255))
  }) as unknown as Record<
    P | `${P}.${"exact" | "contains" | "startswith" | "endswith"}`,
    Schema.optional<ReturnType<typeof TextParam>>
  >

export const DnsListParams = lazily(() =>
  Schema.Struct({
    type: Schema.optional(OneOf("type", DnsRecordTypes)),
    ...textFilters("name"),
    ...textFilters("content"),
    proxied: Schema.optional(BoolParam("proxied")),
    match: Schema.optional(Match),
    order: Schema.optional(OneOf("order", ["type", "name", "content", "ttl", "proxied"])),
    direction: Schema.optional(Direction),
    page: Schema.optional(Page),
    per_page: Schema.optional(IntParam("per_page", 1, 5_000_000))
  })
)
export type DnsListParams = ReturnType<typeof DnsListParams>["Type"]

const CertificatePacksParams = lazily(() =>
  Schema.Struct({
    status: Schema.optional(OneOf("status", ["all"])),
    ssl_status: Schema.optional(OneOf("ssl_status", ["all"])),
    page: Schema.optional(Page),
    per_page: Schema.optional(IntParam("per_page", 5, 1000))
  })
)
type CertificatePacksParams = ReturnType<typeof CertificatePacksParams>["Type"]

export const AccountsParams = lazily(() =>
  Schema.Struct({
    name: Schema.optional(TextParam("name", 253)),
    direction: Schema.optional(Direction),
    page: Schema.optional(Page),
    per_page: Schema.optional(IntParam("per_page", 5, 50))
  })
)
export type AccountsParams = ReturnType<typeof AccountsParams>["Type"]

const MembershipsParams = lazily(() =>
  Schema.Struct({
    status: Schema.optional(OneOf("status", ["accepted", "pending", "rejected"])),
    "account.name": Schema.optional(TextParam("account.name", 253)),
    direction: Schema.optional(Direction),
    page: Schema.optional(Page),
    per_page: Schema.optional(IntParam("per_page", 5, 50))
  })
)
type MembershipsParams = ReturnType<typeof MembershipsParams>["Type"]

/*
 * The core's endpoints, by name, with the errors each answers beyond `PlatformErrors` (which every
 * endpoint can answer), declared once per group below and joined in `Endpoints`, which the client
 * calls. An endpoint with any input answers InvalidInput (a parameter or body refused); one naming
 * an object in its path answers NotFound.
 */

/** The zones group's endpoints: zones, DNS records, certificate packs. */
const zonesEndpoints = {
  listZones: () =>
    HttpApiEndpoint.get("list", "/zones")
      .setUrlParams(ZonesListParams())
      .addSuccess(Paged(Zone))
      .addError(Wire.InvalidInput),
  getZone: () =>
    HttpApiEndpoint.get("get", "/zones/:zone_id")
      .setPath(ZoneId)
      .addSuccess(Envelope(Zone))
      .addError(Wire.NotFound)
      .addError(Wire.InvalidInput),
  listDnsRecords: () =>
    HttpApiEndpoint.get("dnsRecords", "/zones/:zone_id/dns_records")
      .setPath(ZoneId)
      .setUrlParams(DnsListParams())
      .addSuccess(Paged(DnsRecord))
      .addError(Wire.NotFound)
      .addError(Wire.InvalidInput),
  /** The server reads the body itself (src/server/dns-records.ts) so that a problem names its field. */
  createDnsRecord: () =>
    HttpApiEndpoint.post("createDnsRecord", "/zones/:zone_id/dns_records")
      .setPath(ZoneId)
      .setPayload(DnsRecordBody)
      .addSuccess(Envelope(DnsRecord))
      .addError(Wire.NotFound)
      .addError(Wire.InvalidInput),
  /** A partial body: the fields it names replace the record's, and the whole record is checked again. */
  updateDnsRecord: () =>
    HttpApiEndpoint.patch("updateDnsRecord", "/zones/:zone_id/dns_records/:dns_record_id")
      .setPath(DnsRecordPath)
      .setPayload(DnsRecordBody)
      .addSuccess(Envelope(DnsRecord))
      .addError(Wire.NotFound)
      .addError(Wire.InvalidInput),
  deleteDnsRecord: () =>
    HttpApiEndpoint.del("deleteDnsRecord", "/zones/:zone_id/dns_records/:dns_record_id")
      .setPath(DnsRecordPath)
      .addSuccess(Envelope(Schema.Struct({ id: Schema.String })))
      .addError(Wire.NotFound)
      .addError(Wire.InvalidInput),
  listCertificatePacks: () =>
    HttpApiEndpoint.get("certificatePacks", "/zones/:zone_id/ssl/certificate_packs")
      .setPath(ZoneId)
      .setUrlParams(CertificatePacksParams())
      .addSuccess(Paged(CertificatePack))
      .addError(Wire.NotFound)
      .addError(Wire.InvalidInput)
}

/** The user group's endpoints: invites and the token's verification. */
const userEndpoints = {
  listInvites: () => HttpApiEndpoint.get("invites", "/user/invites").addSuccess(Envelope(Schema.Array(Invite))),
  getInvite: () =>
    HttpApiEndpoint.get("invite", "/user/invites/:id")
      .setPath(IdParam)
      .addSuccess(Envelope(Invite))
      .addError(Wire.NotFound)
      .addError(Wire.InvalidInput),
  respondInvite: () =>
    HttpApiEndpoint.patch("respondInvite", "/user/invites/:id")
      .setPath(IdParam)
      .setPayload(InviteResponse)
      .addSuccess(Envelope(Invite))
      .addError(Wire.NotFound)
      .addError(Wire.InvalidInput),
  verifyToken: () => HttpApiEndpoint.get("verifyToken", "/user/tokens/verify").addSuccess(Envelope(TokenVerification))
}

/** The accounts group's endpoints. */
const accountsEndpoints = {
  listAccounts: () =>
    HttpApiEndpoint.get("list", "/accounts")
      .setUrlParams(AccountsParams())
      .addSuccess(Paged(Account))
      .addError(Wire.InvalidInput),
  getAccount: () =>
    HttpApiEndpoint.get("get", "/accounts/:account_id")
      .setPath(Schema.Struct({ account_id: Schema.String }))
      .addSuccess(Envelope(Account))
      .addError(Wire.NotFound)
      .addError(Wire.InvalidInput),
  listMemberships: () =>
    HttpApiEndpoint.get("memberships", "/memberships")
      .setUrlParams(MembershipsParams())
      .addSuccess(Paged(Membership))
      .addError(Wire.InvalidInput)
}

/** Every endpoint of the core, by name: what the client calls (`call(Endpoints.getZone, …)`). */
export const Endpoints = lazyRecord({ ...zonesEndpoints, ...userEndpoints, ...accountsEndpoints })

/**
 * A group of every endpoint of an area's record (`lazyRecord`), in the record's order: an endpoint
 * is named once, where it is declared. Building the group builds every endpoint of the record.
 */
export const groupOf = <const Id extends string, Endpoints extends Record<string, HttpApiEndpoint.HttpApiEndpoint.Any>>(
  id: Id,
  endpoints: Endpoints
): HttpApiGroup.HttpApiGroup<Id, Endpoints[keyof Endpoints], never> => {
  // `add` one at a time grows the group's type by one endpoint each; over a list it cannot be
  // followed, so the group's type is said once here: every endpoint of the record.
  let group: HttpApiGroup.HttpApiGroup<Id, HttpApiEndpoint.HttpApiEndpoint.Any, never> = HttpApiGroup.make(id)
  for (const endpoint of Object.values(endpoints)) group = group.add(endpoint)
  return group as HttpApiGroup.HttpApiGroup<Id, Endpoints[keyof Endpoints], never>
}

/** The endpoints of one group of `Endpoints` (each built once, by the record). */
const part = <T extends Record<string, () => unknown>>(endpoints: T): { readonly [K in keyof T]: ReturnType<T[K]> } =>
  Object.fromEntries(Object.keys(endpoints).map((k) => [k, Endpoints[k as keyof typeof Endpoints]])) as {
    readonly [K in keyof T]: ReturnType<T[K]>
  }

export const ZonesGroup = lazily(
  () => class ZonesGroup extends groupOf("zones", part(zonesEndpoints)).middleware(Authentication) {}
)

export const UserGroup = lazily(
  () => class UserGroup extends groupOf("user", part(userEndpoints)).middleware(Authentication) {}
)

export const AccountsGroup = lazily(
  () => class AccountsGroup extends groupOf("accounts", part(accountsEndpoints)).middleware(Authentication) {}
)

/** The base path of the v4 API on the embedded server, as on the real platform. */
export const BasePath = "/client/v4"

/**
 * `api` with the errors every endpoint can answer (`PlatformErrors`: credentials refused, no such
 * route, too many requests, anything else) and its base path. Each endpoint declares the rest.
 * InvalidInput is here too, for the server alone: the error middleware answers a body it cannot
 * read (too deep, no multipart boundary) on any route; the client's types leave it to the
 * endpoints that take input.
 */
export const platformApi = <Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<"v4", Groups, E, R>
) =>
  api
    .addError(Wire.MissingCredentials)
    .addError(Wire.MalformedCredentials)
    .addError(Wire.InvalidCredentials)
    .addError(Wire.Unauthorized)
    .addError(Wire.NoRoute)
    .addError(Wire.RateLimited)
    .addError(Wire.ApiError)
    .addError(Wire.InvalidInput)
    .prefix(BasePath)

/** The foundation's part of the API: zones, DNS records, certificate packs, the user, accounts. */
export const CoreApi = lazily(
  () => class CoreApi extends platformApi(HttpApi.make("v4").add(ZonesGroup()).add(UserGroup()).add(AccountsGroup())) {}
)
