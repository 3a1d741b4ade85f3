/**
 * The repositories on the store's SQL client (waf-repo, rulesets-repo, zones-repo's DNS writes,
 * kv-repo's namespaces): a failed query is the store's error naming what was asked and SQLite's own
 * words; a write of several statements is one of the client's transactions, rolled back whole.
 */
import { Cause, Effect, Exit } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { seedDemo } from "../../src/demo/seeds.js"
import { hexId } from "../../src/domain/ids.js"
import type { ZoneRuleset } from "../../src/domain/ruleset.js"
import type { Ruleset } from "../../src/domain/waf.js"
import { acquire } from "../../src/store/db.js"
import { createTitledNamespace, deleteNamespace } from "../../src/store/kv-repo.js"
import { getPhaseEntrypoint, saveRuleset } from "../../src/store/rulesets-repo.js"
import { StoreError } from "../../src/store/store-error.js"
import { getZoneWaf, listOverrides, saveEntrypoint } from "../../src/store/waf-repo.js"
import { insertDnsRecord } from "../../src/store/zones-repo.js"

const tmpFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-repos-")), "platform.sqlite")

type Store = Effect.Effect.Success<ReturnType<typeof acquire>>

const withStore = <A, E>(use: (store: Store) => Effect.Effect<A, E>) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(acquire(tmpFile(), seedDemo()), use)))

const failureOf = <A>(exit: Exit.Exit<A, StoreError>) => {
  if (Exit.isSuccess(exit)) throw new Error("expected the store's error, got a success")
  return Cause.squash(exit.cause)
}

const acme = hexId("zone", "acme.com")
const ruleset = (version: string) =>
  ({ id: "r1", phase: "http_request_firewall_custom", version, rules: [] }) as unknown as ZoneRuleset

describe("repositories on the store's SQL client", () => {
  it("answers a failed query as the store's error, naming what it did and SQLite's words", async () => {
    const e = await withStore(({ db, sql }) =>
      Effect.gen(function* () {
        db.exec("DROP TABLE waf_overrides")
        return failureOf(yield* Effect.exit(listOverrides(sql, acme)))
      })
    )
    expect(e).toBeInstanceOf(StoreError)
    expect((e as StoreError).message).toBe("cannot read or write the zone's previous WAF: no such table: waf_overrides")
  })

  it("saves a ruleset's entry point and its version in one transaction: a failed one leaves neither", async () => {
    const seen = await withStore(({ db, sql }) =>
      Effect.gen(function* () {
        yield* saveRuleset(sql, acme, ruleset("1"))
        db.exec("DROP TABLE zone_ruleset_versions")
        const failed = failureOf(yield* Effect.exit(saveRuleset(sql, acme, ruleset("2"))))
        return { failed, entry: yield* getPhaseEntrypoint(sql, acme, "http_request_firewall_custom") }
      })
    )
    expect(String(seen.failed)).toContain("no such table: zone_ruleset_versions")
    expect(seen.entry?.version).toBe("1")
  })

  it("dates the managed entry point's state when it changes, not when the same state is saved again", async () => {
    const managed = { id: "m1", version: "1", rules: [] } as unknown as Ruleset
    const seen = await withStore(({ sql }) =>
      Effect.gen(function* () {
        yield* saveEntrypoint(sql, acme, managed, "start", "t0")
        const start = yield* getZoneWaf(sql, acme)
        yield* saveEntrypoint(sql, acme, managed, "validation", "t1")
        yield* saveEntrypoint(sql, acme, { ...managed, version: "2" }, "validation", "t2")
        return { start, validation: yield* getZoneWaf(sql, acme) }
      })
    )
    expect(seen.start).toMatchObject({ state: "start", stateChangedOn: null, entrypointVersion: 1 })
    expect(seen.validation).toMatchObject({ state: "validation", stateChangedOn: "t1", entrypointVersion: 2 })
  })

  it("answers a DNS insert the store refuses as the store's error, writing nothing", async () => {
    const seen = await withStore(({ db, sql }) =>
      Effect.gen(function* () {
        const record = {
          type: "A",
          name: "x.acme.com",
          content: "192.0.2.1",
          proxiable: true,
          proxied: false,
          ttl: 1,
          priority: null,
          comment: null,
          tags: []
        }
        const failed = failureOf(yield* Effect.exit(insertDnsRecord(sql, "no-such-zone", "d1", record, "t0")))
        return { failed, rows: db.prepare("SELECT count(*) AS n FROM dns_records WHERE id = 'd1'").get() }
      })
    )
    expect(String(seen.failed)).toContain("cannot read or write the zone's DNS records: FOREIGN KEY constraint failed")
    expect(seen.rows).toEqual({ n: 0 })
  })

  it("creates a namespace once per title, and deletes it with its entries in one transaction", async () => {
    const account = hexId("account", "Acme Corp")
    const seen = await withStore(({ db, sql }) =>
      Effect.gen(function* () {
        const ns = (yield* createTitledNamespace(sql, account, "repos-ns"))!
        const again = yield* createTitledNamespace(sql, account, "repos-ns")
        db.prepare("INSERT INTO kv_entries (ns, key, value) VALUES (?, ?, ?)").run(
          ns.seq,
          Buffer.from("k"),
          Buffer.from("v")
        )
        // The namespace's row cannot go: its entries' delete is rolled back with it.
        db.exec("CREATE TRIGGER keep BEFORE DELETE ON kv_namespaces BEGIN SELECT RAISE(ABORT, 'kept by the test'); END")
        const failed = failureOf(yield* Effect.exit(deleteNamespace(sql, ns.seq)))
        return { again, failed, entries: db.prepare("SELECT count(*) AS n FROM kv_entries WHERE ns = ?").get(ns.seq) }
      })
    )
    expect(seen.again).toBeUndefined()
    expect(String(seen.failed)).toContain("kept by the test")
    expect(seen.entries).toEqual({ n: 1 })
  })
})
