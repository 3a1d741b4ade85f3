/** Request bodies as official tools send them: JSON without a content-type, or with a wrong one. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startPlatform, World, type Platform } from "../helpers/platform.js"

describe("request bodies", () => {
  let p: Platform
  let inviteId: string
  beforeAll(async () => {
    p = await startPlatform()
    const r = await fetch(`${p.baseUrl}/user/invites`, { headers: { authorization: `Bearer ${World.allToken}` } })
    inviteId = ((await r.json()) as { result: Array<{ id: string }> }).result[0]!.id
  })
  afterAll(() => p.close())

  const patch = (contentType: string | undefined, body: string) =>
    fetch(`${p.baseUrl}/user/invites/${inviteId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${World.allToken}`, ...(contentType ? { "content-type": contentType } : {}) },
      body
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as {
        success: boolean
        errors: Array<{ code: number; message: string }>
        result: { status: string } | null
      }
    }))

  it("reads a JSON body sent as text/plain or form-urlencoded the same as application/json", async () => {
    const bad = await patch("text/plain;charset=UTF-8", '{"status":"maybe"}')
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0]!.message).toBe('invalid request: status must be one of accepted, rejected, got "maybe"')
    const form = await patch("application/x-www-form-urlencoded", "{not json")
    expect(form.status).toBe(400)
    expect(form.body.errors[0]!.message).toContain("not be parsed")
  })

  it("reads a JSON body sent with no content-type at all", async () => {
    const r = await fetch(`${p.baseUrl}/user/invites/${inviteId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${World.allToken}` },
      body: new Uint8Array(Buffer.from('{"status":"rejected"}'))
    })
    const body = (await r.json()) as { result: { status: string } }
    expect(r.status).toBe(200)
    expect(body.result.status).toBe("rejected")
  })
})
