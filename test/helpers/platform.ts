/**
 * The embedded platform for tests: a real `serve()` on 127.0.0.1 over a real SQLite file in a fresh
 * temp directory, kept open in a scope until `close()`; plus a small `fetch` helper and the demo
 * world's credentials (fixtures/world.json), so tests name them instead of copying secrets around.
 */
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import world from "../../fixtures/world.json" with { type: "json" }
import type { PlatformClock } from "../../src/server/clock.js"
import type { LegacyApis } from "../../src/server/legacy-mode.js"
import { serve } from "../../src/server/serve.js"

export const tempDir = (prefix = "edgectl-test-") => fs.mkdtempSync(path.join(os.tmpdir(), prefix))

const secret = (name: string) => {
  const t = world.tokens.find((x) => x.name === name)
  if (!t) throw new Error(`fixtures/world.json has no token named ${name}`)
  return t.secret
}

/** Demo-world credentials and facts the tests rely on. */
export const World = {
  email: world.user.email,
  apiKey: world.user.api_key,
  allToken: secret("local all-accounts token"),
  acmeToken: secret("Acme Corp token"),
  globexToken: secret("Globex token"),
  initechToken: secret("Initech token"),
  expiredToken: secret("expired token"),
  /** Zones of the member accounts, as defined in the fixture (internal zones excluded from default lists). */
  memberZones: world.accounts.flatMap((a) => a.zones.map((z) => ({ ...z, account: a.name }))),
  invites: world.invites
} as const

export interface Platform {
  readonly baseUrl: string
  readonly stateDir: string
  readonly close: () => Promise<void>
}

/** Starts the platform on a free port over a new store in a temp directory; `clock` sets its time. */
export const startPlatform = async (
  stateDir = tempDir(),
  options: { readonly clock?: PlatformClock; readonly legacy?: LegacyApis } = {}
): Promise<Platform> => {
  const scope = await Effect.runPromise(Scope.make())
  try {
    const served = await Effect.runPromise(
      Scope.extend(
        serve({
          host: "127.0.0.1",
          port: 0,
          stateDir,
          ...(options.clock ? { clock: options.clock } : {}),
          ...(options.legacy ? { legacy: options.legacy } : {})
        }),
        scope
      )
    )
    return {
      baseUrl: served.baseUrl,
      stateDir,
      close: () => Effect.runPromise(Scope.close(scope, Exit.void))
    }
  } catch (e) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw e
  }
}

export interface Answer<A = any> {
  readonly status: number
  readonly headers: Headers
  readonly body: A
}

export interface RequestOptions {
  /** A bearer token; `null` sends no Authorization header. Defaults to the all-accounts token. */
  readonly token?: string | null
  readonly headers?: Record<string, string>
  readonly method?: string
  /** A value is sent as JSON; a string is sent as is. */
  readonly body?: unknown
}

/** One request to the served platform; the body is parsed as JSON (every answer must be JSON). */
export const request = async <A = any>(
  baseUrl: string,
  pathAndQuery: string,
  o: RequestOptions = {}
): Promise<Answer<A>> => {
  const token = o.token === undefined ? World.allToken : o.token
  const headers: Record<string, string> = {
    ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
    ...o.headers
  }
  let body: string | undefined
  if (o.body !== undefined) {
    body = typeof o.body === "string" ? o.body : JSON.stringify(o.body)
    headers["content-type"] ??= "application/json"
  }
  const r = await fetch(baseUrl + pathAndQuery, {
    method: o.method ?? "GET",
    headers,
    ...(body !== undefined ? { body } : {})
  })
  const text = await r.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new Error(
      `${o.method ?? "GET"} ${pathAndQuery} answered ${r.status} with a body that is not JSON: ${text.slice(0, 200)}`
    )
  }
  return { status: r.status, headers: r.headers, body: parsed as A }
}

/** Asserts the v4 envelope shape and returns the body; throws with the body on a mismatch. */
export const assertEnvelope = (a: Answer, success: boolean) => {
  const b = a.body as Record<string, unknown>
  const problems: Array<string> = []
  if (!(a.headers.get("content-type") ?? "").includes("application/json"))
    problems.push(`content-type ${a.headers.get("content-type")}`)
  if (b.success !== success) problems.push(`success ${String(b.success)}`)
  if (!Array.isArray(b.errors)) problems.push("errors is not an array")
  if (!Array.isArray(b.messages)) problems.push("messages is not an array")
  if (!("result" in b)) problems.push("no result")
  if (success && Array.isArray(b.errors) && b.errors.length > 0) problems.push("errors on success")
  if (!success && (b.result !== null || !Array.isArray(b.errors) || b.errors.length === 0))
    problems.push("failure without errors or with a result")
  if (problems.length > 0)
    throw new Error(
      `not a v4 ${success ? "success" : "failure"} envelope (${problems.join(", ")}): ${JSON.stringify(b).slice(0, 300)}`
    )
  return b
}

/** The first error of a failure envelope. */
export const firstError = (a: Answer) =>
  (a.body as { errors: Array<{ code: number; message: string; error_chain?: Array<{ code: number }> }> }).errors[0]!
