/**
 * Keyset pagination (src/store/seek.ts) answers exactly what `COUNT(*)` and `LIMIT/OFFSET` would on
 * the store as it is at each request: page numbers, `count`, `total_count` and `total_pages` at the
 * boundaries, in any order of reading, with rows inserted and deleted between pages, both by the
 * server itself (its own connection) and by another process's connection to the same file.
 */
import Database from "better-sqlite3"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, startPlatform, type Platform } from "../helpers/platform.js"

let platform: Platform
/** Another connection to the platform's SQLite file, as another process would write it. */
let other: Database.Database
let accountIds: Array<string>
let acme: string

interface PageInfo {
  readonly page: number
  readonly per_page: number
  readonly count: number
  readonly total_count: number
  readonly total_pages: number
}

const get = async (pathAndQuery: string) => {
  const a = await request<{ result: Array<{ id: string; name: string }>; result_info: PageInfo }>(
    platform.baseUrl,
    pathAndQuery
  )
  expect(a.status, JSON.stringify(a.body).slice(0, 300)).toBe(200)
  return { names: a.body.result.map((r) => r.name), ids: a.body.result.map((r) => r.id), info: a.body.result_info }
}

/** The zones the caller sees, in the API's default order, straight from the file. */
const zoneNames = (order = "z.name ASC"): Array<string> =>
  (
    other
      .prepare(
        `SELECT z.name FROM zones z WHERE z.account_id IN (${accountIds.map(() => "?").join(", ")}) AND z.type <> 'internal' ORDER BY ${order}`
      )
      .all(...accountIds) as Array<{ name: string }>
  ).map((r) => r.name)

const addZone = (name: string) =>
  other
    .prepare(
      `INSERT INTO zones (id, name, account_id, status, paused, type, plan, development_mode, name_servers,
        original_name_servers, original_registrar, original_dnshost, created_on, modified_on, activated_on, meta, owner)
      SELECT lower(hex(randomblob(16))), ?, account_id, status, paused, type, plan, development_mode, name_servers,
        original_name_servers, original_registrar, original_dnshost, created_on, modified_on, activated_on, meta, owner
      FROM zones WHERE name = 'acme.com'`
    )
    .run(name)

const expectPage = async (query: string, all: ReadonlyArray<string>, page: number, perPage: number) => {
  const p = await get(`/zones?per_page=${perPage}&page=${page}${query}`)
  expect(p.names).toEqual(all.slice((page - 1) * perPage, page * perPage))
  expect(p.info).toEqual({
    page,
    per_page: perPage,
    count: Math.max(0, Math.min(perPage, all.length - (page - 1) * perPage)),
    total_count: all.length,
    total_pages: Math.ceil(all.length / perPage)
  })
}

beforeAll(async () => {
  platform = await startPlatform()
  // The first request creates and seeds the store.
  const accounts = await request<{ result: Array<{ id: string }> }>(platform.baseUrl, "/accounts?per_page=50")
  accountIds = accounts.body.result.map((a) => a.id)
  other = new Database(path.join(platform.stateDir, "platform.sqlite"))
  other.pragma("busy_timeout = 5000")
  acme = (other.prepare("SELECT id FROM zones WHERE name = 'acme.com'").get() as { id: string }).id
  // Enough zones for many pages: 3 × 40 more, sorting before, among and after the demo's.
  other.transaction(() => {
    for (let i = 0; i < 40; i++) {
      const n = String(i).padStart(2, "0")
      addZone(`aaa-${n}.example`)
      addZone(`h-${n}.example`)
      addZone(`zzz-${n}.example`)
    }
  })()
})

afterAll(async () => {
  other?.close()
  await platform?.close()
})

describe("GET /zones, page by page", () => {
  it("walked forwards, the pages join into the whole list, with exact counts at every page and past the last", async () => {
    const all = zoneNames()
    expect(all.length).toBeGreaterThan(150)
    for (const perPage of [7, 50]) {
      const pages = Math.ceil(all.length / perPage)
      for (let page = 1; page <= pages + 1; page++) await expectPage("", all, page, perPage)
    }
  })

  it("read in any order (last, middle, first, one past the end), every page is the same slice", async () => {
    const all = zoneNames()
    const pages = Math.ceil(all.length / 9)
    for (const page of [pages, Math.ceil(pages / 2), 1, pages - 1, 2, pages + 1, pages])
      await expectPage("", all, page, 9)
  })

  it("in every order the API offers, both directions", async () => {
    for (const [order, sql] of [
      ["name", "z.name"],
      ["status", "z.status"],
      ["account.id", "z.account_id"],
      ["plan.id", "json_extract(z.plan, '$.id')"]
    ] as const) {
      for (const direction of ["asc", "desc"] as const) {
        const dir = direction.toUpperCase()
        const all = zoneNames(order === "name" ? `z.name ${dir}` : `${sql} ${dir}, z.name ${dir}`)
        const query = `&order=${order}&direction=${direction}`
        const pages = Math.ceil(all.length / 11)
        for (let page = 1; page <= pages; page++) await expectPage(query, all, page, 11)
        await expectPage(query, all, pages, 11)
      }
    }
  })

  it("a zone added by another connection between pages: the total grows, the next pages shift, the last page gains it", async () => {
    const perPage = 10
    let all = zoneNames()
    await expectPage("", all, 1, perPage)
    await expectPage("", all, 2, perPage)
    // Fill the last page exactly, then one more: a new page appears.
    const fill = perPage - (all.length % perPage)
    for (let i = 0; i < fill; i++) addZone(`zzzz-fill-${i}.example`)
    all = zoneNames()
    expect(all.length % perPage).toBe(0)
    const pages = all.length / perPage
    await expectPage("", all, pages, perPage)
    await expectPage("", all, pages + 1, perPage)
    addZone("zzzzz-one-more.example")
    all = zoneNames()
    await expectPage("", all, pages + 1, perPage)
    expect((await get(`/zones?per_page=${perPage}&page=${pages + 1}`)).names).toEqual(["zzzzz-one-more.example"])
    // One sorting before page 3, read after page 2: page 3 starts one row earlier.
    await expectPage("", all, 2, perPage)
    addZone("a-early.example")
    all = zoneNames()
    await expectPage("", all, 3, perPage)
    for (let page = 1; page <= pages + 2; page++) await expectPage("", all, page, perPage)
  })

  it("zones deleted by another connection between pages: the page after them, the total and the last page follow", async () => {
    const perPage = 10
    let all = zoneNames()
    for (let page = 1; page <= 4; page++) await expectPage("", all, page, perPage)
    // The last row of page 4, the first of page 5: the seek must not start from a deleted key.
    other.prepare("DELETE FROM zones WHERE name IN (?, ?)").run(all[39], all[40])
    all = zoneNames()
    await expectPage("", all, 5, perPage)
    await expectPage("", all, 4, perPage)
    const last = Math.ceil(all.length / perPage)
    await expectPage("", all, last, perPage)
    // Delete down to a whole number of pages: the page past them is empty, the page count drops.
    const extra = all.length % perPage
    if (extra > 0)
      other
        .prepare(
          `DELETE FROM zones WHERE name IN (${all
            .slice(-extra)
            .map(() => "?")
            .join(", ")})`
        )
        .run(...all.slice(-extra))
    all = zoneNames()
    expect(all.length % perPage).toBe(0)
    await expectPage("", all, all.length / perPage, perPage)
    await expectPage("", all, all.length / perPage + 1, perPage)
  })
})

describe("GET /zones/{id}/dns_records, page by page", () => {
  const records = (): Array<string> =>
    (
      other.prepare("SELECT id FROM dns_records WHERE zone_id = ? ORDER BY type, name, seq").all(acme) as Array<{
        id: string
      }>
    ).map((r) => r.id)

  const expectDnsPage = async (all: ReadonlyArray<string>, page: number, perPage: number) => {
    const p = await get(`/zones/${acme}/dns_records?per_page=${perPage}&page=${page}`)
    expect(p.ids).toEqual(all.slice((page - 1) * perPage, page * perPage))
    expect(p.info.total_count).toBe(all.length)
    expect(p.info.total_pages).toBe(Math.ceil(all.length / perPage))
  }

  it("records created through the API (the server's own writes) and deleted by another connection between pages", async () => {
    // Many records of one type and name: the order's tie-break (creation order) crosses pages.
    for (let i = 0; i < 23; i++) {
      const a = await request(platform.baseUrl, `/zones/${acme}/dns_records`, {
        method: "POST",
        body: { type: "TXT", name: "same.acme.com", content: `v=${i}`, ttl: 300 }
      })
      expect(a.status, JSON.stringify(a.body)).toBe(200)
    }
    let all = records()
    const perPage = 5
    const pages = Math.ceil(all.length / perPage)
    for (let page = 1; page <= pages + 1; page++) await expectDnsPage(all, page, perPage)
    await expectDnsPage(all, 3, perPage)
    const created = await request(platform.baseUrl, `/zones/${acme}/dns_records`, {
      method: "POST",
      body: { type: "A", name: "aaa.acme.com", content: "192.0.2.1", ttl: 300 }
    })
    expect(created.status).toBe(200)
    all = records()
    await expectDnsPage(all, 4, perPage)
    other.prepare("DELETE FROM dns_records WHERE id IN (?, ?)").run(all[19], all[20])
    all = records()
    for (const page of [5, 4, Math.ceil(all.length / perPage), 1]) await expectDnsPage(all, page, perPage)
  })
})

describe("KV keys by cursor and namespaces by page", () => {
  const acmeAccount = () =>
    (other.prepare("SELECT account_id FROM zones WHERE name = 'acme.com'").get() as { account_id: string }).account_id
  const kvBase = () => `/accounts/${acmeAccount()}/storage/kv/namespaces`

  it("a cursor goes on after its key: keys written after it appear, keys deleted after it do not, none twice", async () => {
    const created = await request(platform.baseUrl, kvBase(), { method: "POST", body: { title: "pages" } })
    expect(created.status).toBe(200)
    const ns = created.body.result.id as string
    const keys = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `k${String(from + i).padStart(3, "0")}`)
    const put = await request(platform.baseUrl, `${kvBase()}/${ns}/bulk`, {
      method: "PUT",
      body: keys(0, 30).map((key) => ({ key, value: "v" }))
    })
    expect(put.status).toBe(200)
    const page = async (cursor: string) => {
      const a = await request(
        platform.baseUrl,
        `${kvBase()}/${ns}/keys?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`
      )
      expect(a.status).toBe(200)
      return {
        names: (a.body.result as Array<{ name: string }>).map((k) => k.name),
        cursor: a.body.result_info.cursor as string
      }
    }
    const first = await page("")
    expect(first.names).toEqual(keys(0, 10))
    // Between pages: one key before the cursor (not listed), one after (listed), the next one deleted.
    for (const key of ["a-before", "k0105"]) {
      const a = await request(platform.baseUrl, `${kvBase()}/${ns}/values/${key}`, { method: "PUT", body: "x" })
      expect(a.status).toBe(200)
    }
    expect((await request(platform.baseUrl, `${kvBase()}/${ns}/values/k010`, { method: "DELETE" })).status).toBe(200)
    const second = await page(first.cursor)
    expect(second.names).toEqual([...keys(11, 20)].flatMap((k) => (k === "k011" ? ["k0105", k] : [k])).slice(0, 10))
    const seen = [...first.names, ...second.names]
    let cursor = second.cursor
    while (cursor !== "") {
      const p = await page(cursor)
      seen.push(...p.names)
      cursor = p.cursor
    }
    expect(seen).toEqual([...keys(0, 10), "k0105", ...keys(11, 30)])
  })

  it("namespaces: every page in both orders, with one created and one deleted between pages", async () => {
    for (let i = 0; i < 12; i++) {
      const a = await request(platform.baseUrl, kvBase(), {
        method: "POST",
        body: { title: `ns-${String(i).padStart(2, "0")}` }
      })
      expect(a.status).toBe(200)
    }
    const titles = (direction: "asc" | "desc") =>
      (
        other
          .prepare(`SELECT title FROM kv_namespaces WHERE account_id = ? ORDER BY title ${direction.toUpperCase()}`)
          .all(acmeAccount()) as Array<{ title: string }>
      ).map((r) => r.title)
    const expectNsPage = async (direction: "asc" | "desc", page: number) => {
      const all = titles(direction)
      const a = await request(
        platform.baseUrl,
        `${kvBase()}?per_page=5&page=${page}&order=title&direction=${direction}`
      )
      expect(a.status).toBe(200)
      expect((a.body.result as Array<{ title: string }>).map((n) => n.title)).toEqual(
        all.slice((page - 1) * 5, page * 5)
      )
      expect(a.body.result_info.total_count).toBe(all.length)
    }
    for (const direction of ["asc", "desc"] as const) {
      await expectNsPage(direction, 1)
      await expectNsPage(direction, 2)
      const made = await request(platform.baseUrl, kvBase(), { method: "POST", body: { title: "a-first" } })
      const id = made.body.result.id as string
      await expectNsPage(direction, 3)
      await expectNsPage(direction, 2)
      expect((await request(platform.baseUrl, `${kvBase()}/${id}`, { method: "DELETE" })).status).toBe(200)
      for (let page = 1; page <= 5; page++) await expectNsPage(direction, page)
    }
  })
})
