/**
 * build/patches/effect.mjs: a schema's parser compiled on its first use, and effect's clock origin
 * read on its first use. A program bundled with and without the patches (esbuild, as build.mjs
 * bundles) runs in a child process: the patched one compiles nothing until a parser runs and never
 * loads Node's `performance`, and both print the same decodes, encodes, checks, failures and
 * clock readings for the contract's own schemas.
 */
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { root, tempDir } from "../helpers/cli.js"

type Plugin = { name: string; setup: (b: unknown) => void }
type EffectPatches = { effectLazyParsers: Plugin; effectLazyClockOrigin: Plugin }
type Esbuild = { build: (o: Record<string, unknown>) => Promise<unknown> }
const load = <T>(file: string) => import(pathToFileURL(path.join(root, file)).href) as Promise<T>

/** What the program prints, one JSON line per step. */
const program = `
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { Zone } from "./src/domain/zone.ts"
import { Envelope } from "./src/domain/envelope.ts"
import { Endpoints } from "./src/api/contract-core.ts"

const out = (label, value) => console.log(JSON.stringify([label, value]))
let compiled = 0
// A declared schema's decoder factory runs when its parser is compiled (once per AST: the three share it).
const Counted = Schema.declare([], {
  decode: () => { compiled++; return (u) => ParseResult.succeed(u) },
  encode: () => (u) => ParseResult.succeed(u)
})
const decode = Schema.decodeUnknown(Counted)
const decodeEither = Schema.decodeUnknownEither(Counted)
const isIt = Schema.is(Schema.Struct({ a: Counted }))
out("compiled before first use", compiled)
out("decoded", Effect.runSync(decode(1)))
out("decodeEither", Either.getOrThrow(decodeEither(2)))
out("is", isIt({ a: 3 }))
out("compiled after first use", compiled)

const zone = {
  id: "0123456789abcdef0123456789abcdef", name: "acme.com", status: "active", paused: false, type: "full",
  development_mode: 0, name_servers: ["a.ns"], original_name_servers: null, original_registrar: null,
  original_dnshost: null, created_on: "2024-01-01T00:00:00.000000Z", modified_on: "2024-01-01T00:00:00.000000Z",
  activated_on: null, meta: { step: 2, custom_certificate_quota: 0, page_rule_quota: 3, phishing_detected: false },
  owner: { id: null, name: null, type: "user" }, account: { id: "0123456789abcdef0123456789abcdef", name: "Acme" },
  plan: { id: "p1", name: "Free" }, permissions: []
}
const ZoneEnvelope = Envelope(Zone)
const decodedZone = Schema.decodeUnknownEither(ZoneEnvelope)({ success: true, errors: [], messages: [], result: zone })
out("zone", Either.mapLeft(Either.map(decodedZone, (v) => Schema.encodeSync(ZoneEnvelope)(v)), (e) => e.message))
out("bad zone", Either.mapLeft(Schema.decodeUnknownEither(Zone)({ ...zone, status: 7 }), (e) => e.message))
out("asserts", (() => { try { Schema.asserts(Zone)({}); return "passed" } catch (e) { return e.message } })())
const list = Endpoints.listZones
out("list success", Either.isRight(Schema.decodeUnknownEither(list.successSchema)({ success: true, errors: [], messages: [], result: [zone], result_info: { page: 1, per_page: 20, count: 1, total_count: 1, total_pages: 1 } })))

out("performance loaded before the clock", process.moduleLoadList.includes("NativeModule perf_hooks"))
const nanos = Effect.runSync(Clock.currentTimeNanos)
const millis = Number(nanos / 1000000n)
out("clock near Date.now()", Math.abs(millis - Date.now()) < 1000)
const later = Effect.runSync(Clock.currentTimeNanos)
out("clock goes on", later >= nanos)
`

const run = async (patched: boolean) => {
  const esbuild = await load<Esbuild>("node_modules/esbuild/lib/main.js")
  const patches = await load<EffectPatches>("build/patches/effect.mjs")
  const outfile = path.join(tempDir("edgectl-effect-patch-"), "program.mjs")
  await esbuild.build({
    absWorkingDir: root,
    stdin: { contents: program, resolveDir: root, sourcefile: "program.mjs", loader: "js" },
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    metafile: true,
    logLevel: "silent",
    plugins: patched ? [patches.effectLazyParsers, patches.effectLazyClockOrigin] : []
  })
  const r = spawnSync(process.execPath, [outfile], { encoding: "utf8", timeout: 60_000 })
  expect(r.stderr).toBe("")
  return Object.fromEntries(
    r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as [string, unknown])
  )
}

describe("build/patches/effect.mjs", () => {
  it("compiles a parser on its first use and leaves `performance` unloaded, with the same results", async () => {
    const [before, after] = await Promise.all([run(false), run(true)])
    // Unpatched, effect compiles at definition and loads perf_hooks with its clock module.
    expect(before["compiled before first use"]).toBe(1)
    expect(before["performance loaded before the clock"]).toBe(true)
    expect(after["compiled before first use"]).toBe(0)
    expect(after["performance loaded before the clock"]).toBe(false)
    expect(after["compiled after first use"]).toBe(1)
    const { ["compiled before first use"]: _a, ["performance loaded before the clock"]: _b, ...same } = before
    const { ["compiled before first use"]: _c, ["performance loaded before the clock"]: _d, ...got } = after
    expect(got).toEqual(same)
    expect(got["zone"]).toMatchObject({ _tag: "Right" })
    expect(got["bad zone"]).toMatchObject({ _tag: "Left" })
    expect(got["list success"]).toBe(true)
    expect(got["clock near Date.now()"]).toBe(true)
  }, 60_000)
})
