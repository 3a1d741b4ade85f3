/**
 * A store row the platform cannot encode into its own answer (a damaged or hand-edited SQLite row:
 * a field of the wrong type, a JSON column that does not parse) is the platform's failure, not the
 * request's: `edgectl serve` answers 500 with the internal error's envelope (code 10001), as for any
 * other internal failure, and tells nothing of the row. A request that is wrong is still a 400.
 */
import Database from "better-sqlite3"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type * as AST from "effect/SchemaAST"
import { V4Api } from "../../src/api/contract.js"
import { asPublished, explain, type Method } from "../helpers/openapi.js"
import { assertEnvelope, firstError, request, startPlatform, type Platform } from "../helpers/platform.js"

let platform: Platform
let db: Database.Database
let acme: string
let rule: { id: string; zone_id: string }
let record: string

beforeAll(async () => {
  platform = await startPlatform()
  db = new Database(path.join(platform.stateDir, "platform.sqlite"))
  acme = db.prepare("SELECT id FROM zones WHERE name = 'acme.com'").pluck().get() as string
  record = db.prepare("SELECT id FROM dns_records WHERE zone_id = ? LIMIT 1").pluck().get(acme) as string
  rule = db.prepare("SELECT id, zone_id FROM firewall_rules LIMIT 1").get() as typeof rule
})
afterAll(async () => {
  db.close()
  await platform.close()
})

/** Runs `check` with one column of one row replaced, then puts the row back as it was. */
const damaged = async (table: string, column: string, id: string, value: unknown, check: () => Promise<void>) => {
  const before = db.prepare(`SELECT ${column} FROM ${table} WHERE id = ?`).pluck().get(id)
  expect(db.prepare(`UPDATE ${table} SET ${column} = ? WHERE id = ?`).run(value, id).changes).toBe(1)
  try {
    await check()
  } finally {
    db.prepare(`UPDATE ${table} SET ${column} = ? WHERE id = ?`).run(before, id)
  }
}

/** The internal error's answer, checked against the operation's failure envelope in the document. */
const internalError = async (pathAndQuery: string, operation: string, leaked: string) => {
  const a = await request(platform.baseUrl, pathAndQuery)
  expect(a.status, JSON.stringify(a.body).slice(0, 300)).toBe(500)
  assertEnvelope(a, false)
  const v = asPublished("get" as Method, operation, a.status)
  if (!v(a.body)) throw new Error(`${pathAndQuery}: ${explain(v)}`)
  expect(firstError(a)).toEqual({ code: 10001, message: "internal error of the local platform" })
  expect(JSON.stringify(a.body)).not.toContain(leaked)
}

describe("a row off its answer's schema is a 500, not a 400", () => {
  it("a zone whose plan id is a number: the zone and the zones list", async () => {
    await damaged("zones", "plan", acme, '{"id": 5, "name": "numbered-plan"}', async () => {
      await internalError(`/zones/${acme}`, "/zones/{zone_id}", "numbered-plan")
      await internalError("/zones?per_page=50", "/zones", "numbered-plan")
    })
  })

  it("a zone whose status is bytes, not text", async () => {
    await damaged("zones", "status", acme, Buffer.from("bogus-status"), async () => {
      await internalError(`/zones/${acme}`, "/zones/{zone_id}", "bogus")
      await internalError("/zones?per_page=50", "/zones", "bogus")
    })
  })

  it("a zone whose JSON column does not parse", async () => {
    await damaged("zones", "meta", acme, "{not-json", async () => {
      await internalError(`/zones/${acme}`, "/zones/{zone_id}", "not-json")
    })
  })

  it("a DNS record whose ttl is text or whose name is bytes: the zone's DNS page", async () => {
    await damaged("dns_records", "ttl", record, "soon-ish", async () => {
      await internalError(`/zones/${acme}/dns_records?per_page=5000`, "/zones/{zone_id}/dns_records", "soon-ish")
    })
    await damaged("dns_records", "name", record, Buffer.from("binary-name"), async () => {
      await internalError(`/zones/${acme}/dns_records?per_page=5000`, "/zones/{zone_id}/dns_records", "binary")
    })
  })

  it("a firewall rule whose products column is not a list, or not JSON: the zone's rules list", async () => {
    const rules = `/zones/${rule.zone_id}/firewall/rules?per_page=100`
    await damaged("firewall_rules", "products", rule.id, '{"odd-product": 1}', async () => {
      await internalError(rules, "/zones/{zone_identifier}/firewall/rules", "odd-product")
    })
    await damaged("firewall_rules", "products", rule.id, "[broken-json", async () => {
      await internalError(rules, "/zones/{zone_identifier}/firewall/rules", "broken-json")
    })
  })

  it("a request that is wrong is still a 400 naming the field, and the repaired rows answer 200", async () => {
    const bad = await request(platform.baseUrl, `/zones/${acme}/dns_records?per_page=abc`)
    expect(bad.status).toBe(400)
    expect(firstError(bad)).toEqual({ code: 1004, message: 'invalid request: per_page must be an integer, got "abc"' })
    const body = await request(platform.baseUrl, `/zones/${rule.zone_id}/firewall/rules`, {
      method: "POST",
      body: "{not json"
    })
    expect(body.status).toBe(400)
    expect(firstError(body).message).toBe("invalid request body: expected JSON, the body could not be parsed")
    for (const p of [`/zones/${acme}`, "/zones", `/zones/${acme}/dns_records`, `/zones/${rule.zone_id}/firewall/rules`])
      expect((await request(platform.baseUrl, p)).status, p).toBe(200)
  })
})

/** The top-level field names a schema's issues can be reported under. */
const topFields = (ast: AST.AST): Array<PropertyKey> => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures.map((p) => p.name)
    case "Transformation":
      return [...topFields(ast.from), ...topFields(ast.to)]
    case "Refinement":
      return topFields(ast.from)
    case "Union":
      return ast.types.flatMap(topFields)
    case "Suspend":
      return topFields(ast.f())
    default:
      return []
  }
}

describe("how the platform tells an answer's failure from a request's (src/server/errors.ts)", () => {
  it("no request schema of the contract has a field named as the answer's envelope fields", () => {
    let schemas = 0
    for (const group of Object.values(V4Api().groups))
      for (const endpoint of Object.values(group.endpoints))
        for (const s of [endpoint.pathSchema, endpoint.urlParamsSchema, endpoint.payloadSchema, endpoint.headersSchema])
          if (s._tag === "Some") {
            schemas++
            const fields = topFields(s.value.ast)
            expect(fields, `${endpoint.method} ${endpoint.path}`).not.toContain("result")
            expect(fields, `${endpoint.method} ${endpoint.path}`).not.toContain("result_info")
          }
    expect(schemas).toBeGreaterThan(50)
  })
})
