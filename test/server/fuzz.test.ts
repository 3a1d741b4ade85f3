/**
 * Property tests of the served platform against hostile requests: routes x methods x bodies x query
 * parameters x auth headers. Never a 5xx, always an envelope, the server alive, and the store
 * unchanged by every refused write (the whole database dumped before and after). Bounded here;
 * `npm run fuzz` runs many more (FUZZ_RUNS).
 */
import Database from "better-sqlite3"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { storeFile } from "../../src/server/app.js"
import { hexId } from "../../src/domain/ids.js"
import { request, startPlatform, World, type Platform } from "../helpers/platform.js"

const runs = Number(process.env.FUZZ_RUNS ?? 120)
let p: Platform
let zone = ""
let ns = ""
const acme = hexId("account", "Acme Corp")

beforeAll(async () => {
  p = await startPlatform()
  zone = (await request(p.baseUrl, "/zones")).body.result[0].id as string
  ns = (
    await request(p.baseUrl, `/accounts/${acme}/storage/kv/namespaces`, { method: "POST", body: { title: "fuzz" } })
  ).body.result.id as string
})
afterAll(async () => {
  await p?.close()
})

/** Every row of every table, in a stable order: equal dumps mean nothing was written. */
const dump = (): string => {
  const db = new Database(storeFile(p.stateDir), { readonly: true, fileMustExist: true })
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{
      name: string
    }>
    return tables
      .map((t) => `${t.name}:${JSON.stringify(db.prepare(`SELECT * FROM "${t.name}" ORDER BY 1`).raw().all())}`)
      .join("\n")
  } finally {
    db.close()
  }
}

const routes = () => [
  "/zones",
  `/zones/${zone}`,
  `/zones/${zone}/filters`,
  `/zones/${zone}/filters/0123456789abcdef0123456789abcdef`,
  `/zones/${zone}/firewall/rules`,
  `/zones/${zone}/firewall/waf/packages`,
  `/zones/${zone}/firewall/waf/overrides`,
  `/zones/${zone}/waf_migration/status`,
  `/zones/${zone}/rulesets/phases/http_request_firewall_managed/entrypoint`,
  `/zones/${zone}/rulesets`,
  `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`,
  `/zones/${zone}/rulesets/${hexId("ruleset", zone, "http_request_firewall_custom")}/rules`,
  `/zones/${zone}/rulesets/${hexId("ruleset", zone, "http_request_firewall_custom")}/rules/0123456789abcdef0123456789abcdef`,
  `/zones/${zone}/disable_esc`,
  `/accounts/${acme}/disable_esc`,
  "/user/invites",
  "/user/invites/0123456789abcdef0123456789abcdef",
  `/accounts/${acme}/storage/kv/namespaces`,
  `/accounts/${acme}/storage/kv/namespaces/${ns}`,
  `/accounts/${acme}/storage/kv/namespaces/${ns}/bulk`,
  `/accounts/${acme}/storage/kv/namespaces/${ns}/bulk/get`,
  `/accounts/${acme}/storage/kv/namespaces/${ns}/bulk/delete`,
  `/accounts/${acme}/storage/kv/namespaces/${ns}/keys`,
  `/accounts/${acme}/storage/kv/namespaces/${ns}/values/k%20ey`,
  `/accounts/${acme}/storage/kv/namespaces/${ns}/metadata/k`
]

const deep = (n: number, open: string, close: string, inner = "") => open.repeat(n) + inner + close.repeat(n)

const body = fc.oneof(
  fc.constant(undefined),
  fc.json(),
  fc.string(),
  fc.nat({ max: 8000 }).map((n) => deep(n, "[", "]")),
  fc.nat({ max: 8000 }).map((n) => deep(n, '{"a":', "}", "1")),
  fc.nat({ max: 8000 }).map((n) => `[{"key":"k","value":"v","metadata":${deep(n, "[", "]")}}]`),
  fc
    .nat({ max: 8000 })
    .map((n) => `[{"expression":"http.host eq \\"a\\"","description":${deep(n, '{"x":', "}", "0")}}]`)
)

const contentType = fc.constantFrom(
  undefined,
  "application/json",
  "text/plain",
  "multipart/form-data",
  "multipart/mixed",
  "application/octet-stream",
  "application/x-www-form-urlencoded"
)

const auth = fc.constantFrom<Record<string, string>>(
  { authorization: `Bearer ${World.allToken}` },
  { authorization: `Bearer ${World.acmeToken}` },
  { authorization: `Bearer ${World.globexToken}` },
  { authorization: "Bearer nonsense" },
  { authorization: "Basic Zm9vOmJhcg==" },
  { "x-auth-key": World.apiKey, "x-auth-email": World.email },
  { "x-auth-key": "x".repeat(5000), "x-auth-email": "not-an-email" },
  {}
)

const query = fc.array(
  fc.tuple(
    fc.constantFrom(
      "page",
      "per_page",
      "limit",
      "cursor",
      "prefix",
      "order",
      "direction",
      "match",
      "name",
      "id",
      "phase_two",
      "paused"
    ),
    fc.oneof(fc.string(), fc.integer().map(String), fc.constant("-1"), fc.constant("1e309"))
  ),
  { maxLength: 3 }
)

describe("fuzz: hostile requests against the served platform", () => {
  it("never answers 5xx, always an envelope, and a refused write changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 20 }),
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"),
        body,
        contentType,
        auth,
        query,
        async (route, method, b, type, headers, q) => {
          const path = routes()[route % routes().length]!
          const search = q.length > 0 ? `?${new URLSearchParams(q).toString()}` : ""
          const before = method === "GET" ? "" : dump()
          const sent = method === "GET" || b === undefined ? undefined : typeof b === "string" ? b : JSON.stringify(b)
          const r = await fetch(p.baseUrl + path + search, {
            method,
            headers: { ...headers, ...(type !== undefined ? { "content-type": type } : {}) },
            ...(sent !== undefined ? { body: sent } : {})
          })
          const text = await r.text()
          expect(r.status, `${method} ${path}${search} answered ${r.status}: ${text.slice(0, 300)}`).toBeLessThan(500)
          const envelope = JSON.parse(text) as { success: boolean }
          expect(typeof envelope.success).toBe("boolean")
          if (method !== "GET" && r.status >= 400)
            expect(dump(), `${method} ${path} refused (${r.status}) but wrote`).toBe(before)
        }
      ),
      { numRuns: runs }
    )
    expect((await request(p.baseUrl, "/zones")).status).toBe(200)
  }, 120_000)
})
