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

export const DefaultRemoteBase = "https://api.cloudflare.com/client/v4"
/** The base the in-process platform answers on; never resolved on a network. */
export const LocalBase = "http://edgectl.local/client/v4"
/** The demo world's all-accounts token; a local sandbox credential, not a secret. */
export const LocalToken = "edgectl-local-token-all-accounts-0000000"

export interface TargetOptions {
  readonly remote: boolean
  readonly persistTo?: string | undefined
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly cwd?: string
}

export const stateDir = (o: TargetOptions) =>
  path.resolve(o.cwd ?? process.cwd(), o.persistTo ?? path.join(".edgectl", "state"))

const remoteCredentials = (env: Readonly<Record<string, string | undefined>>): Credentials | InvalidInput => {
  if (env.CLOUDFLARE_API_TOKEN) return { kind: "token", token: env.CLOUDFLARE_API_TOKEN }
  if (env.CLOUDFLARE_API_KEY && env.CLOUDFLARE_EMAIL)
    return { kind: "key", key: env.CLOUDFLARE_API_KEY, email: env.CLOUDFLARE_EMAIL }
  return new InvalidInput({
    message: "--remote needs credentials: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL",
    clientSide: true
  })
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
    const config = Layer.succeed(ClientConfig, {
      baseUrl: env.CLOUDFLARE_API_BASE_URL ?? env.CF_API_BASE_URL ?? DefaultRemoteBase,
      credentials,
      target: "remote"
    })
    const http = Layer.effect(
      HttpClient.HttpClient,
      Effect.map(HttpClient.HttpClient, HttpClient.withTracerPropagation(false))
    ).pipe(
      Layer.provide(FetchHttpClient.layer),
      // Redirects are the client's to follow (client.ts): fetch would carry the credentials to
      // whatever origin a 3xx names.
      Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { redirect: "manual" }))
    )
    return Layer.merge(config, http)
  }
  const localConfig: ClientConfig = {
    baseUrl: LocalBase,
    credentials: { kind: "token", token: LocalToken },
    target: "local"
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
