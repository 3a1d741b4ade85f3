/**
 * `edgectl esc get|disable|enable|test|replacements`: the ESC disable settings of a zone or an
 * account (area B). Secrets are never printed in full (`ab…yz` and their length); every command
 * says whether ESC is still honoured on the platform's clock or already removed (2025-01-01).
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import type { V4Error } from "../../domain/errors.js"
import type { EscSetting } from "../../domain/esc.js"
import { deciderLabel } from "../../esc/decide.js"
import { describeSecret } from "../../esc/mask.js"
import type { RemovalStatus } from "../../esc/removal.js"
import { exampleText, Replacements, RequestPhases, ResponsePhases } from "../../esc/replacements.js"
import { DeciderName, settingSentence, settingShort, settingView } from "../../esc/view.js"
import {
  disableAlways,
  enableEsc,
  getEsc,
  resolveTarget,
  setSecret,
  testRequest,
  zoneTarget,
  type EscStatus,
  type EscTarget
} from "../../services/esc-service.js"
import { choiceOption, json, opt, target, zoneOption } from "../options.js"
import { printFields, printJson, printLine, printTable } from "../output.js"
import { run, usage } from "../run.js"
import { readSecret } from "../secret-input.js"

const scopeOptions = {
  zone: zoneOption().pipe(Options.optional),
  account: Options.text("account").pipe(
    Options.withPseudoName("ACCOUNT"),
    Options.withDescription("the account, by id or name"),
    Options.optional
  )
}

/** Exactly one of --zone / --account, resolved to a target. */
const scopeOf = (o: Command.Command.ParseConfig<typeof scopeOptions>) => {
  const zone = opt(o.zone)
  const account = opt(o.account)
  if ((zone === undefined) === (account === undefined)) {
    return Effect.fail(
      usage(
        zone === undefined
          ? "give the zone (--zone Z) or the account (--account A)"
          : "give --zone or --account, not both"
      )
    )
  }
  for (const [flag, v] of [
    ["--zone", zone],
    ["--account", account]
  ] as const) {
    if (v !== undefined && v.trim() === "") return Effect.fail(usage(`${flag} needs a value, got an empty string`))
  }
  return Effect.succeed(resolveTarget(zone !== undefined ? { zone } : { account: account! }))
}

/** An unknown account or zone gets the default hint (src/cli/hints.ts: the list, on the same target). */
const hint = (e: V4Error): string | undefined =>
  e._tag === "InvalidInput" && /secret/.test(e.message)
    ? 'a secret is 1 to 100 characters: printable ASCII without space, ", comma, ; or \\'
    : undefined

const targetLabel = (t: EscTarget) => (t.kind === "zone" ? `zone ${t.name}` : `account ${t.name}`)
const targetJson = (t: EscTarget) =>
  t.kind === "zone"
    ? { kind: t.kind, id: t.id, name: t.name, account: t.account }
    : { kind: t.kind, id: t.id, name: t.name }

const removalLine = (r: RemovalStatus) => {
  const when = `${r.relative} (${r.days} day${r.days === 1 ? "" : "s"}) on the platform's clock (${r.now.slice(0, 10)})`
  return r.removed
    ? `REMOVED on ${r.date}, ${when}: no ESC runs any more; the settings can still be managed and tested`
    : `still honoured: ESC configuration is removed on ${r.date}, ${when}`
}

const statusFields = (s: EscStatus): Array<readonly [string, string]> => [
  [
    "scope",
    s.target.kind === "zone"
      ? `zone ${s.target.name} (${s.target.id}), account ${s.target.account.name}`
      : `account ${s.target.name} (${s.target.id})`
  ],
  ["state", settingView(s.setting).state],
  ["always", s.setting.always ? "yes" : "no"],
  ["secret", s.setting.with_secret === null ? "none" : describeSecret(s.setting.with_secret)],
  ["effect", settingSentence(s.setting, s.removal.removed)],
  ["removal", removalLine(s.removal)]
]

const statusJson = (s: EscStatus, extra: Record<string, unknown> = {}) => ({
  target: targetJson(s.target),
  ...settingView(s.setting),
  effect: settingSentence(s.setting, s.removal.removed),
  ...extra,
  removal: s.removal
})

const show = (s: EscStatus, asJson: boolean, headline?: string, extra: Record<string, unknown> = {}) => {
  if (asJson) return printJson(statusJson(s, extra))
  if (headline !== undefined) printLine(headline)
  printFields(statusFields(s))
}

const get = Command.make("get", { ...target, ...scopeOptions }, (o) =>
  Effect.gen(function* () {
    const resolve = yield* scopeOf(o)
    const status = yield* run("esc get", o, Effect.flatMap(resolve, getEsc), hint)
    show(status, o.json)
  })
).pipe(Command.withDescription("show the ESC disable setting of a zone or an account"))

const disable = Command.make(
  "disable",
  {
    ...target,
    ...scopeOptions,
    always: Options.boolean("always").pipe(
      Options.withDescription("turn ESC off for every request (of every zone of the account)")
    ),
    secret: Options.text("secret").pipe(
      Options.withPseudoName("SECRET"),
      Options.withDescription("store a secret: requests with the cookie disable_esc=<secret> skip ESC"),
      Options.optional
    ),
    secretStdin: Options.boolean("secret-stdin").pipe(
      Options.withDescription("read the secret from standard input (keeps it out of shell history)")
    )
  },
  (o) =>
    Effect.gen(function* () {
      const resolve = yield* scopeOf(o)
      const secretFlag = opt(o.secret)
      const chosen = [o.always, secretFlag !== undefined, o.secretStdin].filter(Boolean).length
      if (chosen !== 1) {
        return yield* Effect.fail(
          usage(
            chosen === 0
              ? "say how to disable ESC: --always, --secret S or --secret-stdin"
              : "give one of --always, --secret and --secret-stdin, not several"
          )
        )
      }
      const secret = o.secretStdin ? yield* readSecret("secret (input hidden): ") : secretFlag
      const status = yield* run(
        "esc disable",
        o,
        Effect.flatMap(resolve, (t) => (secret === undefined ? disableAlways(t) : setSecret(t, secret))),
        hint
      )
      const headline =
        secret === undefined
          ? `ESC is now off for every request of ${status.target.kind === "zone" ? `zone ${status.target.name}` : `every zone of account ${status.target.name}`}.`
          : `Stored the secret ${describeSecret(secret)} for ${targetLabel(status.target)}: requests carrying the cookie disable_esc=<secret> skip ESC.`
      show(status, o.json, headline)
    })
).pipe(
  Command.withDescription(
    "turn ESC off for a zone or account (--always), or store a test secret (--secret, --secret-stdin)"
  )
)

const cleared = (before: EscSetting, after: EscSetting) =>
  [
    before.always && !after.always ? "always" : "",
    before.with_secret !== null && after.with_secret === null ? `the secret ${describeSecret(before.with_secret)}` : ""
  ].filter((x) => x !== "")

const enable = Command.make(
  "enable",
  {
    ...target,
    ...scopeOptions,
    only: choiceOption("only", ["always", "secret"]).pipe(
      Options.withDescription(
        "undo only `always` (the secret stays) or only the secret (`always` stays); by default both are cleared"
      ),
      Options.optional
    )
  },
  (o) =>
    Effect.gen(function* () {
      const resolve = yield* scopeOf(o)
      const r = yield* run(
        "esc enable",
        o,
        Effect.flatMap(resolve, (t) => enableEsc(t, opt(o.only))),
        hint
      )
      const gone = cleared(r.before, r.status.setting)
      const headline =
        gone.length === 0
          ? `Nothing to change: ${targetLabel(r.status.target)} had ${opt(o.only) === undefined ? "nothing set" : `no ${opt(o.only)} set`}.`
          : `Cleared ${gone.join(" and ")} for ${targetLabel(r.status.target)}. ${settingSentence(r.status.setting, r.status.removal.removed)}.`
      show(r.status, o.json, headline, { before: settingView(r.before), cleared: gone.length > 0 })
    })
).pipe(Command.withDescription("turn ESC on again for a zone or account (clears always and the secret)"))

const test = Command.make(
  "test",
  {
    ...target,
    zone: zoneOption("the zone the request goes to, by id or name"),
    cookie: Options.text("cookie").pipe(
      Options.withPseudoName("COOKIE"),
      Options.withDescription('the request\'s Cookie header, e.g. "disable_esc=SECRET; session=abc"'),
      Options.optional
    )
  },
  (o) =>
    Effect.gen(function* () {
      if (o.zone.trim() === "") return yield* Effect.fail(usage("--zone needs a value, got an empty string"))
      const r = yield* run(
        "esc test",
        o,
        Effect.flatMap(zoneTarget(o.zone), (z) => testRequest(z, opt(o.cookie))),
        hint
      )
      const d = r.decision
      if (o.json) {
        return printJson({
          zone: targetJson(r.zone),
          cookie: r.cookie,
          escRuns: d.escRuns,
          decidedBy: d.decidedBy,
          applies: d.applies,
          escCookies: d.escCookies,
          reason: d.reason,
          zoneSetting: settingView(r.zoneSetting),
          accountSetting: settingView(r.accountSetting),
          removal: r.removal
        })
      }
      // Once ESC is removed nothing runs: the decision is what the settings would have done.
      const gone = r.removal.removed
      const verdict = d.escRuns
        ? gone
          ? "ESC would run (if it still existed)"
          : "ESC runs"
        : gone
          ? "ESC would be OFF (if it still existed)"
          : "ESC is OFF"
      const reason = gone
        ? d.reason.replace(/^ESC runs:/, "ESC would run:").replace(/^ESC is off:/, "ESC would be off:")
        : d.reason
      printLine(
        `${verdict} for this request to zone ${r.zone.name}${r.cookie !== null ? ` (Cookie: ${r.cookie})` : " (no Cookie header)"}.`
      )
      printFields([
        [
          "decided by",
          d.decidedBy === null
            ? "nothing: no setting turns ESC off for this request"
            : `${DeciderName[d.decidedBy]}: ${deciderLabel(d.decidedBy)}`
        ],
        ...(d.applies.length > 1
          ? [
              [
                "also",
                d.applies
                  .slice(1)
                  .map((x) => DeciderName[x])
                  .join(", ")
              ] as const
            ]
          : []),
        ["reason", reason],
        ["zone", `${r.zone.name}: ${settingShort(r.zoneSetting)}`],
        ["account", `${r.zone.account.name}: ${settingShort(r.accountSetting)}`],
        ["removal", removalLine(r.removal)]
      ])
    })
).pipe(
  Command.withDescription(
    "say whether ESC runs for a request to the zone carrying a Cookie header, and which setting decided"
  )
)

const replacements = Command.make("replacements", { json }, (o) =>
  Effect.sync(() => {
    if (o.json) {
      return printJson(
        Replacements.map((r) => ({
          useCase: r.useCase,
          product: r.product,
          phase: r.phase,
          action: r.action,
          example: r.example === null ? null : r.example.kind === "rule" ? r.example.rule : r.example.code,
          ...(r.note !== undefined ? { note: r.note } : {})
        }))
      )
    }
    printTable(
      ["USE CASE", "REPLACEMENT", "PHASE", "ACTION"],
      Replacements.map((r) => [r.useCase, r.product, r.phase, r.action])
    )
    printLine("")
    printLine("Example rules (rulesets API, in the phase above):")
    Replacements.forEach((r) => {
      if (r.example === null) return
      printLine(`  ${r.useCase}:`)
      printLine(`    ${exampleText(r.example)}`)
      if (r.note !== undefined) printLine(`    note: ${r.note}`)
    })
    printLine("")
    printLine(`Request phases run in this order: ${RequestPhases.join(", ")}.`)
    printLine(`Response phases: ${ResponsePhases.join(", ")}.`)
  })
).pipe(Command.withDescription("each ESC use case with its replacement product, ruleset phase and an example rule"))

export const esc = Command.make("esc").pipe(
  Command.withDescription(
    "ESC (Edge Side Code) disable settings per zone and account; ESC configuration is removed on 2025-01-01"
  ),
  Command.withSubcommands([get, disable, enable, test, replacements])
)
