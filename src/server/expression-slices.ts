/**
 * A body's expressions checked in slices: up to 1,000 of them (~0.4 s when the checker is cold)
 * would hold the event loop, so after each slice of ~8 ms it gets a turn and other clients are
 * answered. The answer is the one checking them in one go gives: the first bad one, in body order.
 */
import * as Effect from "effect/Effect"
import type { InvalidExpression } from "../domain/errors.js"
import { expressionError } from "../firewall/expression.js"

/** How long expressions are checked before the event loop gets a turn. (Date.now: ms is enough, and
 * perf_hooks would be loaded by every command that loads the firewall's handlers.) */
const SliceMs = 8

/** A turn of the event loop, I/O included (Effect.yieldNow may resume on a microtask). */
const nextTurn = Effect.async<void>((resume) => {
  const t = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(t))
})

/** An expression of a body, and where it is (`[index].field` when the body held several). */
export interface ExpressionAt {
  readonly expression: string
  readonly index: number
  readonly field: string
}

/** The error of the first expression that does not check for the zone's `plan`, or undefined. */
export const firstInvalidExpression = (
  plan: string,
  items: ReadonlyArray<ExpressionAt>,
  many: boolean
): Effect.Effect<InvalidExpression | undefined> =>
  Effect.gen(function* () {
    let sliceStart = Date.now()
    for (const it of items) {
      if (Date.now() - sliceStart >= SliceMs) {
        yield* nextTurn
        sliceStart = Date.now()
      }
      const e = expressionError(it.expression, plan, many ? { index: it.index, field: it.field } : undefined)
      if (e) return e
    }
    return undefined
  })
