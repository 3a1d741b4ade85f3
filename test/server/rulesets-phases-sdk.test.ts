/**
 * The official `cloudflare` SDK against `serve()` on the entry points of other phases and on an
 * entry point's history: `phases.get` of a phase the local platform does not keep fails with the
 * platform's 404 and code 10003 (the SDK's NotFoundError), `phases.update` there is refused with
 * nothing written, and `phases.versions.list` / `.get` read the custom entry point's history.
 */
import Cloudflare from "cloudflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startPlatform, type Platform } from "../helpers/platform.js"
import { sdkClient, sdkZoneId } from "../helpers/sdk.js"

let p: Platform
let client: Cloudflare

beforeAll(async () => {
  p = await startPlatform()
  client = sdkClient(p)
})
afterAll(async () => p?.close())

describe("cloudflare SDK: other phases and entry point versions", () => {
  it("phases.get of another phase: NotFoundError with code 10003; phases.update there: a 400, nothing written", async () => {
    const zone_id = await sdkZoneId(client, "globex.com")
    const got = await client.rulesets.phases.get("http_request_transform", { zone_id }).catch((e: unknown) => e)
    expect(got).toBeInstanceOf(Cloudflare.NotFoundError)
    expect((got as InstanceType<typeof Cloudflare.NotFoundError>).errors).toEqual([
      { code: 10003, message: "could not find entrypoint ruleset in the http_request_transform phase" }
    ])
    const put = await client.rulesets.phases
      .update("http_request_transform", { zone_id, rules: [{ action: "rewrite", expression: "true" }] })
      .catch((e: unknown) => e)
    expect(put).toBeInstanceOf(Cloudflare.BadRequestError)
    expect((put as InstanceType<typeof Cloudflare.BadRequestError>).message).toContain("ruleset_phase")
    const phases: Array<string> = []
    for await (const r of client.rulesets.list({ zone_id })) phases.push(r.phase)
    expect(phases).not.toContain("http_request_transform")
  })

  it("phases.versions.list and .get read the custom entry point's history", async () => {
    const zone_id = await sdkZoneId(client, "globex.com")
    for (const expression of ["ssl", "not ssl"])
      await client.rulesets.phases.update("http_request_firewall_custom", {
        zone_id,
        rules: [{ action: "block", expression, ref: "one" }]
      })
    const versions: Array<{ version: string }> = []
    for await (const v of client.rulesets.phases.versions.list("http_request_firewall_custom", { zone_id }))
      versions.push(v)
    expect(versions.map((v) => v.version)).toEqual(["2", "1"])
    const first: any = await client.rulesets.phases.versions.get("1", {
      ruleset_phase: "http_request_firewall_custom",
      zone_id
    })
    expect(first.rules.map((r: { expression: string }) => r.expression)).toEqual(["ssl"])
  })
})
