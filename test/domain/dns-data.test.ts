/**
 * Structured DNS records (`data`) on the embedded platform: every type the platform gives a `data`
 * is accepted on create, returned on create and in the list, and its `content` agrees with it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { StructuredCases } from "../helpers/dns-cases.js"
import { assertEnvelope, firstError, request, startPlatform, type Platform } from "../helpers/platform.js"

let p: Platform
let zoneId = ""
const ZONE = "initech.net"
const records = () => `/zones/${zoneId}/dns_records`
const create = (body: unknown) => request(p.baseUrl, records(), { method: "POST", body })

beforeAll(async () => {
  p = await startPlatform()
  zoneId = (await request(p.baseUrl, `/zones?name=${ZONE}`)).body.result[0].id
})
afterAll(async () => {
  await p?.close()
})

describe("POST /zones/{zone_id}/dns_records with data", () => {
  it("every structured type: data accepted, returned, content written from it; the list answers the same", async () => {
    for (const c of StructuredCases) {
      const name = `data-${c.type.toLowerCase()}`
      const r = await create({
        type: c.type,
        name,
        data: c.data,
        ttl: 3600,
        ...(c.type === "URI" ? { priority: c.priority } : {})
      })
      expect(r.status, `${c.type}: ${JSON.stringify(r.body)}`).toBe(200)
      assertEnvelope(r, true)
      expect(r.body.result, c.type).toMatchObject({
        type: c.type,
        name: `${name}.${ZONE}`,
        content: c.content,
        data: c.data,
        ttl: 3600,
        proxied: false
      })
      if (c.priority !== undefined) expect(r.body.result.priority, c.type).toBe(c.priority)
      const listed = await request(p.baseUrl, `${records()}?type=${c.type}&name=${name}.${ZONE}`)
      expect(listed.body.result, c.type).toEqual([r.body.result])
    }
  })

  it("content alone gets the data it spells", async () => {
    for (const c of StructuredCases) {
      const name = `content-${c.type.toLowerCase()}`
      const r = await create({
        type: c.type,
        name,
        content: c.content,
        ...(c.priority !== undefined ? { priority: c.priority } : {})
      })
      expect(r.status, `${c.type}: ${JSON.stringify(r.body)}`).toBe(200)
      expect(r.body.result.data, c.type).toEqual(c.data)
    }
  })

  it("SVCB/HTTPS in alias mode: no parameters, from data or from content", async () => {
    const fromData = await create({
      type: "HTTPS",
      name: "alias-data",
      data: { priority: 0, target: "cdn.initech.net" }
    })
    expect(fromData.body.result).toMatchObject({
      content: "0 cdn.initech.net",
      data: { priority: 0, target: "cdn.initech.net", value: "" }
    })
    const fromContent = await create({ type: "SVCB", name: "alias-content", content: "0 svc.initech.net" })
    expect(fromContent.body.result.data).toEqual({ priority: 0, target: "svc.initech.net", value: "" })
  })

  it("LOC fills the documented defaults for minutes, seconds, size and precisions", async () => {
    const r = await create({
      type: "LOC",
      name: "loc-defaults",
      data: { lat_degrees: 10, lat_direction: "S", long_degrees: 20, long_direction: "E", altitude: -5 }
    })
    expect(r.body.result.content).toBe("10 0 0 S 20 0 0 E -5.00m 0.00m 0.00m 0.00m")
    expect(r.body.result.data).toMatchObject({ lat_minutes: 0, size: 0, altitude: -5 })
  })

  it("bad data names the field, its limit and the value; nothing is written", async () => {
    const before = (await request(p.baseUrl, `${records()}?per_page=1`)).body.result_info.total_count
    for (const [body, message] of [
      [
        { type: "SRV", name: "_x._tcp", data: { priority: 1, weight: 1, port: 70000, target: "a.initech.net" } },
        "data.port: must be an integer from 0 to 65535, got 70000"
      ],
      [{ type: "CAA", name: "@", data: { flags: 0, value: "x" } }, "data.tag: must be a non-empty string, got nothing"],
      [
        {
          type: "LOC",
          name: "l",
          data: { lat_degrees: 91, lat_direction: "N", long_degrees: 0, long_direction: "E", altitude: 0 }
        },
        "data.lat_degrees: must be a number from 0 to 90, got 91"
      ],
      [{ type: "TLSA", name: "t", data: "3 1 1 ab" }, 'data: must be an object for a TLSA record, got "3 1 1 ab"'],
      [
        { type: "URI", name: "u", data: { weight: 1, target: "https://x" } },
        "priority: must be an integer from 0 to 65535, got nothing"
      ],
      [
        { type: "SRV", name: "s", content: "5 5060", priority: 1 },
        'content: not a valid SRV record content, got "5 5060"'
      ],
      [
        { type: "CAA", name: "c", content: '0 issue "a"', data: { flags: 0, tag: "issue", value: "b" } },
        'content: "0 issue \\"a\\"" does not agree with data'
      ],
      [
        { type: "DS", name: "d", data: { key_tag: 1, algorithm: 13, digest_type: 2, digest: "AB" }, proxied: true },
        "proxied: DS records cannot be proxied"
      ]
    ] as const) {
      const r = await create(body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      assertEnvelope(r, false)
      expect(firstError(r).message).toContain(message)
    }
    expect((await request(p.baseUrl, `${records()}?per_page=1`)).body.result_info.total_count).toBe(before)
  })

  it("plain records are created from content, without data", async () => {
    const r = await create({ type: "A", name: "plain", content: "192.0.2.10", proxied: true })
    expect(r.body.result).toMatchObject({
      type: "A",
      name: `plain.${ZONE}`,
      content: "192.0.2.10",
      proxied: true,
      proxiable: true,
      ttl: 1
    })
    expect(r.body.result).not.toHaveProperty("data")
  })
})
