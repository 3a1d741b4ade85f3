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
import { partLayer, type PartName, partOf } from "./parts.js"
import { LocalKvOptions } from "../kv-options.js"
import { storeFile, storeServices, untracedEffect, withHttpSettings, type StoreServices } from "../platform.js"
import { bytesOf, concat, LocalClientResponse, LocalServerRequest, type Answer } from "./local-messages.js"
import { fastAnswer, makeFastRoutes, type FastAnswer, type FastRoute } from "./fast-routes.js"
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
 * store. A request is tried first by the fast routes of its part (fast-routes.ts), then by the part;
 * `routeTable: false` sends every request to the part (tests compare both).
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
      const part = yield* Effect.promise(() => partLayer(name))
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

  const viaPart = (name: PartName, request: LocalServerRequest, signal: AbortSignal): Promise<Answer> => {
    let part = handlers.get(name)
    if (part === undefined) {
      part = buildPart(name)
      handlers.set(name, part)
    }
    return part.then((h) => h(request, signal))
  }

  // The fast routes (fast-routes.ts) answer a few reads before any part is built, as in `edgectl
  // serve`: those of a part are made with the services on the first request for that part, then
  // tried synchronously.
  const routes = new Map<PartName, ReadonlyArray<FastRoute>>()
  const making = new Map<PartName, Promise<ReadonlyArray<FastRoute>>>()
  const makeRoutes = (name: PartName) => {
    let made = making.get(name)
    if (made === undefined) {
      made = (services ??= buildServices()).then((context) => makeFastRoutes(context, (r) => r.part === name))
      void made.then(
        (r) => routes.set(name, r),
        () => undefined
      )
      making.set(name, made)
    }
    return made
  }
  const tried = (made: ReadonlyArray<FastRoute>, name: PartName, request: LocalServerRequest, signal: AbortSignal) => {
    const answer = made.length === 0 ? undefined : fastAnswer(made, request)
    return answer !== undefined ? Promise.resolve(answerOf(answer)) : viaPart(name, request, signal)
  }

  return {
    dispose,
    handle: (request, signal) => {
      const name = partOf(request.url)
      if (options.routeTable === false) return viaPart(name, request, signal)
      const made = routes.get(name)
      if (made !== undefined) return tried(made, name, request, signal)
      return makeRoutes(name).then(
        (made) => tried(made, name, request, signal),
        // A store that cannot be opened fails as it always did: through the part that needs it.
        () => viaPart(name, request, signal)
      )
    }
  }
}

/** A fast route's answer as the app's: the same body and headers. */
const answerOf = (answer: FastAnswer): Answer => {
  if (typeof answer === "string") {
    // As the app's JSON answer (HttpServerResponse.json is text with this type).
    const response = HttpServerResponse.text(answer, { contentType: "application/json" })
    return { response, body: (response.body as { readonly body: Uint8Array }).body }
  }
  // As the `getValue` handler's answer.
  const response = HttpServerResponse.uint8Array(answer.value, {
    contentType: "application/octet-stream",
    headers: answer.headers
  })
  return { response, body: answer.value }
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
