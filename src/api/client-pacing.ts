/**
 * When a request of the client may go and go again: the process's API budget (a slot taken before
 * each request, given back after, the wait shown on a terminal) and the retries of 429/5xx and of
 * reads that got no answer, with exponential backoff or the platform's Retry-After.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type { V4Error } from "../domain/errors.js"
import type { Budget } from "../domain/rate-budget.js"

/** What pacing reads of the client's configuration (`ClientConfig`, client.ts). */
interface Pace {
  readonly budget?: Budget
  readonly waiting?: (until: number | undefined) => void
}

/**
 * A read that got no answer changed nothing: it is tried again, a write is not (it may have been
 * applied). A 507 (the local platform's disk is full) stays so until someone frees space.
 */
const isRetryable = (method: string) => (e: V4Error) =>
  e._tag === "RateLimited" ||
  (e._tag === "NoAnswer" && method === "GET") ||
  (e._tag === "ApiError" &&
    e.status >= 500 &&
    e.status !== 507 &&
    (method === "GET" || method === "PUT" || method === "DELETE"))

/**
 * Exponential backoff from 200 ms, or what the platform asked for in Retry-After. With a budget,
 * a Retry-After paused it (every request of the process waits, with the countdown): no more here.
 */
const backoff = (config: Pace) => (e: V4Error, attempt: number) =>
  e._tag === "RateLimited" && e.retryAfter !== undefined
    ? config.budget !== undefined
      ? Duration.zero
      : Duration.seconds(Math.min(e.retryAfter, 60))
    : Duration.millis(Math.min(200 * 2 ** attempt, 5000))

/**
 * A slot of the budget for one request (waiting for it as long as it takes, the countdown on a
 * terminal refreshed each second); `done` gives it back once the answer came.
 */
const slot = (config: Pace, budget: Budget) =>
  Effect.async<() => void>((resume) => {
    let countdown: ReturnType<typeof setInterval> | undefined
    const stopCountdown = () => {
      if (countdown === undefined) return
      clearInterval(countdown)
      countdown = undefined
      config.waiting?.(undefined)
    }
    const cancel = budget.acquire((done) => {
      stopCountdown()
      resume(Effect.succeed(done))
    })
    const show = () => {
      const at = budget.nextAt()
      if (at !== undefined) config.waiting?.(at)
    }
    if (config.waiting !== undefined && budget.nextAt() !== undefined) {
      show()
      countdown = setInterval(show, 1000)
    }
    return Effect.sync(() => {
      cancel()
      stopCountdown()
    })
  })

/** The request within the budget, when there is one: a slot taken before, given back after. */
export const budgeted = <A, E, R>(config: Pace, request: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const budget = config.budget
  if (budget === undefined) return request
  return Effect.flatMap(slot(config, budget), (done) => Effect.ensuring(request, Effect.sync(done)))
}

/**
 * `once` tried again, at most `times` more, while it fails in a way `isRetryable` allows. The retry
 * schedule is set up only once a request has failed: most calls succeed at once, and a schedule per
 * call is a noticeable share of an in-process call.
 */
export const retried = <A, R>(
  config: Pace,
  method: string,
  times: number,
  once: Effect.Effect<A, V4Error, R>
): Effect.Effect<A, V4Error, R> => {
  if (times <= 0) return once
  const retryable = isRetryable(method)
  return once.pipe(
    Effect.catchIf(retryable, (first) => {
      let attempt = 0
      const wait = backoff(config)
      return Effect.delay(once, wait(first, attempt++)).pipe(
        Effect.retry({
          while: retryable,
          times: times - 1,
          schedule: Schedule.identity<V4Error>().pipe(Schedule.addDelay((e) => wait(e, attempt++)))
        })
      )
    })
  )
}
