/**
 * `edgectl serve` answers without a span per request (src/server/platform.ts: untracedLayer). Nothing
 * collects the platform's spans, and the tracer that every served app gets costs a share of each
 * request; its setting is read by each request's fiber, so where it is set matters (set around the
 * API's layer, it ended with that layer's build and every request was traced).
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as Tracer from "effect/Tracer"
import { describe, expect, it } from "vitest"
import { serve } from "../../src/server/serve.js"
import { request, tempDir } from "../helpers/platform.js"

describe("the served platform's requests", () => {
  it("record no http.server span, while the tracer it runs under records others", async () => {
    const spans: Array<string> = []
    const scope = await Effect.runPromise(Scope.make())
    try {
      const served = await Effect.gen(function* () {
        const base = yield* Effect.tracer
        const recording = Tracer.make({
          span: (name, ...rest) => {
            spans.push(name)
            return base.span(name, ...rest)
          },
          context: base.context
        })
        // A span of its own first: the recording tracer is the one in use.
        return yield* Effect.withSpan(
          serve({ host: "127.0.0.1", port: 0, stateDir: tempDir() }),
          "start the platform"
        ).pipe(Effect.withTracer(recording))
      }).pipe(Scope.extend(scope), Effect.runPromise)
      const zones = await request<{ result: Array<{ id: string }> }>(served.baseUrl, "/zones?name=acme.com")
      expect(zones.status).toBe(200)
      const zone = await request(served.baseUrl, `/zones/${zones.body.result[0]!.id}`)
      expect(zone.status).toBe(200)
      expect((await request(served.baseUrl, "/nope")).status).toBe(404)
      expect(spans).toContain("start the platform")
      expect(spans.filter((s) => s.startsWith("http."))).toEqual([])
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  })
})
