/**
 * A local `kv export` reads its pages straight from the store (src/server/door/kv-entries-route.ts),
 * a remote one through the platform's API (a listing and bulk gets): the same namespace's entries
 * must come out byte for byte the same both ways — several pages, binary and U+FFFD values,
 * metadata, expirations, keys of several bytes per character and with colons.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LocalAccountId } from "../../src/services/kv-service.js"
import { edgectl, tempDir } from "../helpers/cli.js"
import { startServe, type Served } from "../helpers/serve.js"

process.env.CLOUDFLARE_ACCOUNT_ID = LocalAccountId

const nsId = (stdout: string) => /\(id ([0-9a-f]{32})\)/.exec(stdout)![1]!
const expiration = Math.floor(Date.now() / 1000) + 3600

/** 2,500 entries (three pages of 1,000) of every kind an export writes differently. */
const entries = () => {
  const out: Array<Record<string, unknown>> = []
  for (let i = 0; i < 2500; i++) {
    const key = `k${String(i).padStart(5, "0")}`
    switch (i % 5) {
      case 0:
        out.push({ key, value: `v${i}` })
        break
      case 1:
        out.push({ key: `${key}:é✓`, value: Buffer.from([0xff, i % 256, 0x80]).toString("base64"), base64: true })
        break
      case 2:
        out.push({ key, value: `text \uFFFD ${i}`, metadata: { n: i, tags: ["a", { b: null }] } })
        break
      case 3:
        out.push({ key, value: "", expiration: expiration + i })
        break
      default:
        out.push({ key: `flag:${key}`, value: JSON.stringify({ on: true, i }), metadata: { plain: "ü" } })
    }
  }
  return out
}

describe("kv export: the local store's pages and the API's are the same bytes", () => {
  let served: Served
  let cwd: string
  beforeAll(async () => {
    cwd = tempDir()
    served = await startServe(path.join(cwd, "served"))
  })
  afterAll(() => served.close())

  const local = (args: ReadonlyArray<string>) => edgectl(["kv", ...args, "--persist-to", "state"], { cwd })
  const remote = (args: ReadonlyArray<string>) => edgectl(["kv", ...args, "--remote"], { cwd, env: served.remoteEnv() })

  it("the same entries exported locally and with --remote (serve) are byte-identical", () => {
    fs.writeFileSync(path.join(cwd, "in.json"), JSON.stringify(entries()))
    const here = nsId(local(["namespace", "create", "fast"]).stdout)
    const there = nsId(remote(["namespace", "create", "fast"]).stdout)
    expect(local(["import", "in.json", "--namespace-id", here])).toMatchObject({ status: 0 })
    expect(remote(["import", "in.json", "--namespace-id", there])).toMatchObject({ status: 0 })
    const fast = local(["export", "--namespace-id", here])
    const api = remote(["export", "--namespace-id", there])
    expect(fast).toMatchObject({ status: 0, stderr: "" })
    expect(api).toMatchObject({ status: 0 })
    expect(JSON.parse(fast.stdout)).toHaveLength(2500)
    expect(fast.stdout).toBe(api.stdout)
  })
})
