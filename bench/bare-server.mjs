// The reference point of the throughput bench: a bare node:http server that answers the benched
// requests (GET /zones, GET /zones/:id, GET /zones/:id/dns_records) with the same bytes as the
// embedded platform, from the same SQLite file, with better-sqlite3 and the same queries and token
// check, and nothing else: no framework, no schema, no validation beyond what the queries need.
//
//   node bench/bare-server.mjs <platform.sqlite> [port] [dns-data.mjs]   prints one JSON line: {"baseUrl": ...}
//
// dns-data.mjs: src/domain/dns-data.ts bundled (platform.bench.mjs builds it), for the `data` of
// structured records (SRV, CAA, …), which the platform derives from their content.
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import { pathToFileURL } from "node:url"

const [file, portArg = "0", dnsDataModule] = process.argv.slice(2)
if (!file) {
  process.stderr.write("usage: node bench/bare-server.mjs <platform.sqlite> [port]\n")
  process.exit(2)
}
const { dataFromContent } = dnsDataModule
  ? await import(pathToFileURL(dnsDataModule).href)
  : { dataFromContent: () => undefined }
const db = new Database(file, { fileMustExist: true })
db.pragma("busy_timeout = 5000")

const ZONE_SELECT = "SELECT z.*, a.name AS account_name FROM zones z JOIN accounts a ON a.id = z.account_id"
const q = {
  token: db.prepare("SELECT * FROM tokens WHERE secret_hash = ?"),
  tokenAccounts: db.prepare("SELECT account_id FROM token_accounts WHERE token_id = ?"),
  members: db.prepare(
    "SELECT account_id FROM memberships WHERE user_id = ? AND status = 'accepted' ORDER BY account_id"
  ),
  zone: db.prepare(`${ZONE_SELECT} WHERE z.id = ?`),
  dnsCount: db.prepare("SELECT COUNT(*) AS n FROM dns_records WHERE zone_id = ?"),
  dnsPage: db.prepare("SELECT * FROM dns_records WHERE zone_id = ? ORDER BY type ASC, name ASC, seq LIMIT ? OFFSET ?")
}
const zoneLists = new Map()
const zoneList = (n) => {
  let s = zoneLists.get(n)
  if (!s) {
    const where = (column) => `WHERE ${column} IN (${Array(n).fill("?").join(", ")}) AND z.type <> 'internal'`
    // The same query plans as the platform's (src/store/zones-repo.ts): the name index for many zones.
    s = {
      count: db.prepare(
        `SELECT COUNT(*) AS n FROM zones z JOIN accounts a ON a.id = z.account_id ${where("z.account_id")}`
      ),
      page: db.prepare(`${ZONE_SELECT} ${where("z.account_id")} ORDER BY z.name ASC LIMIT ? OFFSET ?`),
      pageByName: db.prepare(`${ZONE_SELECT} ${where("+z.account_id")} ORDER BY z.name ASC LIMIT ? OFFSET ?`)
    }
    zoneLists.set(n, s)
  }
  return s
}

const json = (s, fallback) => (typeof s === "string" ? JSON.parse(s) : fallback)
const PERMISSIONS = ["#zone:read", "#zone:edit", "#dns_records:read", "#dns_records:edit", "#ssl:read"]

// Field order as the platform's schemas encode them.
const zone = (r) => ({
  id: r.id,
  name: r.name,
  status: r.status,
  paused: r.paused === 1,
  type: r.type,
  development_mode: r.development_mode,
  name_servers: json(r.name_servers, []),
  original_name_servers: json(r.original_name_servers, null),
  original_registrar: r.original_registrar ?? null,
  original_dnshost: r.original_dnshost ?? null,
  created_on: r.created_on,
  modified_on: r.modified_on,
  activated_on: r.activated_on ?? null,
  meta: json(r.meta, {}),
  // A zone without an organization is the user's: the platform always names the owner's kind.
  owner: ((o) => ({ ...o, type: o.type ?? "user" }))(json(r.owner, {})),
  account: { id: r.account_id, name: r.account_name },
  plan: json(r.plan, undefined),
  permissions: PERMISSIONS
})
const dns = (r) => {
  const o = { id: r.id, type: r.type, name: r.name, content: r.content }
  const data = dataFromContent(r.type, r.content, r.priority)
  if (data !== undefined) o.data = data
  if (r.priority !== null) o.priority = r.priority
  o.proxiable = r.proxiable === 1
  o.proxied = r.proxied === 1
  o.ttl = r.ttl
  o.settings = {}
  o.comment = r.comment ?? null
  o.tags = json(r.tags, [])
  o.meta = {}
  o.created_on = r.created_on
  o.modified_on = r.modified_on
  return o
}

const send = (res, status, body) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}
const ok = (res, result, result_info) =>
  send(
    res,
    200,
    result_info
      ? { result, result_info, success: true, errors: [], messages: [] }
      : { result, success: true, errors: [], messages: [] }
  )
const fail = (res, status, code, message) =>
  send(res, status, { result: null, success: false, errors: [{ code, message }], messages: [] })
const pageInfo = (page, perPage, total, count) => ({
  page,
  per_page: perPage,
  count,
  total_count: total,
  total_pages: Math.ceil(total / perPage)
})
const int = (v, fallback) => (v === null ? fallback : Number(v))

const accountsOf = (authorization) => {
  const m = /^Bearer (.*)$/i.exec((authorization ?? "").trim())
  if (!m) return undefined
  const t = q.token.get(createHash("sha256").update(m[1].trim()).digest("hex"))
  if (!t || t.status !== "active") return undefined
  return t.all_accounts === 1
    ? q.members.all(t.user_id).map((r) => r.account_id)
    : q.tokenAccounts.all(t.id).map((r) => r.account_id)
}

const ROUTE = /^\/client\/v4\/zones(?:\/([^/]+)(\/dns_records)?)?\/?$/

const server = createServer((req, res) => {
  const url = new URL(req.url, "http://localhost")
  const m = ROUTE.exec(url.pathname)
  if (req.method !== "GET" || !m) return fail(res, 404, 7000, `No route for that URI: ${req.method} ${url.pathname}`)
  if (req.headers.authorization === undefined)
    return fail(res, 400, 9106, "Missing X-Auth-Key, X-Auth-Email or Authorization headers")
  const accounts = accountsOf(req.headers.authorization)
  if (!accounts) return fail(res, 403, 9109, "Invalid access token")
  const [, zoneId, dnsSuffix] = m
  if (zoneId === undefined) {
    const page = int(url.searchParams.get("page"), 1)
    const perPage = int(url.searchParams.get("per_page"), 20)
    const s = zoneList(accounts.length)
    const total = s.count.get(...accounts).n
    const rows = (total > 500 ? s.pageByName : s.page).all(...accounts, perPage, (page - 1) * perPage)
    return ok(res, rows.map(zone), pageInfo(page, perPage, total, rows.length))
  }
  const z = q.zone.get(zoneId)
  if (!z || !accounts.includes(z.account_id)) {
    return fail(
      res,
      404,
      7003,
      `Could not route to /zones/${zoneId}${dnsSuffix ?? ""}, perhaps your object identifier is invalid?`
    )
  }
  if (!dnsSuffix) return ok(res, zone(z))
  const page = int(url.searchParams.get("page"), 1)
  const perPage = int(url.searchParams.get("per_page"), 100)
  const total = q.dnsCount.get(zoneId).n
  const rows = q.dnsPage.all(zoneId, perPage, (page - 1) * perPage)
  return ok(res, rows.map(dns), pageInfo(page, perPage, total, rows.length))
})

server.listen(Number(portArg), "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${server.address().port}/client/v4` })}\n`)
})
const stop = () => server.close(() => process.exit(0))
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
