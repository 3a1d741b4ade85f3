/**
 * The route table (src/server/door/route-table.ts) in front of the app: `edgectl serve` with it and without
 * it, over the same SQLite file, answer every route of the contract and every odd spelling of the two
 * routes it holds with the same status, content-type and bytes; it answers the common reads itself
 * and declines the rest; and a credential revoked in the store is refused on the next request.
 */
import Database from "better-sqlite3"
import fc from "fast-check"
import { Effect, Exit, Scope } from "effect"
import { createHash } from "node:crypto"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HttpClientRequest } from "@effect/platform"
import { BasePath, V4Api } from "../../src/api/contract.js"
import { LocalBase } from "../../src/api/target.js"
import { makeLocalClient, makeLocalHandler, storeFile } from "../../src/server/door/local-transport.js"
import { serve } from "../../src/server/serve.js"
import { makeRouteTable } from "../../src/server/door/route-table.js"
import { makeKvValueRoute } from "../../src/server/door/kv-value-route.js"
import { makeFirewallListsRoute } from "../../src/server/door/firewall-lists-route.js"
import { LocalKvOptions } from "../../src/server/kv-options.js"
import { tempDir, World } from "../helpers/platform.js"

const hexId = (...parts: Array<string>) => createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32)
const ACME = hexId("zone", "acme.com")

const stateDir = tempDir()
/** `use` over the test's store, opened read-only as the routes read it; closed after. */
const withStore = async <A>(use: (db: Database.Database) => A | Promise<A>): Promise<A> => {
  const db = new Database(path.join(stateDir, "platform.sqlite"), { readonly: true })
  try {
    return await use(db)
  } finally {
    db.close()
  }
}
const scope = Effect.runSync(Scope.make())
const start = (routeTable: boolean) =>
  Effect.runPromise(Scope.extend(serve({ host: "127.0.0.1", port: 0, stateDir, routeTable }), scope))
let withTable: string
let withoutTable: string

beforeAll(async () => {
  withoutTable = (await start(false)).baseUrl
  withTable = (await start(true)).baseUrl
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

interface Sent {
  readonly path: string
  readonly method?: string
  readonly headers?: Record<string, string>
}
const answer = async (base: string, s: Sent) => {
  const r = await fetch(base + s.path, {
    method: s.method ?? "GET",
    headers: { authorization: `Bearer ${World.allToken}`, ...s.headers }
  })
  return `${r.status} ${r.headers.get("content-type")} ${r.headers.get("content-length")}\n${await r.text()}`
}
const same = async (sent: ReadonlyArray<Sent>) => {
  for (const s of sent) {
    const [a, b] = await Promise.all([answer(withTable, s), answer(withoutTable, s)])
    expect(a, `${s.method ?? "GET"} ${s.path} ${JSON.stringify(s.headers ?? {})}`).toBe(b)
  }
}

const zone = `/zones/${ACME}`
const dns = `${zone}/dns_records`
const auth = (token: string) => ({ authorization: `Bearer ${token}` })
const spellings: ReadonlyArray<Sent> = [
  { path: zone },
  { path: `${zone}/` },
  { path: `//zones//${ACME}` },
  { path: `/ZONES/${ACME}` },
  { path: `/zones/${ACME.toUpperCase()}` },
  { path: `/zones/%35${ACME.slice(1)}` },
  { path: `${zone}?per_page=5` },
  { path: "/zones/0123456789abcdef0123456789abcdef" },
  { path: zone, headers: auth(World.globexToken) },
  { path: zone, headers: auth(World.expiredToken) },
  { path: zone, headers: auth("not-a-token") },
  { path: zone, headers: { authorization: "Basic abc" } },
  { path: zone, headers: { authorization: "" } },
  { path: zone, headers: { "x-auth-email": World.email, "x-auth-key": World.apiKey, authorization: "" } },
  { path: zone, headers: { "content-type": "multipart/form-data" } },
  { path: zone, method: "HEAD" },
  { path: zone, method: "DELETE" },
  { path: zone, method: "PATCH" },
  { path: dns },
  { path: `${dns}/` },
  { path: `${dns}?per_page=100` },
  { path: `${dns}?per_page=5&page=2` },
  { path: `${dns}?per_page=5&page=999` },
  { path: `${dns}?page=0` },
  { path: `${dns}?per_page=abc` },
  { path: `${dns}?per_page=5&per_page=6` },
  { path: `${dns}?type=A&per_page=3` },
  { path: `${dns}?type=NOPE` },
  { path: `${dns}?name=contains:www&match=any` },
  { path: `${dns}?name=www%2Eacme.com` },
  { path: `${dns}?content=a+b` },
  { path: `${dns}?order=ttl&direction=desc` },
  { path: `${dns}?proxied=true` },
  { path: `${dns}?proxied=maybe` },
  { path: `${dns}?unknown=1` },
  { path: `${dns}?per_page` },
  { path: `${dns}?&per_page=5` },
  { path: dns, headers: auth(World.initechToken) },
  { path: dns, headers: auth(World.acmeToken) },
  { path: dns, method: "HEAD" },
  // The lists a cold command asks first: zones (`zones list`, a zone's name resolved) and accounts.
  { path: "/zones" },
  { path: "/zones/" },
  { path: "/ZONES" },
  { path: "/zones?per_page=50" },
  { path: "/zones?page=2&per_page=5" },
  { path: "/zones?page=99&per_page=50" },
  { path: "/zones?name=acme.com&per_page=5" },
  { path: "/zones?name=ACME.COM&per_page=5" },
  { path: "/zones?name=nothing.example&per_page=5" },
  { path: "/zones?name=contains:acme&match=any&status=pending" },
  { path: "/zones?account.name=contains:Acme&order=account.name&direction=desc" },
  { path: "/zones?order=status&per_page=7" },
  { path: "/zones?order=nope" },
  { path: "/zones?status=bogus" },
  { path: "/zones?per_page=4" },
  { path: "/zones?per_page=51" },
  { path: "/zones?type=full" },
  { path: "/zones?type=bogus" },
  { path: "/zones?name=a%2Ec" },
  { path: "/zones?per_page=5&per_page=6" },
  { path: "/zones", headers: auth(World.globexToken) },
  { path: "/zones", headers: auth(World.expiredToken) },
  { path: "/zones", headers: auth("not-a-token") },
  { path: "/zones", headers: { "x-auth-email": World.email, "x-auth-key": World.apiKey, authorization: "" } },
  { path: "/zones", method: "POST" },
  { path: "/zones", method: "HEAD" },
  { path: "/accounts" },
  { path: "/accounts/" },
  { path: "/accounts?per_page=50" },
  { path: "/accounts?page=2&per_page=5" },
  { path: "/accounts?name=acme&direction=desc" },
  { path: "/accounts?per_page=0" },
  { path: "/accounts?order=name" },
  { path: "/accounts", headers: auth(World.acmeToken) },
  { path: "/accounts", headers: auth(World.expiredToken) },
  { path: "/accounts", method: "HEAD" }
]

describe("the route table answers what the app answers", () => {
  it("on every GET route of the contract", async () => {
    const sent: Array<Sent> = []
    for (const group of Object.values(V4Api().groups))
      for (const endpoint of Object.values(group.endpoints)) {
        if (endpoint.method !== "GET") continue
        const p = endpoint.path.replace(":zone_id", ACME).replace(/:[a-z_]+/g, "0123456789abcdef0123456789abcdef")
        sent.push({ path: p }, { path: `${p}/` })
      }
    expect(sent.length).toBeGreaterThan(20)
    await same(sent)
  })

  it("on every zone and every DNS record of the demo world", async () => {
    const list = await fetch(`${withoutTable}/zones?per_page=50&type=full,partial,secondary,internal`, {
      headers: auth(World.allToken)
    })
    const zones = ((await list.json()) as { result: Array<{ id: string }> }).result
    expect(zones.length).toBeGreaterThan(5)
    const sent: Array<Sent> = []
    for (const z of zones)
      sent.push(
        { path: `/zones/${z.id}` },
        { path: `/zones/${z.id}/dns_records?per_page=5000` },
        { path: `/zones/${z.id}/dns_records?per_page=7&page=2&order=content&direction=desc` }
      )
    await same(sent)
  })

  it("on the zone and DNS routes, spelled every way", async () => {
    await same(spellings)
  })
})

describe("in local mode's transport too", () => {
  const localBase = `${LocalBase.replace(BasePath, "")}${BasePath}`
  const locals = [makeLocalHandler(storeFile(stateDir)), makeLocalHandler(storeFile(stateDir), { routeTable: false })]
  afterAll(() => Promise.all(locals.map((l) => l.dispose())))
  const viaLocal = async (local: (typeof locals)[number], s: Sent) => {
    const client = makeLocalClient(local.handle)
    const request = HttpClientRequest.make((s.method ?? "GET") as "GET")(localBase + s.path, {
      headers: { authorization: `Bearer ${World.allToken}`, ...s.headers }
    })
    const response = await Effect.runPromise(client.execute(request))
    const bytes = Buffer.from(await Effect.runPromise(response.arrayBuffer))
    return `${response.status} ${JSON.stringify(response.headers)}\n${bytes.toString("latin1")}`
  }
  const put = async (path: string, body: Uint8Array) => {
    const client = makeLocalClient(locals[1]!.handle)
    const request = HttpClientRequest.put(localBase + path, {
      headers: { authorization: `Bearer ${World.allToken}` }
    }).pipe(HttpClientRequest.bodyUint8Array(body))
    expect((await Effect.runPromise(client.execute(request))).status).toBe(200)
  }
  /** The demo world's account ids, as the platform lists them. */
  const accountIds = async () =>
    (
      JSON.parse((await viaLocal(locals[1]!, { path: "/accounts?per_page=50" })).split("\n")[1]!).result as Array<{
        id: string
      }>
    ).map((a) => a.id)

  it("the same status, headers and bytes as the app, twice (the table is made on the first request)", async () => {
    for (let round = 0; round < 2; round++)
      for (const s of spellings) {
        if (s.method === "HEAD") continue
        const [a, b] = await Promise.all(locals.map((l) => viaLocal(l, s)))
        expect(a, `${s.method ?? "GET"} ${s.path} ${JSON.stringify(s.headers ?? {})}`).toBe(b)
      }
  })

  const firewallLists = [
    {
      list: "firewall/rules",
      queries: ["?action=block", "?action=nope", "?paused=true", "?paused=maybe", "?id=abc", "?description=a+b"],
      declined: ["/", "?x=1", "?per_page=101", "?action=nope"]
    },
    {
      list: "filters",
      queries: ["?paused=false", "?paused=maybe", "?id=abc", "?expression=http", "?ref=x", "?description=a+b"],
      declined: ["/", "?x=1", "?per_page=101", "?paused=maybe", "?ref=" + "r".repeat(51)]
    }
  ]
  for (const { list, queries, declined } of firewallLists)
    it(`a zone's ${list} list (firewall-lists-route.ts), spelled every way, as the app answers it`, async () => {
      const path = `/zones/${ACME}/${list}`
      const sent: Array<Sent> = [
        ...["", "?page=1&per_page=100", "?per_page=5&page=2", "?per_page=5&page=999", "?per_page=4", "?per_page=101"]
          .concat(queries, ["?x=1", "?page=0", "?per_page=5&per_page=6", "/"])
          .map((q) => ({ path: path + q })),
        { path: `/zones/${hexId("zone", "globex.net")}/${list}` },
        { path: `/zones/0123456789abcdef0123456789abcdef/${list}` },
        { path: `/ZONES/${ACME}/${list}` },
        { path, headers: auth(World.globexToken) },
        { path, headers: auth(World.expiredToken) },
        { path, headers: { "content-type": "application/json" } },
        { path, method: "DELETE" }
      ]
      for (let round = 0; round < 2; round++)
        for (const s of sent) {
          const [a, b] = await Promise.all(locals.map((l) => viaLocal(l, s)))
          expect(a, `${s.method ?? "GET"} ${s.path} ${JSON.stringify(s.headers ?? {})}`).toBe(b)
        }
      await withStore((db) => {
        const route = makeFirewallListsRoute(db)
        const ask = (q: string) => route({ method: "GET", url: `/client/v4${path}${q}`, headers: auth(World.allToken) })
        expect(JSON.parse(ask("?page=1&per_page=100") ?? "null").result.length).toBeGreaterThan(0)
        for (const d of declined) expect(ask(d), d).toBeUndefined()
      })
    })

  it("a KV value read (kv-value-route.ts), spelled every way, as the app answers it", async () => {
    const [a0, a1] = await accountIds()
    const values = `/accounts/${a0}/storage/kv/namespaces/route-table-ns/values`
    const text = (t: string) => new TextEncoder().encode(t)
    await put(`${values}/plain`, text("hello"))
    await put(`${values}/ttl?expiration_ttl=3600`, text("soon gone"))
    await put(`${values}/bin`, new Uint8Array([0, 255, 10, 13, 128]))
    await put(`${values}/a.b-c_d`, text("dots"))
    await put(`${values}/%E2%82%AC`, text("euro"))
    await put(`${values}/empty`, new Uint8Array())
    const sent: Array<Sent> = [
      ...[
        "plain",
        "ttl",
        "bin",
        "a.b-c_d",
        "%E2%82%AC",
        "empty",
        "missing",
        "",
        "PLAIN",
        "%70lain",
        "k".repeat(513)
      ].map((k) => ({ path: `${values}/${k}` })),
      { path: `${values}/plain/` },
      { path: `${values}/plain?x=1` },
      { path: `${values}//plain` },
      { path: `/accounts/${a1}/storage/kv/namespaces/route-table-ns/values/plain` },
      { path: `/accounts/0123456789abcdef0123456789abcdef/storage/kv/namespaces/route-table-ns/values/plain` },
      { path: `/accounts/${a0}/storage/kv/namespaces/no-such-ns/values/plain` },
      { path: `${values}/plain`, headers: auth(World.globexToken) },
      { path: `${values}/plain`, headers: auth(World.expiredToken) },
      { path: `${values}/plain`, headers: auth("not-a-token") },
      { path: `${values}/plain`, headers: { "content-type": "text/plain" } },
      { path: `${values}/plain`, method: "POST" }
    ]
    for (let round = 0; round < 2; round++)
      for (const s of sent) {
        const [a, b] = await Promise.all(locals.map((l) => viaLocal(l, s)))
        expect(a, `${s.method ?? "GET"} ${s.path} ${JSON.stringify(s.headers ?? {})}`).toBe(b)
      }
    await withStore((db) => {
      const route = makeKvValueRoute(db, LocalKvOptions)
      const ask = (key: string) =>
        route({ method: "GET", url: `/client/v4${values}/${key}`, headers: auth(World.allToken) })
      expect(Buffer.from(ask("plain")?.value ?? []).toString()).toBe("hello")
      expect(Number(ask("ttl")?.headers.expiration)).toBeGreaterThan(Date.now() / 1000)
      for (const declined of ["missing", "plain?x=1", "k".repeat(513)]) expect(ask(declined), declined).toBeUndefined()
    })
  })

  it("a KV value read whose key needs percent-encoding, spelled every way, as the app answers it", async () => {
    const values = `/accounts/${(await accountIds())[0]}/storage/kv/namespaces/route-table-encoded/values`
    const long = "é".repeat(256) // 512 bytes of UTF-8, the limit
    const keys = ["flag:beta-search", "user:42:session", "a/b", "100%", "%25", "%zz", "€uro", "😀", long, ".env"]
    // `q;x` raw is the key `q` with a query for the router: both are there, so reading the wrong one shows.
    keys.push("a+b@c,d=e&f$g", "q?#;", "[x]|^~!'()*", "q", "q;x", "q?x")
    for (const key of keys) await put(`${values}/${encodeURIComponent(key)}`, new TextEncoder().encode(`v ${key}`))
    const sent: Array<Sent> = [
      ...keys.map((k) => encodeURIComponent(k)),
      // Colons raw, lower- and upper-case hex, every character escaped.
      ...["flag:beta-search", "flag%3abeta-search", "user%3A42%3asession", "%66lag%3Abeta-search"],
      ...["a%2fb", "a%2Fb", "a/b", "100%25", "100%", "%2525", "%2525zz", "%25zz", "%zz"],
      ...["%E2%82%ACuro", "%e2%82%acuro", "%F0%9F%98%80", "%f0%9f%98%80", encodeURIComponent(long)],
      ...[encodeURIComponent(`x${long}`), "%C3%A9".repeat(256).toLowerCase(), ".env", "%2Eenv", "%2E", "%2E%2E", "."],
      // Malformed or refused: a bad escape, a truncated or overlong sequence, a surrogate, whitespace.
      ...["%E0%80", "%C0%AF", "%ED%A0%80", "%", "flag%3", "a%20b", "a b", "%00", "%3A", "missing%3Akey"],
      ...["a+b@c,d=e&f$g", "a%2Bb%40c%2Cd%3De%26f%24g", "q%3F%23%3B", "q%3f%23%3b", "q;x", "q?x", "q#x", "[x]|^~!'()*"]
    ].map((k) => ({ path: `${values}/${k}` }))
    for (let round = 0; round < 2; round++)
      for (const s of sent) {
        const [a, b] = await Promise.all(locals.map((l) => viaLocal(l, s)))
        expect(a, `${s.method ?? "GET"} ${s.path}`).toBe(b)
      }
    // The route answered these itself (the app was not asked), and left the rest to the app.
    await withStore((db) => {
      const route = makeKvValueRoute(db, LocalKvOptions)
      const ask = (key: string) =>
        route({ method: "GET", url: `/client/v4${values}/${key}`, headers: auth(World.allToken) })
      const text = (key: string) => Buffer.from(ask(key)?.value ?? []).toString()
      for (const spelling of ["flag%3Abeta-search", "flag%3abeta-search", "flag:beta-search"])
        expect(text(spelling), spelling).toBe("v flag:beta-search")
      expect(text("a%2fb")).toBe("v a/b")
      expect(text("%2525")).toBe("v %25")
      expect(text("100%25")).toBe("v 100%")
      expect(text("%e2%82%acuro")).toBe("v €uro")
      expect(text(encodeURIComponent(long))).toBe(`v ${long}`)
      expect(text("%2Eenv")).toBe("v .env")
      expect(text("q%3F%23%3B")).toBe("v q?#;")
      expect(text("a+b@c,d=e&f$g")).toBe("v a+b@c,d=e&f$g")
      const declined = ["%zz", "%E0%80", "%ED%A0%80", "%", "a%20b", "%2E", "q;x", "missing%3Akey", "a/b"]
      for (const spelling of [...declined, encodeURIComponent(`x${long}`)])
        expect(ask(spelling), spelling).toBeUndefined()
    })
  })

  it("any key, each character raw or escaped in either case, is answered by the route as by the app", async () => {
    const values = `/accounts/${(await accountIds())[0]}/storage/kv/namespaces/route-table-fuzz/values`
    // Each character as the client sends it, raw where a path may hold it, or as its UTF-8 escapes.
    const spell = (key: string, choices: ReadonlyArray<number>) =>
      Array.from(key)
        .map((c, i) => {
          const choice = choices[i % choices.length]!
          const escaped =
            encodeURIComponent(c) === c ? `%${c.charCodeAt(0).toString(16).padStart(2, "0")}` : encodeURIComponent(c)
          const raw = /^[!-~]$/.test(c) && !/[/?#;%]/.test(c) ? c : escaped.toUpperCase()
          return choice === 0 ? raw : choice === 1 ? escaped.toUpperCase() : escaped.toLowerCase()
        })
        .join("")
    const chars = fc.constantFrom(..."aZ09.-_~:@+,=&$!'()*[]|^/%?#; é€😀\u00a0\u0007")
    await withStore(async (db) => {
      const route = makeKvValueRoute(db, LocalKvOptions)
      await fc.assert(
        fc.asyncProperty(
          fc.array(chars, { minLength: 1, maxLength: 12 }).map((a) => a.join("")),
          fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 12 }),
          async (key, choices) => {
            const client = makeLocalClient(locals[1]!.handle)
            const request = HttpClientRequest.put(`${localBase}${values}/${encodeURIComponent(key)}`, {
              headers: { authorization: `Bearer ${World.allToken}` }
            }).pipe(HttpClientRequest.bodyUint8Array(new TextEncoder().encode(`v ${key}`)))
            const stored = (await Effect.runPromise(client.execute(request))).status === 200
            const s = { path: `${values}/${spell(key, choices)}` }
            const [a, b] = await Promise.all(locals.map((l) => viaLocal(l, s)))
            expect(a, s.path).toBe(b)
            // A key the app stores is read by the route itself, whichever way it is spelled.
            const answered = route({ method: "GET", url: `/client/v4${s.path}`, headers: auth(World.allToken) })
            if (stored) expect(Buffer.from(answered?.value ?? []).toString(), s.path).toBe(`v ${key}`)
            else expect(answered, s.path).toBeUndefined()
          }
        ),
        { numRuns: 150 }
      )
    })
  })
})

describe("what the table itself answers", () => {
  it("answers the common reads and declines the rest to the app", async () => {
    await withStore((db) => {
      const table = makeRouteTable(db)
      const ask = (url: string, headers: Record<string, string> = { authorization: `Bearer ${World.allToken}` }) =>
        table({ method: "GET", url: `/client/v4${url}`, headers })
      expect(JSON.parse(ask(`/zones/${ACME}`) ?? "null").result.name).toBe("acme.com")
      expect(JSON.parse(ask(`/zones/${ACME}/dns_records?per_page=5&page=2`) ?? "null").result_info.page).toBe(2)
      expect(ask(`/zones/${ACME}/dns_records?type=A&name=contains:www&match=any`)).toBeTypeOf("string")
      expect(JSON.parse(ask("/zones?name=acme.com&per_page=5") ?? "null").result[0].id).toBe(ACME)
      expect(JSON.parse(ask("/accounts?per_page=50") ?? "null").result.length).toBeGreaterThan(1)
      const zoneRoutes = [`/zones/${ACME}/`, `/zones/${ACME}?x=1`, `/zones/${ACME}/dns_records?page=0`]
      for (const declined of [...zoneRoutes, "/zones/", "/zones?type=full", "/zones?per_page=51", "/accounts?x=1"])
        expect(ask(declined), declined).toBeUndefined()
      expect(ask(`/zones/${ACME}`, { authorization: "Bearer nope" })).toBeUndefined()
      expect(table({ method: "HEAD", url: `/client/v4/zones/${ACME}`, headers: {} })).toBeUndefined()
    })
  })
})

describe("credentials", () => {
  it("a token revoked in the store is refused on the next request, through the table and the app", async () => {
    const zone = `/zones/${ACME}`
    const headers = { authorization: `Bearer ${World.acmeToken}` }
    expect(await answer(withTable, { path: zone, headers })).toMatch(/^200 /)
    expect(await answer(withoutTable, { path: zone, headers })).toMatch(/^200 /)
    const db = new Database(path.join(stateDir, "platform.sqlite"))
    const hash = createHash("sha256").update(World.acmeToken).digest("hex")
    try {
      expect(db.prepare("UPDATE tokens SET status = 'disabled' WHERE secret_hash = ?").run(hash).changes).toBe(1)
      for (const base of [withTable, withoutTable]) {
        const refused = await answer(base, { path: zone, headers })
        expect(refused).toMatch(/^403 /)
        expect(refused).toContain('"code":9109')
      }
    } finally {
      db.prepare("UPDATE tokens SET status = 'active' WHERE secret_hash = ?").run(hash)
      db.close()
    }
    expect(await answer(withTable, { path: zone, headers })).toMatch(/^200 /)
  })
})

describe("a damaged store", () => {
  it("a zone or a record off its schema is answered as the app answers it", async () => {
    const db = new Database(path.join(stateDir, "platform.sqlite"))
    const plan = db.prepare("SELECT plan FROM zones WHERE id = ?").pluck().get(ACME) as string
    const record = db.prepare("SELECT id, ttl FROM dns_records WHERE zone_id = ? LIMIT 1").get(ACME) as {
      id: string
      ttl: number
    }
    try {
      db.prepare("UPDATE zones SET plan = ? WHERE id = ?").run('{"id": 5, "name": "numbered"}', ACME)
      db.prepare("UPDATE dns_records SET ttl = 'soon' WHERE id = ?").run(record.id)
      await same([{ path: zone }, { path: `${dns}?per_page=5000` }])
      // Refused (the encoder fails), not answered with the damaged plan.
      expect(await answer(withTable, { path: zone })).not.toMatch(/^200 /)
    } finally {
      db.prepare("UPDATE zones SET plan = ? WHERE id = ?").run(plan, ACME)
      db.prepare("UPDATE dns_records SET ttl = ? WHERE id = ?").run(record.ttl, record.id)
      db.close()
    }
  })
})

describe("a row the platform cannot encode into its answer", () => {
  const localBase = `${LocalBase.replace(BasePath, "")}${BasePath}`
  const locals = [makeLocalHandler(storeFile(stateDir)), makeLocalHandler(storeFile(stateDir), { routeTable: false })]
  afterAll(() => Promise.all(locals.map((l) => l.dispose())))
  const viaLocal = async (local: (typeof locals)[number], p: string) => {
    const request = HttpClientRequest.get(localBase + p, { headers: auth(World.allToken) })
    const response = await Effect.runPromise(makeLocalClient(local.handle).execute(request))
    return `${response.status} ${JSON.stringify(response.headers)}\n${await Effect.runPromise(response.text)}`
  }
  /** Runs `check` with one column of one row replaced, then puts the row back. */
  const damaged = async (table: string, column: string, id: string, value: unknown, check: () => Promise<void>) => {
    const db = new Database(path.join(stateDir, "platform.sqlite"))
    const before = db.prepare(`SELECT ${column} FROM ${table} WHERE id = ?`).pluck().get(id)
    try {
      expect(db.prepare(`UPDATE ${table} SET ${column} = ? WHERE id = ?`).run(value, id).changes).toBe(1)
      await check()
    } finally {
      db.prepare(`UPDATE ${table} SET ${column} = ? WHERE id = ?`).run(before, id)
      db.close()
    }
  }
  const internal = /^500 .*\n\{"result":null,"success":false,"errors":\[\{"code":10001,"message":"internal error/

  it("is the app's 500 through the table too, served and in-process: a zone, a DNS page, the zones list", async () => {
    const record = new Database(path.join(stateDir, "platform.sqlite"), { readonly: true })
    const recordId = record.prepare("SELECT id FROM dns_records WHERE zone_id = ? LIMIT 1").pluck().get(ACME) as string
    record.close()
    const cases: ReadonlyArray<readonly [string, string, string, unknown, ReadonlyArray<string>]> = [
      ["zones", "plan", ACME, '{"id": 5, "name": "numbered"}', [zone, "/zones?per_page=50"]],
      ["zones", "status", ACME, Buffer.from("bytes"), [zone, "/zones?name=acme.com"]],
      ["zones", "meta", ACME, "{not json", [zone, "/zones"]],
      ["dns_records", "ttl", recordId, "soon", [`${dns}?per_page=5000`]],
      ["dns_records", "name", recordId, Buffer.from("bytes"), [`${dns}?per_page=5000&order=ttl`]]
    ]
    for (const [table, column, id, value, paths] of cases)
      await damaged(table, column, id, value, async () => {
        await same(paths.map((p) => ({ path: p })))
        for (const p of paths) {
          expect(await answer(withTable, { path: p }), `${table}.${column} ${p}`).toMatch(internal)
          const [a, b] = await Promise.all(locals.map((l) => viaLocal(l, p)))
          expect(a, `${table}.${column} ${p}`).toBe(b)
          expect(a).toMatch(internal)
        }
      })
  })

  it("a zone's firewall rules list (firewall-lists-route.ts) with a rule off its schema", async () => {
    const db = new Database(path.join(stateDir, "platform.sqlite"), { readonly: true })
    const rule = db.prepare("SELECT id FROM firewall_rules WHERE zone_id = ? LIMIT 1").pluck().get(ACME) as string
    db.close()
    const rules = `/zones/${ACME}/firewall/rules?per_page=100`
    for (const value of ['{"a": 1}', "[not json"])
      await damaged("firewall_rules", "products", rule, value, async () => {
        const [a, b] = await Promise.all(locals.map((l) => viaLocal(l, rules)))
        expect(a, value).toBe(b)
        expect(a, value).toMatch(internal)
      })
  })

  it("a zone's filters list (firewall-lists-route.ts) with a filter off its schema", async () => {
    const db = new Database(path.join(stateDir, "platform.sqlite"), { readonly: true })
    const filter = db.prepare("SELECT id FROM firewall_filters WHERE zone_id = ? LIMIT 1").pluck().get(ACME) as string
    db.close()
    const filters = `/zones/${ACME}/filters?per_page=100`
    for (const value of [Buffer.from("bytes"), Buffer.from([0xff, 0xfe])])
      await damaged("firewall_filters", "expression", filter, value, async () => {
        const [a, b] = await Promise.all(locals.map((l) => viaLocal(l, filters)))
        expect(a, String(value)).toBe(b)
        expect(a, String(value)).toMatch(internal)
      })
  })
})
