/** `edgectl zones list|get`, `edgectl dns list` (and dns-writes.ts: create, edit, delete), `edgectl certs list`, `edgectl accounts list`. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import type { Zone } from "../../domain/zone.js"
import { accountByRef, allAccounts } from "../../services/identity-service.js"
import {
  allCertificatePacks,
  allDnsRecords,
  allZones,
  eachDnsRecordsPage,
  eachZonesPage,
  resolveZone
} from "../../services/zones-service.js"
import { DnsRecordTypes } from "../../domain/dns.js"
import { dnsWrites } from "./dns-writes.js"
import { choiceOption, opt, target, triState } from "../options.js"
import { accountIdFromEnv } from "../../api/target.js"
import { jsonArrayPrinter, printJson, printTable } from "../output.js"
import { positional, run, usage } from "../run.js"

const zoneRows = (zones: ReadonlyArray<Zone>) =>
  zones.map((z) => [z.id, z.name, z.status, z.plan?.name, z.account.name ?? z.account.id])

const ZONE_STATUSES = ["initializing", "pending", "active", "moved"] as const

const zonesList = Command.make(
  "list",
  {
    ...target,
    accountId: Options.text("account-id").pipe(
      Options.withPseudoName("ACCOUNT"),
      Options.withDescription("only zones of this account, by id or name (default: CLOUDFLARE_ACCOUNT_ID)"),
      Options.optional
    ),
    name: Options.text("name").pipe(
      Options.withPseudoName("NAME"),
      Options.withDescription("zone name; operator prefixes like contains:shop work"),
      Options.optional
    ),
    status: choiceOption("status", ZONE_STATUSES).pipe(
      Options.withDescription("only zones in this status"),
      Options.optional
    )
  },
  (o) =>
    Effect.gen(function* () {
      const status = opt(o.status)
      const given = opt(o.accountId)
      // --account-id takes an id or a name, as `esc --account` does; one no account has is not
      // found, not an empty table. CLOUDFLARE_ACCOUNT_ID filters as it is (exported for --remote,
      // it names no local account); set empty, it is not set.
      const account =
        given === undefined ? Effect.succeed(accountIdFromEnv()) : Effect.map(accountByRef(given), (a) => a.id)
      const filter = (accountId: string | undefined) => ({ accountId, name: opt(o.name), status })
      if (o.json) {
        // Printed as the pages arrive: 100,000 zones are 138 MB of JSON, never held whole.
        const printer = jsonArrayPrinter()
        yield* run(
          "zones list",
          o,
          Effect.flatMap(account, (accountId) => eachZonesPage(filter(accountId), printer.page))
        )
        return printer.end()
      }
      const zones = yield* run(
        "zones list",
        o,
        Effect.flatMap(account, (accountId) => allZones(filter(accountId)))
      )
      printTable(["ID", "NAME", "STATUS", "PLAN", "ACCOUNT"], zoneRows(zones))
    })
).pipe(Command.withDescription("list the zones the credentials can see"))

const zoneArg = Args.text({ name: "zone" }).pipe(Args.withDescription("zone id or name"))

const zonesGet = Command.make("get", { ...target, zone: zoneArg }, (o) =>
  Effect.gen(function* () {
    const ref = yield* positional("<zone>", o.zone)
    if (ref.trim() === "") return yield* Effect.fail(usage("<zone> needs a zone id or name, got an empty string"))
    const z = yield* run("zones get", o, resolveZone(ref))
    if (o.json) return printJson(z)
    printTable(
      ["FIELD", "VALUE"],
      [
        ["id", z.id],
        ["name", z.name],
        ["status", z.status],
        ["paused", z.paused],
        ["type", z.type],
        ["plan", z.plan?.name],
        ["account", `${z.account.name ?? ""} (${z.account.id})`],
        ["name servers", z.name_servers?.join(", ")],
        ["created", z.created_on],
        ["activated", z.activated_on]
      ]
    )
  })
).pipe(Command.withDescription("show one zone, by id or name"))

export const zones = Command.make("zones").pipe(
  Command.withDescription("zones of the account(s)"),
  Command.withSubcommands([zonesList, zonesGet])
)

const dnsList = Command.make(
  "list",
  {
    ...target,
    zone: zoneArg,
    type: choiceOption("type", DnsRecordTypes, { ignoreCase: true }).pipe(
      Options.withDescription("only records of this type (any case)"),
      Options.optional
    ),
    name: Options.text("name").pipe(
      Options.withPseudoName("NAME"),
      Options.withDescription("records whose name contains this"),
      Options.optional
    ),
    content: Options.text("content").pipe(
      Options.withPseudoName("CONTENT"),
      Options.withDescription("records whose content contains this"),
      Options.optional
    ),
    proxied: triState("proxied", "only proxied records (--proxied false: only records that are not proxied)")
  },
  (o) =>
    Effect.gen(function* () {
      const ref = yield* positional("<zone>", o.zone)
      const filter = { type: opt(o.type), name: opt(o.name), content: opt(o.content), proxied: opt(o.proxied) }
      if (o.json) {
        // Printed as the pages arrive, as `zones list --json` is.
        const printer = jsonArrayPrinter()
        yield* run(
          "dns list",
          o,
          Effect.flatMap(resolveZone(ref), (z) => eachDnsRecordsPage(z.id, filter, printer.page))
        )
        return printer.end()
      }
      const records = yield* run(
        "dns list",
        o,
        Effect.flatMap(resolveZone(ref), (z) => allDnsRecords(z.id, filter))
      )
      printTable(
        ["ID", "TYPE", "NAME", "CONTENT", "TTL", "PROXIED"],
        records.map((r) => [
          r.id,
          r.type,
          r.name,
          r.priority !== undefined ? `${r.priority} ${r.content}` : r.content,
          r.ttl === 1 ? "auto" : r.ttl,
          r.proxied
        ])
      )
    })
).pipe(Command.withDescription("list a zone's DNS records"))

export const dns = Command.make("dns").pipe(
  Command.withDescription("DNS records"),
  Command.withSubcommands([dnsList, ...dnsWrites])
)

const certsList = Command.make("list", { ...target, zone: zoneArg }, (o) =>
  Effect.gen(function* () {
    const ref = yield* positional("<zone>", o.zone)
    const packs = yield* run(
      "certs list",
      o,
      Effect.flatMap(resolveZone(ref), (z) => allCertificatePacks(z.id))
    )
    if (o.json) return printJson(packs)
    printTable(
      ["ID", "TYPE", "STATUS", "HOSTS", "CA", "EXPIRES"],
      packs.map((p) => [
        p.id,
        p.type,
        p.status,
        p.hosts.join(","),
        p.certificate_authority,
        p.certificates.map((c) => c.expires_on?.slice(0, 10)).sort()[0]
      ])
    )
  })
).pipe(Command.withDescription("list a zone's certificate packs (all statuses)"))

export const certs = Command.make("certs").pipe(
  Command.withDescription("SSL/TLS certificate packs"),
  Command.withSubcommands([certsList])
)

const accountsList = Command.make("list", target, (o) =>
  Effect.gen(function* () {
    const accounts = yield* run("accounts list", o, allAccounts())
    if (o.json) return printJson(accounts)
    printTable(
      ["ID", "NAME", "TYPE"],
      accounts.map((a) => [a.id, a.name, a.type])
    )
  })
).pipe(Command.withDescription("list the accounts the credentials can see"))

export const accounts = Command.make("accounts").pipe(
  Command.withDescription("accounts"),
  Command.withSubcommands([accountsList])
)
