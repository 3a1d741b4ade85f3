/**
 * The in-process transport of local mode: an `HttpClient` that runs the embedded platform's HttpApi
 * app directly, without a socket and without web `Request`/`Response` objects.
 *
 * It follows `HttpApiBuilder.toWebHandler` step by step (same layer, same middleware, same error
 * handling, the app runs on the platform's own runtime and is built on the first request), but the
 * request handed to the app and the response handed back to the client are plain objects over the
 * body bytes. This saves ~150 µs per call (bench/platform.bench.mjs, in-process: ~215 µs per `zones get`
 * instead of ~370) and, at start-up, Node 20's lazy loading of its fetch implementation (10-20 ms on
 * the first touch of `Request`/`Response`/`Headers`).
 */
import * as Cookies from "@effect/platform/Cookies"
import * as Headers from "@effect/platform/Headers"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { envelopeErrors } from "../errors.js"
import { loadPart, type PartName, partOf } from "./parts.js"
import { LocalKvOptions } from "../kv-options.js"
import { storeFile, storeServices, untracedEffect, withHttpSettings, type StoreServices } from "../platform.js"
import { bytesOf, concat, LocalClientResponse, LocalServerRequest, type Answer } from "./local-messages.js"
import { makeRouteTable, type RouteTable } from "./route-table.js"
import { makeKvEntriesRoute } from "./kv-entries-route.js"
import { makeKvValueRoute } from "./kv-value-route.js"
import { Db } from "../../store/db.js"
import { markLocalPlatformBuilt } from "../../launcher-hooks.js"

// ---------------------------------------------------------------------------------------------
// The handler: the platform's HttpApi app on its own runtime, built on first use

type Handle = (request: LocalServerRequest, signal: AbortSignal) => Promise<Answer>

const responseBody = (
  response: HttpServerResponse.HttpServerResponse,
  method: string
): Effect.Effect<Uint8Array | undefined, unknown> => {
  if (method === "HEAD") return Effect.succeed(undefined)
  const body = response.body
  switch (body._tag) {
    case "Empty":
      return Effect.succeed(undefined)
    case "Uint8Array":
      return Effect.succeed(body.body)
    case "Raw":
      return Effect.map(
        Effect.promise(() => bytesOf(body.body)),
        (b) => b.bytes
      )
    case "FormData":
      return Effect.map(
        Effect.promise(() => bytesOf(body.formData)),
        (b) => b.bytes
      )
    case "Stream":
      return Effect.map(Stream.runCollect(body.stream), concat)
  }
}

/**
 * The platform in this process: its services are built on the first request (a command that never
 * calls the platform never opens, or creates, the store), and each part of its API (parts.ts) on the
 * first request for it, with the same handlers, authentication and middleware as `edgectl serve`.
 * The one difference is local mode's KV behaviour (`LocalKvOptions`: namespaces exist implicitly, as
 * in wrangler's local storage, and a bulk request is not cut at 10,000 entries). `dispose` closes the
 * store. `routeTable: false` sends every request to the app (tests compare both).
 */
export const makeLocalHandler = (
  file: string,
  options: { readonly routeTable?: boolean } = {}
): { readonly handle: Handle; readonly dispose: () => Promise<void> } => {
  const scope = Effect.runSync(Scope.make())
  const dispose = () => Effect.runPromise(Scope.close(scope, Exit.void))
  let services: Promise<Context.Context<StoreServices>> | undefined
  const handlers = new Map<PartName, Promise<Handle>>()

  const buildServices = () =>
    Effect.gen(function* () {
      // The launcher's code cache is worth rewriting (src/launcher-hooks.ts).
      markLocalPlatformBuilt()
      return yield* storeServices(file, undefined, { kv: LocalKvOptions })
    }).pipe(Scope.extend(scope), Effect.runPromise)

  const buildPart = (name: PartName): Promise<Handle> =>
    Effect.gen(function* () {
      const context = yield* Effect.promise(() => (services ??= buildServices()))
      const part = yield* Effect.promise(() => loadPart(name))
      // The store's services are shared by every part; the HTTP layer's context (the platform's
      // file system, paths and etags) is made with the first part, which is when it is first needed.
      const layer = withHttpSettings(
        Layer.mergeAll(part, HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer)
      ).pipe(Layer.provideMerge(HttpServer.layerContext), Layer.provideMerge(Layer.succeedContext(context)))
      // The requests' fibers run on this runtime: untraced, as `edgectl serve`'s (platform.ts).
      const runtime = yield* untracedEffect(Layer.toRuntime(layer))
      const app = yield* Effect.provide(HttpApiBuilder.httpApp, runtime)
      const handled = HttpApp.toHandled(
        app,
        (request, response) => {
          const resolve = request instanceof LocalServerRequest ? request.resolve : undefined
          if (resolve === undefined) return Effect.void
          return Effect.matchCause(responseBody(response, request.method), {
            onSuccess: (body) => resolve({ response, body }),
            onFailure: () => resolve({ response, body: undefined })
          })
        },
        envelopeErrors as HttpMiddleware.HttpMiddleware
      )
      const handle: Handle = (request, signal) =>
        new Promise((resolve, reject) => {
          let answered = false
          request.resolve = (answer) => {
            answered = true
            resolve(answer)
          }
          const run = Runtime.runFork(
            Runtime.make({
              context: Context.add(
                runtime.context,
                HttpServerRequest.HttpServerRequest,
                request as HttpServerRequest.HttpServerRequest
              ),
              fiberRefs: runtime.fiberRefs,
              runtimeFlags: runtime.runtimeFlags
            })
          )
          const fiber = run(handled as Effect.Effect<void>)
          const onAbort = () => fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
          signal.addEventListener("abort", onAbort, { once: true })
          fiber.addObserver((exit) => {
            signal.removeEventListener("abort", onAbort)
            // Answered already in the common case (an Error each time, for its stack, cost ~5% of a call).
            if (!answered)
              reject(new Error(Exit.isFailure(exit) ? "the local platform ended without an answer" : "no answer"))
          })
        })
      return handle
    }).pipe(Scope.extend(scope), Effect.runPromise)

  // The route table (route-table.ts) answers the hottest reads before any part is asked, as in
  // `edgectl serve`, and so does the KV value read (kv-value-route.ts): they need only the store,
  // so they are made with the services.
  let table: RouteTable | undefined
  // As the app's JSON answer: the same body and headers (HttpServerResponse.json is text with this type).
  const jsonAnswer = (text: string): Answer => {
    const response = HttpServerResponse.text(text, { contentType: "application/json" })
    return { response, body: (response.body as { readonly body: Uint8Array }).body }
  }
  let kvValue: ReturnType<typeof makeKvValueRoute> | undefined
  // A local export's pages of entries (kv-entries-route.ts): a path of the in-process transport only.
  let kvEntries: ReturnType<typeof makeKvEntriesRoute> | undefined
  const fromTable = (request: LocalServerRequest): Answer | undefined => {
    const text = table!(request) ?? kvEntries!(request)
    if (text === undefined) {
      const kv = kvValue!(request)
      if (kv === undefined) return undefined
      // As the `getValue` handler's answer.
      const response = HttpServerResponse.uint8Array(kv.value, {
        contentType: "application/octet-stream",
        headers: kv.headers
      })
      return { response, body: kv.value }
    }
    return jsonAnswer(text)
  }
  const viaPart = (request: LocalServerRequest, signal: AbortSignal): Promise<Answer> => {
    const name = partOf(request.url)
    let part = handlers.get(name)
    if (part === undefined) {
      part = buildPart(name)
      handlers.set(name, part)
    }
    return part.then((h) => h(request, signal))
  }

  // A zone's firewall rules list has a route of its own, loaded with the firewall contract only
  // when a firewall request comes (firewall-rules-route.ts).
  let firewallRules: Promise<(request: LocalServerRequest) => string | undefined> | undefined
  const fromRoutes = async (request: LocalServerRequest): Promise<Answer | undefined> => {
    const context = await (services ??= buildServices())
    const db = Context.get(context, Db).db
    table ??= makeRouteTable(db)
    kvValue ??= makeKvValueRoute(db, LocalKvOptions)
    kvEntries ??= makeKvEntriesRoute(db, LocalKvOptions)
    const answer = fromTable(request)
    if (answer !== undefined || partOf(request.url) !== "firewall") return answer
    firewallRules ??= import("./firewall-rules-route.js").then((m) => m.makeFirewallRulesRoute(db))
    const text = (await firewallRules)(request)
    return text === undefined ? undefined : jsonAnswer(text)
  }

  return {
    dispose,
    handle: (request, signal) => {
      if (options.routeTable === false) return viaPart(request, signal)
      if (table !== undefined && partOf(request.url) !== "firewall") {
        const answer = fromTable(request)
        return answer !== undefined ? Promise.resolve(answer) : viaPart(request, signal)
      }
      return fromRoutes(request).then(
        (answer) => answer ?? viaPart(request, signal),
        // A store that cannot be opened fails as it always did: through the part that needs it.
        () => viaPart(request, signal)
      )
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The client

const requestBytes = (
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<{ bytes: Uint8Array | undefined; contentType: string | null }, HttpClientError.RequestError> => {
  const body = request.body
  const transport = (cause: unknown) => new HttpClientError.RequestError({ request, reason: "Transport", cause })
  switch (body._tag) {
    case "Empty":
      return Effect.succeed({ bytes: undefined, contentType: null })
    case "Uint8Array":
      return Effect.succeed({ bytes: body.body, contentType: null })
    case "Raw":
      return Effect.tryPromise({ try: () => bytesOf(body.body), catch: transport })
    case "FormData":
      return Effect.tryPromise({ try: () => bytesOf(body.formData), catch: transport })
    case "Stream":
      return Effect.mapBoth(Stream.runCollect(body.stream), {
        onFailure: transport,
        onSuccess: (chunks) => ({ bytes: concat(chunks), contentType: null })
      })
  }
}

const pathOf = (href: string) => {
  const index = href.indexOf("/", href.indexOf("//") + 2)
  return index === -1 ? "/" : href.slice(index)
}

/** An `HttpClient` answering every request from the local platform's app, in this process. */
export const makeLocalClient = (handle: Handle): HttpClient.HttpClient =>
  HttpClient.make((request, url, signal) =>
    Effect.flatMap(requestBytes(request), ({ bytes, contentType }) => {
      // As `fetch` would hand the request over: no content-length, a content-type for text bodies.
      let headers = Headers.remove(request.headers, "content-length")
      if (contentType !== null && headers["content-type"] === undefined)
        headers = Headers.set(headers, "content-type", contentType)
      const href = url.href
      const serverRequest = new LocalServerRequest(request, request.method, href, pathOf(href), headers, bytes)
      return Effect.tryPromise({
        try: () => handle(serverRequest, signal),
        catch: (cause) => new HttpClientError.RequestError({ request, reason: "Transport", cause })
      }).pipe(
        Effect.map(({ response, body }) => {
          let responseHeaders = response.headers
          if (!Cookies.isEmpty(response.cookies)) {
            const setCookie = Cookies.toSetCookieHeaders(response.cookies)
            responseHeaders = Headers.set(responseHeaders, "set-cookie", setCookie[setCookie.length - 1]!)
          }
          return new LocalClientResponse(request, response.status, responseHeaders, response.cookies, body)
        })
      )
    })
  )

/** The client layer of local mode over the store at `file`; the store closes with the layer. */
export const layer = (file: string): Layer.Layer<HttpClient.HttpClient> =>
  Layer.scoped(
    HttpClient.HttpClient,
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() => makeLocalHandler(file)),
        (h) => Effect.promise(h.dispose)
      ),
      (h) => makeLocalClient(h.handle)
    )
  )

export type { Handle as LocalHandle }
export { storeFile }
