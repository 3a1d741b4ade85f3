/**
 * `edgectl dns create|edit|delete`: the DNS writes, through the zones service's functions (the TUI's
 * DNS tab calls the same ones). `--dry-run` prints the exact request (src/domain/request-text.ts,
 * which the TUI's `v` shows too) and sends nothing; the platform checks a record whole and names the
 * field of a problem.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import type { DnsRecord } from "../../domain/dns.js"
import { requestsText, type PlannedRequest } from "../../domain/request-text.js"
import {
  createDnsRecord,
  deleteDnsRecord,
  dnsCreateRequest,
  dnsDeleteRequest,
  dnsUpdateRequest,
  resolveZone,
  updateDnsRecord,
  type DnsRecordBody
} from "../../services/zones-service.js"
import { quote } from "../hints.js"
import { integerOption, opt, target, triState } from "../options.js"
import { printJson, printLine, printTable } from "../output.js"
import { confirmOrRefuse } from "../prompt.js"
import { CliFailure, positional, run, targetOn, usage } from "../run.js"

const zoneArg = Args.text({ name: "zone" }).pipe(Args.withDescription("zone id or name"))
const idArg = Args.text({ name: "record-id" }).pipe(Args.withDescription("the record's id (dns list shows it)"))

const dryRun = Options.boolean("dry-run").pipe(Options.withDescription("print the exact request and send nothing"))
const yes = Options.boolean("yes").pipe(Options.withAlias("y"), Options.withDescription("do not ask for confirmation"))

const fields = {
  type: Options.text("type").pipe(
    Options.withPseudoName("TYPE"),
    Options.withDescription("record type: A, AAAA, CNAME, MX, TXT, …"),
    Options.optional
  ),
  name: Options.text("name").pipe(
    Options.withPseudoName("NAME"),
    Options.withDescription("record name: www, @ for the apex, or the full name"),
    Options.optional
  ),
  content: Options.text("content").pipe(
    Options.withPseudoName("CONTENT"),
    Options.withDescription("the address, host name or text"),
    Options.optional
  ),
  ttl: integerOption("ttl", 1, 86_400).pipe(
    Options.withDescription("seconds (60 to 86400), or 1 for automatic"),
    Options.optional
  ),
  proxied: triState("proxied", "proxy the record (A, AAAA and CNAME only); --proxied false to stop"),
  priority: integerOption("priority", 0, 65_535).pipe(
    Options.withDescription("MX, SRV and URI records"),
    Options.optional
  ),
  comment: Options.text("comment").pipe(
    Options.withPseudoName("TEXT"),
    Options.withDescription('a note on the record ("" removes it on edit)'),
    Options.optional
  )
}

/** What `fields` parse into. */
type FieldFlags = Command.Command.ParseConfig<typeof fields>

/** The fields given, as the platform's body (a create's type is upper-cased as the list shows it). */
const bodyOf = (o: FieldFlags, edit: boolean): DnsRecordBody => {
  const comment = opt(o.comment)
  const entries = Object.entries({
    type: opt(o.type)?.toUpperCase(),
    name: opt(o.name),
    content: opt(o.content),
    ttl: opt(o.ttl),
    proxied: opt(o.proxied),
    priority: opt(o.priority),
    comment: edit && comment === "" ? null : comment
  }).filter(([, v]) => v !== undefined)
  return Object.fromEntries(entries) as DnsRecordBody
}

/** A record id the zone does not have: the list shows the ids it has. */
const recordHint = (zone: string) => (e: { readonly _tag: string }, on: string) =>
  e._tag === "NotFound"
    ? `run \`edgectl dns list ${quote(zone)}${on}\` to see the zone's records and their ids`
    : undefined

const printDryRun = (json: boolean, r: PlannedRequest) => {
  if (json) return printJson({ dry_run: true, requests: [r] })
  printLine("Dry run: nothing was changed. It would send 1 request:")
  printLine("")
  for (const line of requestsText([r])) printLine(line)
}

const printRecord = (json: boolean, verb: string, r: DnsRecord) => {
  if (json) return printJson(r)
  printLine(`${verb} ${r.type} ${r.name}`)
  printTable(
    ["ID", "TYPE", "NAME", "CONTENT", "TTL", "PROXIED"],
    [[r.id, r.type, r.name, r.content, r.ttl === 1 ? "auto" : r.ttl, r.proxied]]
  )
}

const dnsCreate = Command.make("create", { ...target, zone: zoneArg, ...fields, dryRun }, (o) =>
  Effect.gen(function* () {
    const ref = yield* positional("<zone>", o.zone)
    const body = bodyOf(o, false)
    const missing = (["type", "name", "content"] as const).filter((k) => body[k] === undefined)
    if (missing.length > 0)
      return yield* Effect.fail(usage(`dns create: give ${missing.map((m) => `--${m}`).join(", ")}`))
    const zone = yield* run("dns create", o, resolveZone(ref))
    if (o.dryRun) return printDryRun(o.json, dnsCreateRequest(zone.id, body))
    printRecord(o.json, "Created", yield* run("dns create", o, createDnsRecord(zone.id, body)))
  })
).pipe(Command.withDescription("create a DNS record (the platform checks it whole; --dry-run sends nothing)"))

const dnsEdit = Command.make("edit", { ...target, zone: zoneArg, id: idArg, ...fields, dryRun }, (o) =>
  Effect.gen(function* () {
    const ref = yield* positional("<zone>", o.zone)
    const id = yield* positional("<record-id>", o.id)
    const body = bodyOf(o, true)
    if (Object.keys(body).length === 0)
      return yield* Effect.fail(
        usage("dns edit: give at least one of --type, --name, --content, --ttl, --proxied, --priority, --comment")
      )
    const zone = yield* run("dns edit", o, resolveZone(ref))
    if (o.dryRun) return printDryRun(o.json, dnsUpdateRequest(zone.id, id, body))
    printRecord(o.json, "Saved", yield* run("dns edit", o, updateDnsRecord(zone.id, id, body), recordHint(zone.name)))
  })
).pipe(
  Command.withDescription(
    "change a DNS record's fields (only those given; --dry-run prints the request and sends nothing)"
  )
)

const dnsDelete = Command.make("delete", { ...target, zone: zoneArg, id: idArg, yes, dryRun }, (o) =>
  Effect.gen(function* () {
    const ref = yield* positional("<zone>", o.zone)
    const id = yield* positional("<record-id>", o.id)
    const zone = yield* run("dns delete", o, resolveZone(ref))
    if (o.dryRun) return printDryRun(o.json, dnsDeleteRequest(zone.id, id))
    const go = yield* confirmOrRefuse(
      `Delete DNS record ${id} of zone ${zone.name}?`,
      { yes: o.yes },
      {
        what: "dns delete",
        doing: "deleting",
        hint: `edgectl dns delete ${quote(zone.name)} ${quote(id)} --yes${targetOn(o)}`
      }
    )
    if (!go)
      return yield* Effect.fail(
        new CliFailure({ text: "error: dns delete: cancelled; nothing was deleted", exitCode: 1 })
      )
    const gone = yield* run("dns delete", o, deleteDnsRecord(zone.id, id), recordHint(zone.name))
    if (o.json) return printJson({ deleted: gone.id })
    printLine(`Deleted DNS record ${gone.id} of zone ${zone.name}`)
  })
).pipe(Command.withDescription("delete a DNS record (asks first; --yes does not; --dry-run sends nothing)"))

export const dnsWrites = [dnsCreate, dnsEdit, dnsDelete] as const
