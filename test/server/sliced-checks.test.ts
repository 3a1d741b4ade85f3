/**
 * Expressions of a large filters or rules body are checked in slices (src/server/firewall-ops.ts):
 * small GETs on other connections are answered while they are checked, and a bad expression
 * anywhere still writes nothing, with the error of the first bad one. A rule DELETE's body is read
 * as parsed JSON, so a large one streams (body-guard.ts) with the answers of the whole text.
 */
import * as http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, startPlatform, World, type Platform } from "../helpers/platform.js"

let p: Platform
let zone = ""
/** Another zone, for the DELETEs (the rules POST above fills the first one's quota). */
let other = ""

beforeAll(async () => {
  p = await startPlatform()
  const zones = (await request(p.baseUrl, "/zones")).body.result as Array<{ id: string }>
  zone = zones[0]!.id
  other = zones[1]!.id
})
afterAll(async () => {
  await p?.close()
})

/** An expression that costs the checker a while (~0.3 ms): 150 addresses and three clauses. */
const costly = (tag: string, i: number) =>
  `(http.host eq "${tag}${i}.example" and http.request.uri.path contains "/p${i}") or ip.src in {${Array.from(
    { length: 150 },
    (_, k) => `10.${i % 250}.${k}.1`
  ).join(" ")}} or http.user_agent contains "bot${i}"`

const count = async (what: "filters" | "firewall/rules") =>
  (await request(p.baseUrl, `/zones/${zone}/${what}?per_page=5`)).body.result_info.total_count as number

interface Raw {
  readonly status: number
  readonly body: { success: boolean; result: any; errors: Array<{ code: number; message: string }> }
}

/**
 * Sends `body` but its last byte, lets the server read that while small GETs run on other
 * connections, one after another, then sends the last byte: the GETs answered from then until the
 * answer starts are those the server answered while it handled the whole body (checks and writes).
 */
const whileHandled = (
  method: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
  /** Called once the last byte is sent: the server is about to check the body. */
  handling: () => void = () => {}
) =>
  new Promise<{ answer: Raw; getsAfterSent: number }>((resolve, reject) => {
    const url = new URL(p.baseUrl + path)
    let phase = "reading" as "reading" | "handling" | "done"
    let getsWhileRead = 0
    let getsAfterSent = 0
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: { authorization: `Bearer ${World.allToken}`, "content-type": "application/json", ...headers }
      },
      (res) => {
        // Answered: the GETs that end after this one are not counted (a long answer is written in pieces).
        phase = "done"
        const parts: Array<Buffer> = []
        res.on("data", (d: Buffer) => parts.push(d))
        res.on("end", () => {
          const answer = { status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString("utf8")) }
          void gets.then(() => resolve({ answer, getsAfterSent }), reject)
        })
      }
    )
    req.on("error", reject)
    let written = false
    const gets = (async () => {
      while (phase !== "done") {
        const r = await request(p.baseUrl, `/zones/${zone}`)
        expect(r.status).toBe(200)
        if (phase === "handling") getsAfterSent++
        // The server reads as the bytes arrive, between these GETs: 60 after the write, it has them.
        else if (written && ++getsWhileRead === 60) {
          phase = "handling"
          req.end(body.slice(-1))
          handling()
        }
      }
    })()
    req.write(body.slice(0, -1), () => (written = true))
  })

describe("expressions of a large body checked in slices", () => {
  it("answers GETs on other connections while 1,000 filters' expressions are checked, then creates them all", async () => {
    const before = await count("filters")
    const items = Array.from({ length: 1000 }, (_, i) => ({ expression: costly("ok", i), description: `ok ${i}` }))
    const { answer, getsAfterSent } = await whileHandled("POST", `/zones/${zone}/filters`, JSON.stringify(items))
    expect(answer.status).toBe(200)
    expect(answer.body.result.map((f: { expression: string }) => f.expression)).toEqual(items.map((f) => f.expression))
    expect(await count("filters")).toBe(before + 1000)
    // Checked in one stretch (before the slices), the event loop had no turn for them: 0.
    expect(getsAfterSent).toBeGreaterThanOrEqual(3)
  })

  it("writes nothing when expressions at the end are bad, naming the first bad one as before", async () => {
    const before = await count("filters")
    const items = Array.from({ length: 1000 }, (_, i) => ({ expression: costly("bad", i) }))
    items[998] = { expression: `${costly("bad", 998)} or http.host eq` }
    items[999] = { expression: "http.host eq 5" }
    const { answer, getsAfterSent } = await whileHandled("POST", `/zones/${zone}/filters`, JSON.stringify(items))
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toHaveLength(1)
    expect(answer.body.errors[0]!.code).toBe(10110)
    const message = answer.body.errors[0]!.message
    expect(message.startsWith("[998].expression: Filter parsing error:\n`")).toBe(true)
    expect(
      message.endsWith(
        " or http.host eq`\n" + " ".repeat(items[998]!.expression.length + 1) + "^ expected a value after `eq`\n"
      )
    ).toBe(true)
    expect(await count("filters")).toBe(before)
    expect(getsAfterSent).toBeGreaterThanOrEqual(3)
  })

  it("slices a rules POST's new filters the same way, all or nothing", async () => {
    const rules = Array.from({ length: 1000 }, (_, i) => ({
      action: "block",
      filter: { expression: costly("rule", i) }
    }))
    const [rulesBefore, filtersBefore] = [await count("firewall/rules"), await count("filters")]
    const bad = [...rules.slice(0, 999), { action: "block", filter: { expression: "http.host eq" } }]
    const refused = await whileHandled("POST", `/zones/${zone}/firewall/rules`, JSON.stringify(bad))
    expect(refused.answer.status).toBe(400)
    expect(refused.answer.body.errors[0]!.message.startsWith("[999].filter.expression: Filter parsing error:")).toBe(
      true
    )
    expect([await count("firewall/rules"), await count("filters")]).toEqual([rulesBefore, filtersBefore])
    const { answer, getsAfterSent } = await whileHandled("POST", `/zones/${zone}/firewall/rules`, JSON.stringify(rules))
    expect(answer.status).toBe(200)
    expect(answer.body.result).toHaveLength(1000)
    // Each rule answered with its own filter, in the body's order (written several rows to a statement).
    const written = answer.body.result as Array<{ id: string; filter: { id: string; expression: string } }>
    expect(written.map((r) => r.filter.expression)).toEqual(rules.map((r) => r.filter.expression))
    expect(new Set(written.map((r) => r.filter.id)).size).toBe(1000)
    const last = await request(p.baseUrl, `/zones/${zone}/firewall/rules/${written[999]!.id}`)
    expect(last.body.result.filter).toEqual(written[999]!.filter)
    expect(getsAfterSent).toBeGreaterThanOrEqual(3)
  })
})

describe("a filters update whose filter is deleted while its expressions are checked", () => {
  it("answers that the filter is gone and changes nothing", async () => {
    const created = await request(p.baseUrl, `/zones/${other}/filters`, {
      method: "POST",
      body: Array.from({ length: 1000 }, (_, i) => ({ expression: costly("upd", i) }))
    })
    expect(created.status).toBe(200)
    const filters = created.body.result as Array<{ id: string; expression: string }>
    const updates = filters.map((f, i) => ({ id: f.id, expression: costly("changed", i) }))
    const gone = filters[500]!.id
    let deleted: Promise<number> | undefined
    const { answer } = await whileHandled("PUT", `/zones/${other}/filters`, JSON.stringify(updates), {}, () => {
      deleted = request(p.baseUrl, `/zones/${other}/filters/${gone}`, { method: "DELETE" }).then((r) => r.status)
    })
    expect(await deleted).toBe(200)
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0]!.message).toBe(`invalid request body: [500].id: no filter ${gone} in this zone`)
    const kept = await request(p.baseUrl, `/zones/${other}/filters/${filters[0]!.id}`)
    expect(kept.body.result.expression).toBe(filters[0]!.expression)
  })
})

describe("a rule DELETE's body, streamed", () => {
  /** A rule of a new filter; its id and its filter's. */
  const newRule = async (tag: string) => {
    const r = await request(p.baseUrl, `/zones/${other}/firewall/rules`, {
      method: "POST",
      body: [{ action: "block", filter: { expression: `http.host eq "${tag}.delete.example"` } }]
    })
    expect(r.status).toBe(200)
    return { id: r.body.result[0].id as string, filter: r.body.result[0].filter.id as string }
  }
  const filterExists = async (id: string) => (await request(p.baseUrl, `/zones/${other}/filters/${id}`)).status === 200
  /** A large body (over the 1 MiB whole-text size), sent chunked (whileHandled): it streams. */
  const padded = (json: string) => `${" ".repeat(2_000_000)}${json}`
  // Node frames a DELETE's body only when asked to.
  const del = (id: string, body: string) =>
    whileHandled("DELETE", `/zones/${other}/firewall/rules/${id}`, body, { "transfer-encoding": "chunked" })

  it("reads delete_filter_if_unused from a large chunked JSON body", async () => {
    const a = await newRule("yes")
    const r = await del(a.id, padded(`{"delete_filter_if_unused": true, "notes": "${"n".repeat(3_000_000)}"}`))
    expect(r.answer.status).toBe(200)
    expect(r.answer.body.result).toEqual([{ id: a.id }])
    expect(await filterExists(a.filter)).toBe(false)

    const b = await newRule("no")
    expect((await del(b.id, padded(`{"delete_filter_if_unused": false}`))).answer.status).toBe(200)
    expect(await filterExists(b.filter)).toBe(true)
    const c = await newRule("blank")
    expect((await del(c.id, padded(""))).answer.status).toBe(200)
    expect(await filterExists(c.filter)).toBe(true)
  })

  it("refuses a large body that is not JSON or has a wrong value, deleting nothing", async () => {
    const a = await newRule("refused")
    const notJson = await del(a.id, padded(`{"delete_filter_if_unused": true,}`))
    expect(notJson.answer.status).toBe(400)
    expect(notJson.answer.body.errors[0]!.message).toBe(
      'the body of a rule DELETE must be JSON: {"delete_filter_if_unused": true}'
    )
    const wrong = await del(a.id, padded(`{"delete_filter_if_unused": "yes"}`))
    expect(wrong.answer.status).toBe(400)
    expect(wrong.answer.body.errors[0]!.message).toBe('delete_filter_if_unused must be true or false, got "yes"')
    expect((await request(p.baseUrl, `/zones/${other}/firewall/rules/${a.id}`)).status).toBe(200)
  })
})
