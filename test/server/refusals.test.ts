/**
 * A body refused before its end (over the size limit from Content-Length, or once a chunked body
 * crosses it) is answered at once and left unread: the answer says `Connection: close` and the
 * server closes the connection after it, so a client that keeps uploading is stopped, not drained.
 * The client here keeps writing after the answer, as a careless one would.
 */
import * as http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hexId } from "../../src/domain/ids.js"
import { request, startPlatform, World, type Platform } from "../helpers/platform.js"

let p: Platform
let zone = ""
const kv = `/accounts/${hexId("account", "Acme Corp")}/storage/kv/namespaces`
const MiB = 1024 * 1024

beforeAll(async () => {
  p = await startPlatform()
  zone = (await request(p.baseUrl, "/zones")).body.result[0].id as string
})
afterAll(async () => {
  await p?.close()
})

interface Upload {
  readonly status: number
  readonly connection: string | undefined
  readonly message: string
  /** Bytes handed to the connection when the answer arrived, and when it ended. */
  readonly sentAtAnswer: number
  readonly sent: number
  /** How the upload ended: the server closed the connection, or every byte was sent. */
  readonly end: "closed" | "sent"
}

/**
 * Writes `total` bytes in pieces of 1 MiB (chunked unless `contentLength`), going on after the
 * answer, until they are all sent or the server closes the connection.
 */
const upload = (method: string, path: string, o: { contentLength?: number; total: number; type?: string }) => {
  // A client that would keep the connection: closing it is the server's decision.
  const agent = new http.Agent({ keepAlive: true })
  return new Promise<Upload>((resolve, reject) => {
    const url = new URL(p.baseUrl + path)
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${World.allToken}`,
      "content-type": o.type ?? "application/json"
    }
    if (o.contentLength !== undefined) headers["content-length"] = o.contentLength
    const chunk = Buffer.alloc(MiB, 32)
    let sent = 0
    let answer: Omit<Upload, "sent" | "end"> | undefined
    let ended = false
    const finish = (end: Upload["end"]) => {
      if (ended) return
      ended = true
      if (answer === undefined) reject(new Error(`the connection ended without an answer after ${sent} bytes`))
      else resolve({ ...answer, sent, end })
    }
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method, headers, agent },
      (res) => {
        const parts: Array<Buffer> = []
        const sentAtAnswer = sent
        res.on("data", (d: Buffer) => parts.push(d))
        res.on("end", () => {
          const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as { errors: Array<{ message: string }> }
          answer = {
            status: res.statusCode!,
            connection: res.headers.connection,
            message: body.errors[0]?.message ?? "",
            sentAtAnswer
          }
          if (sent >= o.total) finish("sent")
        })
      }
    )
    // EPIPE or ECONNRESET on a write after the answer: the server closed the connection.
    req.on("error", () => finish("closed"))
    req.on("close", () => finish(sent >= o.total ? "sent" : "closed"))
    const pump = () => {
      while (!ended && sent < o.total) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once("drain", pump)
      }
      if (!ended && o.contentLength === undefined) req.end()
    }
    pump()
  }).finally(() => agent.destroy())
}

describe("a refused body is left unread and its connection closed", () => {
  it("over the limit by Content-Length: 413 at once, Connection: close, the upload stopped", async () => {
    const r = await upload("POST", `/zones/${zone}/filters`, { contentLength: 600 * MiB, total: 600 * MiB })
    expect(r).toMatchObject({
      status: 413,
      connection: "close",
      message: "the request body is 629145600 bytes (600.0 MiB), the limit is 104857600 bytes (100.0 MiB)",
      end: "closed"
    })
    // What the sockets' buffers take: nothing more is read.
    expect(r.sent).toBeLessThan(64 * MiB)
  })

  it("a KV bulk by Content-Length too", async () => {
    const ns = (await request(p.baseUrl, kv, { method: "POST", body: { title: "refusals" } })).body.result.id
    const r = await upload("PUT", `${kv}/${ns}/bulk`, { contentLength: 200 * MiB, total: 200 * MiB })
    expect(r).toMatchObject({ status: 413, connection: "close", end: "closed" })
    expect(r.message).toBe("the request body is 209715200 bytes (200.0 MiB), the limit is 104857600 bytes (100.0 MiB)")
    expect(r.sent).toBeLessThan(64 * MiB)
  })

  it("chunked, once it crosses the limit: 413, Connection: close, nothing more read", async () => {
    const ns = (await request(p.baseUrl, kv, { method: "POST", body: { title: "refusals-chunked" } })).body.result.id
    for (const path of [`/zones/${zone}/filters`, `${kv}/${ns}/bulk`]) {
      const r = await upload(path.includes("bulk") ? "PUT" : "POST", path, { total: 400 * MiB })
      expect(r, path).toMatchObject({ status: 413, connection: "close", end: "closed" })
      expect(r.sentAtAnswer, path).toBeGreaterThan(100 * MiB)
      expect(r.sent, path).toBeLessThan(164 * MiB)
    }
  })

  it("a chunked KV value over 25 MiB: its 400, and the connection closed", async () => {
    const ns = (await request(p.baseUrl, kv, { method: "POST", body: { title: "refusals-value" } })).body.result.id
    const r = await upload("PUT", `${kv}/${ns}/values/big`, { total: 200 * MiB, type: "application/octet-stream" })
    expect(r).toMatchObject({ status: 400, connection: "close", end: "closed" })
    expect(r.message).toMatch(/the limit is 26214400 bytes/)
    expect(r.sent).toBeLessThan(90 * MiB)
  })

  it("a body read to its end keeps its connection (keep-alive), and the server goes on answering", async () => {
    const r = await upload("POST", `/zones/${zone}/filters`, { total: 2 * MiB })
    expect(r).toMatchObject({ status: 400, connection: "keep-alive", end: "sent" })
    expect((await request(p.baseUrl, `/zones/${zone}`)).status).toBe(200)
  })
})
