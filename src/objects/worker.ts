// The module's worker (its default export), which `objects dev` sends every HTTP request to, as
// the platform's dev tools do: a WorkerEntrypoint subclass (a new instance per request, with
// `this.ctx` and `this.env`) or an object with `fetch(request, env, ctx)`.
import type { WorkerHandler } from "./module-loader.js"

/** The `ctx` of a worker's request. */
const executionContext = () => ({
  waitUntil(promise: Promise<unknown>): void {
    // Nothing outlives the request here; a rejection must not stop the host.
    promise.catch(() => undefined)
  },
  passThroughOnException(): void {},
  props: {}
})

export const runWorker = async (worker: WorkerHandler, env: unknown, request: Request): Promise<Response> => {
  const ctx = executionContext()
  let response: unknown
  if (worker.kind === "entrypoint") {
    const entry = new worker.cls(ctx, env)
    const f = entry.fetch
    if (typeof f !== "function") throw new TypeError("the worker's entrypoint has no fetch() method")
    response = await (f as (r: Request) => unknown).call(entry, request)
  } else {
    response = await (worker.handler.fetch as (r: Request, e: unknown, c: unknown) => unknown).call(
      worker.handler,
      request,
      env,
      ctx
    )
  }
  if (!(response instanceof Response))
    throw new TypeError(`the worker's fetch() must return a Response, got ${typeof response}`)
  return response
}
