/** Units: the demo world, the store's migrations and seeding, and the list-query helpers. */
import Database from "better-sqlite3"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { DemoWorld, seedDemo } from "../../src/demo/seeds.js"
import { open } from "../../src/store/db.js"
import { LatestVersion } from "../../src/store/migrations.js"
import { parseOperator, textClause, where } from "../../src/store/query.js"
import { listDnsRecords, listZones } from "../../src/store/zones-repo.js"
import { expandWorld } from "../../src/demo/world.js"
import { hexId } from "../../src/domain/ids.js"
import { isoMicros } from "../../src/domain/timestamps.js"
import { sha256 } from "../../src/store/identity-repo.js"
import { createHash } from "node:crypto"
import { LocalToken } from "../../src/api/target.js"

const tmpFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-store-")), "platform.sqlite")

describe("demo world", () => {
  it("is deterministic and has what later areas need", () => {
    const a = expandWorld(DemoWorld)
    const b = expandWorld(DemoWorld)
    expect(a).toEqual(b)
    expect(
      a.accounts
        .filter((x) => a.memberships.some((m) => m.account_id === x.id))
        .map((x) => x.plan)
        .sort()
    ).toEqual(["business", "enterprise", "pro"])
    expect(a.zones.filter((z) => a.memberships.some((m) => m.account_id === z.account_id))).toHaveLength(46)
    const acme = a.zones.find((z) => z.name === "acme.com")!
    expect(a.dns_records.filter((r) => r.zone_id === acme.id)).toHaveLength(1250)
    expect(a.zones.every((z) => a.certificate_packs.some((p) => p.zone_id === z.id))).toBe(true)
    expect(a.invites.every((i) => i.status === "pending")).toBe(true)
    expect(a.zones.every((z) => /^[0-9a-f]{32}$/.test(z.id as string))).toBe(true)
    expect(a.certificate_packs[0]!.created_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
  })

  it("grows to a large world on request", () => {
    const big = expandWorld(DemoWorld, { zones: 500, records: 10_000 })
    expect(big.zones.length).toBe(500 + 2)
    expect(big.dns_records.length).toBeGreaterThanOrEqual(10_000)
  })

  it("writes timestamps with microseconds and ids from names", () => {
    expect(isoMicros(Date.UTC(2024, 0, 1), 42)).toBe("2024-01-01T00:00:00.000042Z")
    expect(hexId("zone", "acme.com")).toHaveLength(32)
  })

  it("hashes credentials with SHA-256, the local token's hash included (known in advance)", () => {
    const world = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, "..", "..", "fixtures", "world.json"), "utf8")
    ) as { tokens: Array<{ secret: string }> }
    expect(world.tokens.map((t) => t.secret)).toContain(LocalToken)
    for (const secret of [LocalToken, ...world.tokens.map((t) => t.secret), "", "é-ünïcode"]) {
      expect(sha256(secret)).toBe(createHash("sha256").update(secret).digest("hex"))
    }
  })
})

describe("store", () => {
  it("migrates, seeds once and records the schema version", async () => {
    const file = tmpFile()
    const db = await Effect.runPromise(open(file, seedDemo()))
    expect(db.pragma("user_version", { simple: true })).toBe(LatestVersion)
    const zones = (db.prepare("SELECT COUNT(*) n FROM zones").get() as { n: number }).n
    db.close()
    const again = await Effect.runPromise(
      open(file, () => {
        throw new Error("must not seed twice")
      })
    )
    expect((again.prepare("SELECT COUNT(*) n FROM zones").get() as { n: number }).n).toBe(zones)
    again.close()
  })

  it("refuses a store written by a newer schema", async () => {
    const file = tmpFile()
    const db = new Database(file)
    db.pragma(`user_version = ${LatestVersion + 1}`)
    db.close()
    const error = await Effect.runPromise(Effect.flip(open(file)))
    expect(error.message).toContain("was written by a newer edgectl")
  })

  it("pages a large world the same whichever index walks it: every visible zone once, in name order", async () => {
    const db = await Effect.runPromise(open(tmpFile(), seedDemo({ zones: 1200, records: 2000 })))
    const members = (
      db.prepare("SELECT DISTINCT account_id FROM memberships WHERE status = 'accepted'").all() as Array<{
        account_id: string
      }>
    ).map((r) => r.account_id)
    for (const accountIds of [members, members.slice(0, 1)]) {
      const expected = (
        db
          .prepare(
            `SELECT name FROM zones WHERE type <> 'internal' AND account_id IN (${accountIds.map(() => "?").join(",")}) ORDER BY name`
          )
          .all(...accountIds) as Array<{ name: string }>
      ).map((r) => r.name)
      for (const direction of ["asc", "desc"] as const) {
        const names: Array<string> = []
        for (let page = 1; ; page++) {
          const p = listZones(db, { accountIds, direction, page, perPage: 50 })
          expect(p.info.total_count).toBe(expected.length)
          if (p.items.length === 0) break
          names.push(...p.items.map((z) => z.name))
        }
        expect(names).toEqual(direction === "asc" ? expected : [...expected].reverse())
      }
    }
    db.close()
  })

  it("lists zones with operators, scope and paging", async () => {
    const db = await Effect.runPromise(open(tmpFile(), seedDemo()))
    const accountIds = (db.prepare("SELECT account_id FROM memberships").all() as Array<{ account_id: string }>).map(
      (r) => r.account_id
    )
    const page = listZones(db, { accountIds, name: "ends_with:.io", page: 1, perPage: 50 })
    expect(page.items.map((z) => z.name)).toEqual([
      "acme-status.io",
      "acme.io",
      "globex-beta.io",
      "globex.io",
      "initech-cloud.io",
      "initech.io"
    ])
    expect(listZones(db, { accountIds: [], page: 1, perPage: 20 }).info.total_count).toBe(0)
    const last = listZones(db, { accountIds, page: 3, perPage: 20 })
    expect(last.info).toEqual({ page: 3, per_page: 20, count: 6, total_count: 46, total_pages: 3 })
    expect(listZones(db, { accountIds, page: 4, perPage: 20 }).items).toEqual([])
    const acme =
      page.items.length > 0 ? listZones(db, { accountIds, name: "acme.com", page: 1, perPage: 5 }).items[0]! : undefined
    const mx = listDnsRecords(db, { zoneId: acme!.id, type: "MX", page: 1, perPage: 1000 })
    expect(mx.items.every((r) => r.type === "MX")).toBe(true)
    db.close()
  })
})

describe("query helpers", () => {
  it("parses operator prefixes and keeps unknown ones literal", () => {
    expect(parseOperator("contains:.org")).toEqual(["contains", ".org"])
    expect(parseOperator("example.com")).toEqual(["equal", "example.com"])
    expect(parseOperator("weird:thing")).toEqual(["equal", "weird:thing"])
  })

  it("escapes LIKE wildcards and joins with match any/all", () => {
    expect(textClause("name", "contains", "50%_off").params).toEqual(["%50\\%\\_off%"])
    const w = where(
      [{ sql: "a = ?", params: [1] }],
      [
        { sql: "b = ?", params: [2] },
        { sql: "c = ?", params: [3] }
      ],
      "any"
    )
    expect(w).toEqual({ sql: "WHERE a = ? AND (b = ? OR c = ?)", params: [1, 2, 3] })
  })
})
