/**
 * `edgectl firewall migrate` after `firewall lockdowns migrate` (issue 33): the office's firewall
 * `allow` becomes a custom skip of the rest, written before the migrated Zone Lockdown rules, which
 * a firewall allow never exempted a request from. The firewall migration places the migrated rules
 * again before that skip (the placement the lockdown migration uses), limited to what it matches:
 * said in its preview and notes, counted in its quota, its dry run the apply, its replay naming the
 * note on the one request it changes (the office on /admin, refused again as before the lockdown
 * migration), rolled back whole, and the zone ends with the list `migrate --zone` plans, locally
 * and `--remote` against `edgectl serve`; in the other order too (firewall rules first).
 */
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { planFirewallMigration, type ZoneRulesState } from "../../src/firewall/custom-rules-plan.js"
import { edgectl, edgectlAsync, json, root, tempDir } from "../helpers/cli.js"
import { startServe, type Served } from "../helpers/serve.js"

const zone = "acme-mail.com"
const office = "273d82f59cb78511f7c81944baabf441"
const traffic = path.join(root, "fixtures", "firewall", "custom-rules-traffic.jsonl")

interface Rule {
  readonly ref: string
  readonly expression: string
  readonly action: string
}
interface Plan {
  readonly steps: ReadonlyArray<{ readonly key: string; readonly body?: { readonly rules?: ReadonlyArray<Rule> } }>
  readonly before: ZoneRulesState
  readonly expected: { readonly customRules: ReadonlyArray<Rule> }
  readonly notes: ReadonlyArray<{ readonly code: string; readonly message: string; readonly rule?: string }>
  readonly refused?: string
}

/** A rule as written: what the platform assigns on a write (id, version, time) left out. */
const written = (rules: ReadonlyArray<Record<string, unknown>>) =>
  rules.map(({ id: _i, version: _v, last_updated: _l, ...r }) => r)

/** The custom rules `migrate --zone` plans for the demo zone, on a fresh copy of the demo world. */
const umbrellaList = () => {
  const plan = json<Plan>(edgectl(["migrate", "--zone", zone, "--dry-run", "--json"], { cwd: tempDir() }))
  return plan.steps.find((s) => s.key === "firewall-rules/entrypoint")?.body?.rules
}

let served: Served | undefined
afterEach(() => {
  served?.close()
  served = undefined
})

/** A runner of the CLI on one zone: locally in a temp dir, or `--remote` against `edgectl serve` on its own state. */
const target = async (mode: "local" | "remote") => {
  const cwd = tempDir("edgectl-fw-gates-")
  if (mode === "remote") served = await startServe(path.join(cwd, "served"))
  const env = served?.remoteEnv()
  return (...args: string[]) =>
    edgectlAsync([...args, "--zone", zone, ...(mode === "remote" ? ["--remote"] : [])], {
      cwd,
      ...(env !== undefined ? { env } : {})
    })
}

describe.each(["local", "remote"] as const)("firewall migrate after firewall lockdowns migrate (%s)", (mode) => {
  it("places the migrated rules before the allow it migrates: preview, dry run = apply, replay explained, the umbrella's list, rollback", async () => {
    const run = await target(mode)
    expect((await run("firewall", "lockdowns", "migrate", "--yes")).status).toBe(0)
    const lockdownsMigrated = written(json<Array<Record<string, unknown>>>(await run("custom-rules", "list", "--json")))

    const preview = await run("firewall", "migrate")
    expect(preview.status).toBe(1)
    expect(preview.stdout).toContain(
      `changed: firewall rule ${office} becomes a custom rule that skips the rest of the custom phase, and the Zone Lockdown and UA rules were migrated before it`
    )

    const dry = json<Plan>(await run("firewall", "migrate", "--dry-run", "--json"))
    const refs = dry.expected.customRules.map((r) => r.ref)
    const atEnd = refs.filter((r) => /^(lockdown|ua):[^@]*$/.test(r))
    // Every migrated rule again, right before the office's skip, limited to what it matches.
    const copies = refs.slice(0, refs.indexOf(office)).filter((r) => r.includes("@"))
    expect(copies).toEqual(atEnd.map((r) => `${r}@${office}`))
    expect(refs.indexOf(copies.at(-1)!)).toBe(refs.indexOf(office) - 1)
    const officeRule = dry.expected.customRules.find((r) => r.ref === office)!
    for (const ref of copies)
      expect(dry.expected.customRules.find((r) => r.ref === ref)?.expression).toMatch(
        new RegExp(` and \\(${officeRule.expression.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\)$`)
      )
    expect(dry.notes.filter((n) => n.code === "placed-again-before-skip").map((n) => n.rule)).toEqual([office])
    expect(dry.notes.map((n) => n.code)).not.toContain("skip-current-covers-migrated")

    // The office on /admin: allowed by the firewall rule now (the lockdown migration's known
    // difference), refused after by the lockdown's copy before its skip: the note explains it.
    const replay = await run("firewall", "migrate", "--replay", traffic, "--json")
    expect(replay.status).toBe(1)
    expect(JSON.parse(replay.stdout)).toMatchObject({
      compared: "planned",
      requests: 29,
      agreed: 28,
      explained: 1,
      disagreements: [
        {
          id: "office-admin",
          before: { action: "allow", rule: { kind: "firewall", id: office } },
          after: { action: "block" },
          explainedBy: [{ code: "placed-again-before-skip" }]
        }
      ]
    })
    const text = await run("firewall", "migrate", "--replay", traffic)
    expect(text.stdout).toContain("explained by the plan's notes: 1 of 1 difference(s)")
    expect(text.stderr).toContain("1 request(s) of")

    const applied = json<{ plan: Plan; outcome: { sent: string[] } }>(
      await run("firewall", "migrate", "--yes", "--json")
    )
    expect(applied.plan.steps).toEqual(dry.steps)
    expect(applied.outcome.sent).toEqual(dry.steps.map((s) => s.key))
    const migrated = written(json<Array<Record<string, unknown>>>(await run("custom-rules", "list", "--json")))
    expect(migrated).toEqual(dry.expected.customRules)
    expect(migrated).toEqual(umbrellaList())

    // Nothing left for either migration; the replay after the apply reads the journal's "before".
    expect((await run("firewall", "lockdowns", "migrate", "--yes")).stdout).toContain("Nothing to do")
    const after = await run("firewall", "migrate", "--replay", traffic, "--json")
    expect(JSON.parse(after.stdout)).toMatchObject({ compared: "journal", requests: 29, agreed: 28, explained: 1 })

    const back = await run("firewall", "migrate", "--rollback", "--yes")
    expect(back.status, back.stderr).toBe(0)
    expect(written(json<Array<Record<string, unknown>>>(await run("custom-rules", "list", "--json")))).toEqual(
      lockdownsMigrated
    )
  }, 120_000)
})

describe("firewall migrate, then firewall lockdowns migrate (remote)", () => {
  it("the replay agrees on every request and the zone ends with the umbrella's list", async () => {
    const run = await target("remote")
    const replay = await run("firewall", "migrate", "--replay", traffic, "--json")
    expect([replay.status, replay.stderr]).toEqual([0, ""])
    // No migrated Zone Lockdown rule yet: nothing to place, no explanation in the report.
    expect(JSON.parse(replay.stdout)).toMatchObject({ requests: 29, agreed: 29 })
    expect(JSON.parse(replay.stdout)).not.toHaveProperty("explained")
    expect((await run("firewall", "migrate", "--yes")).status).toBe(0)
    expect((await run("firewall", "lockdowns", "migrate", "--yes")).status).toBe(0)
    expect(written(json<Array<Record<string, unknown>>>(await run("custom-rules", "list", "--json")))).toEqual(
      umbrellaList()
    )
    expect((await run("firewall", "migrate", "--yes")).stdout).toContain("Nothing")
  }, 120_000)
})

describe("the firewall migration's quota counts the copies", () => {
  it("refuses a plan whose copies before the migrated allows pass the plan's custom rules", async () => {
    const run = await target("local")
    expect((await run("firewall", "lockdowns", "migrate", "--yes")).status).toBe(0)
    const { before } = json<Plan>(await run("firewall", "migrate", "--dry-run", "--json"))
    expect(before.lockdowns?.length).toBe(3)
    const plan = (name: string) =>
      planFirewallMigration({ zone: { id: "z", name: zone }, plan: name, before, deleteOld: false })
    // Business (100): room for all; Pro (20): the 9 kept, 11 migrated and their copies do not fit.
    expect(plan("business").refused).toBeUndefined()
    const pro = plan("pro")
    expect(pro.steps).toEqual([])
    expect(pro.refused).toMatch(
      new RegExp(
        `^zone ${zone} would need \\d+ custom rules \\(11 migrated, 9 there now, [1-9]\\d* copies of the migrated Zone Lockdown and UA rules placed before the rules that skip the rest\\), more than the 20 its pro plan allows`
      )
    )
  }, 60_000)
})
