/**
 * Where the client talks to: the embedded platform in-process (default, state under
 * `.edgectl/state` or `--persist-to`; the composition root gives it), or the real platform with
 * `--remote`. Credentials in the environment never switch the target by themselves.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { ClientConfig, type Credentials } from "./client.js"
import { InvalidInput } from "../domain/errors.js"
import { DefaultRateLimit, parseRateLimit, sharedBudget, type RateLimit } from "../domain/rate-budget.js"
import { timedFetch, type Timeouts } from "./timed-fetch.js"

const DefaultRemoteBase = "https://api.cloudflare.com/client/v4"
/** The base the in-process platform answers on; never resolved on a network. */
export const LocalBase = "http://edgectl.local/client/v4"
/** The demo world's all-accounts token; a local sandbox credential, not a secret. */
export const LocalToken = "edgectl-local-token-all-accounts-0000000"

export interface TargetOptions {
  readonly remote: boolean
  readonly persistTo?: string | undefined
  /** `--timeout SECONDS`: wins over EDGECTL_TIMEOUT. */
  readonly timeout?: number | undefined
  /** `--rate-limit N/SECONDS`: wins over EDGECTL_RATE_LIMIT; by default the platform's 1200/300. */
  readonly rateLimit?: RateLimit | undefined
  /** Shows a wait for the API budget (the CLI's countdown on a terminal); see ClientConfig. */
  readonly waiting?: ((until: number | undefined) => void) | undefined
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly cwd?: string
}

/** The state directory a target's options name: `--persist-to`, else .edgectl/state (DEFAULT_PERSIST_TO), from `cwd`. */
export const stateDir = (o: Pick<TargetOptions, "persistTo" | "cwd">) =>
  path.resolve(o.cwd ?? process.cwd(), o.persistTo ?? path.join(".edgectl", "state"))

/** The credentials `--remote` sends, from the environment, or the refusal naming the variables to set. */
export const remoteCredentials = (env: Readonly<Record<string, string | undefined>>): Credentials | InvalidInput => {
  if (env.CLOUDFLARE_API_TOKEN) return { kind: "token", token: env.CLOUDFLARE_API_TOKEN }
  if (env.CLOUDFLARE_API_KEY && env.CLOUDFLARE_EMAIL)
    return { kind: "key", key: env.CLOUDFLARE_API_KEY, email: env.CLOUDFLARE_EMAIL }
  return new InvalidInput({
    message: "--remote needs credentials: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL",
    clientSide: true
  })
}

/** Why `text` is not a platform's v4 base URL (`serve --upstream`), or undefined when it is one. */
export const upstreamProblem = (text: string): string | undefined => {
  try {
    const u = new URL(text)
    if (u.protocol !== "http:" && u.protocol !== "https:") return `expected an http(s) URL, got ${JSON.stringify(text)}`
    if (u.search !== "" || u.hash !== "")
      return `expected a base URL without query or fragment, got ${JSON.stringify(text)}`
    return undefined
  } catch {
    return `expected a URL such as https://api.cloudflare.com/client/v4, got ${JSON.stringify(text)}`
  }
}

/**
 * The time limits of a remote request. Connect: 30 s, four SYN retransmits on a lossy link, where
 * a TCP and TLS handshake takes well under a second. Answer: 120 s without a byte moving, counted
 * once the request is sent (./timed-fetch.ts), so an upload of any size is never cut: longer than
 * the 100 s after which the platform's edge answers 524 itself, so its own timeout is the one the
 * user sees when it has one. `--timeout N` / EDGECTL_TIMEOUT=N sets the answer limit, and the
 * connect limit when it is shorter.
 */
const DefaultTimeouts: Timeouts = { connect: 30, answer: 120 }
/** The range `--timeout` and EDGECTL_TIMEOUT take, in seconds. */
const TimeoutRange = { min: 1, max: 3600 } as const

/** Why `text` is not a timeout in seconds, or undefined when it is one. */
export const timeoutProblem = (text: string): string | undefined => {
  const n = /^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN
  return n >= TimeoutRange.min && n <= TimeoutRange.max
    ? undefined
    : `expected seconds from ${TimeoutRange.min} to ${TimeoutRange.max}, got ${JSON.stringify(text)}`
}

const timeoutsFor = (
  given: number | undefined,
  env: Readonly<Record<string, string | undefined>>
): Timeouts | InvalidInput => {
  let seconds = given
  const fromEnv = env.EDGECTL_TIMEOUT
  if (seconds === undefined && fromEnv !== undefined && fromEnv !== "") {
    const why = timeoutProblem(fromEnv)
    if (why !== undefined) return new InvalidInput({ message: `EDGECTL_TIMEOUT: ${why}`, clientSide: true })
    seconds = Number(fromEnv)
  }
  return seconds === undefined
    ? DefaultTimeouts
    : { connect: Math.min(DefaultTimeouts.connect, seconds), answer: seconds }
}

/** The remote budget: the option's, else EDGECTL_RATE_LIMIT's, else the platform's own limit. */
const rateLimitFor = (
  given: RateLimit | undefined,
  env: Readonly<Record<string, string | undefined>>
): RateLimit | InvalidInput => {
  if (given !== undefined) return given
  const fromEnv = env.EDGECTL_RATE_LIMIT
  if (fromEnv === undefined || fromEnv === "") return DefaultRateLimit
  const parsed = parseRateLimit(fromEnv)
  return typeof parsed === "string"
    ? new InvalidInput({ message: `EDGECTL_RATE_LIMIT: ${parsed}`, clientSide: true })
    : parsed
}

/** CLOUDFLARE_ACCOUNT_ID as users mean it: set to an empty string, it is not set. */
export const accountIdFromEnv = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const id = env.CLOUDFLARE_ACCOUNT_ID
  return id === undefined || id === "" ? undefined : id
}

/**
 * The in-process platform as an `HttpClient` over a state directory. The client may not reach the
 * server (test/architecture.test.ts): the composition root gives it (src/cli/environment.ts).
 */
export type LocalPlatform = (stateDir: string) => Layer.Layer<HttpClient.HttpClient>

/** The client layer for a target: `HttpClient` + `ClientConfig`; local mode runs `localPlatform`. */
export const clientLayerWith = (
  o: TargetOptions,
  localPlatform: LocalPlatform
): Layer.Layer<HttpClient.HttpClient | ClientConfig, InvalidInput> => {
  const env = o.env ?? process.env
  if (o.remote) {
    const credentials = remoteCredentials(env)
    if (credentials instanceof InvalidInput) return Layer.fail(credentials)
    const timeouts = timeoutsFor(o.timeout, env)
    if (timeouts instanceof InvalidInput) return Layer.fail(timeouts)
    const limit = rateLimitFor(o.rateLimit, env)
    if (limit instanceof InvalidInput) return Layer.fail(limit)
    const config = Layer.succeed(ClientConfig, {
      baseUrl: env.CLOUDFLARE_API_BASE_URL ?? env.CF_API_BASE_URL ?? DefaultRemoteBase,
      credentials,
      target: "remote",
      budget: sharedBudget(limit),
      ...(o.waiting !== undefined ? { waiting: o.waiting } : {})
    })
    const http = Layer.effect(
      HttpClient.HttpClient,
      Effect.map(HttpClient.HttpClient, HttpClient.withTracerPropagation(false))
    ).pipe(
      Layer.provide(FetchHttpClient.layer),
      // Redirects are the client's to follow (client.ts): fetch would carry the credentials to
      // whatever origin a 3xx names.
      Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { redirect: "manual" })),
      Layer.provide(Layer.succeed(FetchHttpClient.Fetch, timedFetch(timeouts) as typeof globalThis.fetch))
    )
    return Layer.merge(config, http)
  }
  const localConfig: ClientConfig = {
    baseUrl: LocalBase,
    credentials: { kind: "token", token: LocalToken },
    target: "local",
    inProcess: true
  }
  const http = localPlatform(stateDir(o)).pipe(
    // No client spans either: nothing traces the in-process platform, and a span per call is a
    // noticeable share of its cost.
    (l) =>
      Layer.effect(
        HttpClient.HttpClient,
        Effect.map(HttpClient.HttpClient, (c) =>
          c.pipe(
            HttpClient.withTracerPropagation(false),
            HttpClient.withTracerDisabledWhen(() => true)
          )
        )
      ).pipe(Layer.provide(l))
  )
  return Layer.map(http, Context.add(ClientConfig, localConfig))
}
