/**
 * A local `kv export` reads keys and values as text from SQLite (src/store/kv-repo.ts
 * `listEntries`) and takes the text as the value only when it is the stored bytes exactly; any
 * other value is read again as bytes and exported as base64. The bytes UTF-8 decoders differ on
 * (encoded surrogates, overlong forms, a lone continuation byte, a cut sequence) and those they
 * agree on (U+FFFD itself, NUL, a BOM, 4-byte characters) must come out as the platform's API
 * exports them (through `edgectl serve`), in both formats, also as the last entry of a page (whose
 * key is the next page's cursor).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LocalAccountId } from "../../src/services/kv-service.js"
import { edgectl, tempDir } from "../helpers/cli.js"
import { startServe, type Served } from "../helpers/serve.js"

process.env.CLOUDFLARE_ACCOUNT_ID = LocalAccountId

const nsId = (stdout: string) => /\(id ([0-9a-f]{32})\)/.exec(stdout)![1]!

const tricky: ReadonlyArray<Buffer> = [
  Buffer.from([0xed, 0xa0, 0x80]), // a surrogate, encoded
  Buffer.from([0x61, 0xc0, 0x80, 0x62]), // NUL, overlong
  Buffer.from([0x80]), // a lone continuation byte
  Buffer.from([0x61, 0xe2, 0x82]), // a sequence cut short
  Buffer.from([0xf0, 0x9f, 0x98, 0x80]), // 😀, valid
  Buffer.from("\uFFFD is text", "utf8"),
  Buffer.from("a\u0000b", "utf8"),
  Buffer.from("\uFEFFbom", "utf8"),
  Buffer.from([0xef, 0xbf, 0xbd, 0xff])
]

/** 1,010 entries: the tricky values in turn, one of them the last entry of the first page. */
const entries = () =>
  Array.from({ length: 1010 }, (_, i) => ({
    key: i === 999 ? `k${String(i).padStart(4, "0")}-é` : `k${String(i).padStart(4, "0")}`,
    value: tricky[i % tricky.length]!.toString("base64"),
    base64: true
  }))

describe("kv export of values that may or may not be text", () => {
  let served: Served
  let cwd: string
  beforeAll(async () => {
    cwd = tempDir()
    served = await startServe(path.join(cwd, "served"))
  })
  afterAll(() => served.close())

  const local = (args: ReadonlyArray<string>) => edgectl(["kv", ...args, "--persist-to", "state"], { cwd })
  const remote = (args: ReadonlyArray<string>) => edgectl(["kv", ...args, "--remote"], { cwd, env: served.remoteEnv() })

  it("exports the bytes the API exports, as a JSON array and as JSON Lines, and imports back to the same export", () => {
    fs.writeFileSync(path.join(cwd, "in.json"), JSON.stringify(entries()))
    const here = nsId(local(["namespace", "create", "text"]).stdout)
    const there = nsId(remote(["namespace", "create", "text"]).stdout)
    expect(local(["import", "in.json", "--namespace-id", here])).toMatchObject({ status: 0 })
    expect(remote(["import", "in.json", "--namespace-id", there])).toMatchObject({ status: 0 })
    for (const format of ["json", "jsonl"]) {
      const fast = local(["export", "--namespace-id", here, "--format", format])
      const api = remote(["export", "--namespace-id", there, "--format", format])
      expect(fast).toMatchObject({ status: 0, stderr: "" })
      expect(api).toMatchObject({ status: 0 })
      expect(fast.stdout).toBe(api.stdout)
    }
    const exported = local(["export", "--namespace-id", here]).stdout
    const values = (JSON.parse(exported) as Array<{ value: string; base64?: true }>).map((e) =>
      e.base64 === true ? Buffer.from(e.value, "base64") : Buffer.from(e.value, "utf8")
    )
    expect(values.map((v, i) => v.equals(tricky[i % tricky.length]!))).toEqual(values.map(() => true))
    // Text stays text: the valid values are not base64.
    expect((JSON.parse(exported) as Array<{ base64?: true }>).filter((e) => e.base64 !== true).length).toBeGreaterThan(
      400
    )
    fs.writeFileSync(path.join(cwd, "out.json"), exported)
    const again = nsId(local(["namespace", "create", "again"]).stdout)
    expect(local(["import", "out.json", "--namespace-id", again])).toMatchObject({ status: 0 })
    expect(local(["export", "--namespace-id", again]).stdout).toBe(exported)
  }, 120_000)
})
