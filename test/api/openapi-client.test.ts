/**
 * The client side of the wire: answers recorded from the platform (fixtures/openapi/recorded/, from
 * the reference's api-examples) are served over HTTP exactly as recorded and decoded through the
 * client with `--remote`'s configuration, and each is checked against the same OpenAPI document as
 * the local platform's answers (test/api/openapi-contract.test.ts), with the corrections it names.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, ClientConfig } from "../../src/api/client.js"
import { Endpoints } from "../../src/api/contract.js"
import { FirewallEndpoints } from "../../src/api/contract-firewall.js"
import { KvEndpoints } from "../../src/api/contract-kv.js"
import { WafEndpoints } from "../../src/api/contract-waf.js"
import { asDocumented, asPublished, explain, type Documented, type Method } from "../helpers/openapi.js"

/**
 * A recorded answer. The documentation's examples stand `<RULE_ID_1>`-style placeholders for ids: each
 * becomes a 32-hex id of its own (the same placeholder, the same id), as the platform would send.
 */
const recorded = (name: string): unknown => {
  const text = fs.readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/openapi/recorded", name),
    "utf8"
  )
  return JSON.parse(text.replace(/<([A-Z0-9_]+)>/g, (_, p: string) => createHash("md5").update(p).digest("hex")))
}

/** The next answer of the replaying server, and what it was asked. */
let answer: { status: number; body: unknown } = { status: 200, body: {} }
let asked = ""
let server: http.Server
let rt: ManagedRuntime.ManagedRuntime<any, unknown>

beforeAll(async () => {
  server = http.createServer((req, res) => {
    asked = `${req.method} ${req.url}`
    req.resume()
    res.writeHead(answer.status, { "content-type": "application/json" })
    res.end(JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`
  rt = ManagedRuntime.make(
    Layer.merge(
      Layer.succeed(ClientConfig, {
        baseUrl,
        credentials: { kind: "token", token: "recorded-answers-token" },
        target: "remote",
        maxRetries: 0
      } as never),
      FetchHttpClient.layer
    )
  )
})
afterAll(async () => {
  await rt?.dispose()
  await new Promise((resolve) => server?.close(resolve))
})

const Z = "023e105f4ecef8ad9ca31a8372d0c353"
const A = "01a7362d577a6c3019a474fd6f485823"
const NS = "0f2ac74b498b48028cb68387c421e279"

interface Replay {
  readonly file: string
  readonly endpoint: any
  readonly input?: Record<string, unknown>
  /** The operation in the document, when it has it. */
  readonly operation?: readonly [Method, string]
  readonly documented?: ReadonlyArray<Documented>
  /** What the client must have decoded. */
  readonly decoded: (value: any) => void
}

const zone = { path: { zone_id: Z } }
const replays: ReadonlyArray<Replay> = [
  {
    file: "zones-get.json",
    endpoint: Endpoints.getZone,
    input: zone,
    operation: ["get", "/zones/{zone_id}"],
    documented: ["zoneMetaMayBeAbsent"],
    decoded: (z) => expect(z.owner).toMatchObject({ type: "user" })
  },
  {
    file: "zones-list.json",
    endpoint: Endpoints.listZones,
    operation: ["get", "/zones"],
    documented: ["zoneMetaMayBeAbsent"],
    decoded: (p) => expect(p.items[0].name).toBe("example.com")
  },
  {
    file: "dns-records-list.json",
    endpoint: Endpoints.listDnsRecords,
    input: zone,
    operation: ["get", "/zones/{zone_id}/dns_records"],
    decoded: (p) => {
      expect(p.items[0]).toMatchObject({ type: "A", content: "198.51.100.4" })
      // No total_pages in the recording: worked out from total_count and per_page.
      expect(p.info.total_pages).toBe(Math.ceil(p.info.total_count / p.info.per_page))
    }
  },
  {
    file: "certificate-packs-list.json",
    endpoint: Endpoints.listCertificatePacks,
    input: zone,
    operation: ["get", "/zones/{zone_id}/ssl/certificate_packs"],
    // No result_info in the recording: one page of everything; no pack status: read as unknown.
    decoded: (p) => {
      expect(p.items[0]).toMatchObject({ type: "advanced", status: "" })
      expect(p.info).toMatchObject({ page: 1, total_pages: 1, total_count: 1 })
    }
  },
  {
    file: "firewall-rules-list.json",
    endpoint: FirewallEndpoints.listRules,
    input: zone,
    operation: ["get", "/zones/{zone_identifier}/firewall/rules"],
    documented: ["rulePriorityNullable"],
    decoded: (p) => expect(p.items[0]).toMatchObject({ action: "bypass", priority: null })
  },
  {
    file: "firewall-rules-create.response.json",
    endpoint: FirewallEndpoints.createRules,
    input: { ...zone, payload: [] },
    operation: ["post", "/zones/{zone_identifier}/firewall/rules"],
    documented: ["rulePriorityNullable"],
    decoded: (rules) => expect(rules[0].action).toBe("allow")
  },
  {
    file: "firewall-rules-delete.response.json",
    endpoint: FirewallEndpoints.deleteRules,
    input: { ...zone, urlParams: { id: ["x"] } },
    operation: ["delete", "/zones/{zone_identifier}/firewall/rules"],
    decoded: (ids) => expect(ids).toHaveLength(2)
  },
  {
    file: "filters-list.json",
    endpoint: FirewallEndpoints.listFilters,
    input: zone,
    operation: ["get", "/zones/{zone_identifier}/filters"],
    decoded: (p) => expect(p.items).toHaveLength(2)
  },
  {
    file: "kv-namespaces-list.json",
    endpoint: KvEndpoints.listNamespaces,
    input: { path: { account_id: A } },
    operation: ["get", "/accounts/{account_id}/storage/kv/namespaces"],
    decoded: (p) => expect(p.items[0].title).toBe("My Own Namespace")
  },
  ...["kv-keys-list.json", "kv-keys-list.last-page.json"].map((file): Replay => ({
    file,
    endpoint: KvEndpoints.listKeys,
    input: { path: { account_id: A, namespace_id: NS } },
    operation: ["get", "/accounts/{account_id}/storage/kv/namespaces/{namespace_id}/keys"],
    decoded: (p) => expect(Array.isArray(p.items)).toBe(true)
  })),
  {
    file: "kv-bulk-write.response.json",
    endpoint: KvEndpoints.bulkPut,
    input: { path: { account_id: A, namespace_id: NS }, payload: [] },
    operation: ["put", "/accounts/{account_id}/storage/kv/namespaces/{namespace_id}/bulk"],
    decoded: (r) => expect(r).toMatchObject({ successful_key_count: 2 })
  },
  // Bulk get and the migration answers are newer than the document: decoded only.
  {
    file: "kv-bulk-get.response.json",
    endpoint: KvEndpoints.bulkGet,
    input: { path: { account_id: A, namespace_id: NS }, payload: { keys: ["My-Key"] } },
    decoded: (r) => expect(r.values["My-Key"].value).toBe("Some string")
  },
  {
    file: "waf-migration-check.json",
    endpoint: WafEndpoints.check,
    input: zone,
    decoded: (r) => expect(r).toBeTruthy()
  },
  {
    file: "waf-migration-config.json",
    endpoint: WafEndpoints.config,
    input: zone,
    decoded: (r) => expect(Array.isArray(r.rules)).toBe(true)
  },
  {
    file: "waf-packages-list.json",
    endpoint: WafEndpoints.listPackages,
    input: zone,
    operation: ["get", "/zones/{zone_identifier}/firewall/waf/packages"],
    decoded: (p) => expect(p.items[0].detection_mode).toBe("traditional")
  },
  {
    file: "rulesets-entrypoint-managed.json",
    endpoint: WafEndpoints.getEntrypoint,
    input: zone,
    operation: ["get", "/zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint"],
    decoded: (r) => expect(r.rules[0].action).toBe("execute")
  }
]

const validate = (
  method: Method,
  template: string,
  status: number,
  body: unknown,
  documented: ReadonlyArray<Documented> = []
) => {
  const v = asDocumented(method, template, status)
  expect(v(body), `${method} ${template} against the document: ${explain(v)}`).toBe(true)
  const published = asPublished(method, template, status)
  expect(
    published(body),
    `${method} ${template}: ${documented.length > 0 ? `follows ${documented.join(", ")}, which the published document must reject` : explain(published)}`
  ).toBe(documented.length === 0)
}

describe("recorded platform answers, through the client", () => {
  for (const r of replays) {
    it(`${r.file}: ${r.operation ? "matches the document and " : ""}decodes`, async () => {
      const body = recorded(r.file)
      if (r.operation) validate(r.operation[0], r.operation[1], 200, body, r.documented)
      answer = { status: 200, body }
      const value = await rt.runPromise(Effect.either(call(r.endpoint, (r.input ?? {}) as never)))
      if (Either.isLeft(value))
        throw new Error(`${r.file}: the client refused the recorded answer (${asked}): ${JSON.stringify(value.left)}`)
      r.decoded(value.right)
    })
  }

  it("recorded failures match the failure envelope and decode to the platform's error", async () => {
    for (const [file, status, endpoint, input, operation, code] of [
      [
        "rulesets-entrypoint-not-found.error.json",
        404,
        WafEndpoints.getEntrypoint,
        zone,
        ["get", "/zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint"],
        10003
      ],
      [
        "kv-key-not-found.error.json",
        404,
        KvEndpoints.getMetadata,
        { path: { account_id: A, namespace_id: NS, key_name: "k" } },
        ["get", "/accounts/{account_id}/storage/kv/namespaces/{namespace_id}/metadata/{key_name}"],
        10009
      ]
    ] as const) {
      const body = recorded(file)
      validate(operation[0], operation[1], status, body)
      answer = { status, body }
      const value = await rt.runPromise(Effect.either(call(endpoint as any, input as never)))
      expect(Either.isLeft(value), file).toBe(true)
      expect(JSON.stringify((value as any).left), file).toContain(String(code))
    }
  })
})
