/**
 * `edgectl serve --rate-limit N/SECONDS`: the platform's API budget as it answers it, so that
 * scripts can be tried against it. Per credential (the platform counts per user): at most N
 * requests arrived in any S seconds; past that, 429 with `Retry-After` (whole seconds until the
 * oldest counted request leaves the window) and the platform's failure envelope, and the refused
 * request does not count. Credentials are only a key of the count: never logged or kept after.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { RateLimit } from "../domain/rate-budget.js"
import { RateLimited, toFailureEnvelope } from "../domain/errors.js"

/** Who the platform counts a request against: its token, or its key and email. */
export const credentialOf = (req: IncomingMessage): string => {
  const h = req.headers
  if (typeof h.authorization === "string") return `a:${h.authorization}`
  return `k:${String(h["x-auth-email"] ?? "")}:${String(h["x-auth-key"] ?? "")}`
}

export type Listener = (req: IncomingMessage, res: ServerResponse) => void

/** Wraps `next` (the platform's listener) so that requests past the budget are answered 429. */
export const rateGate = (limit: RateLimit, now: () => number = Date.now) => {
  const windowMs = limit.seconds * 1000
  const arrivals = new Map<string, Array<number>>()
  return (next: Listener): Listener =>
    (req, res) => {
      const t = now()
      const key = credentialOf(req)
      let times = arrivals.get(key)
      if (times === undefined) arrivals.set(key, (times = []))
      while (times.length > 0 && times[0]! <= t - windowMs) times.shift()
      if (times.length < limit.requests) {
        times.push(t)
        return next(req, res)
      }
      const retryAfter = Math.max(1, Math.ceil((times[0]! + windowMs - t) / 1000))
      const body = JSON.stringify(
        toFailureEnvelope(
          new RateLimited({
            message: `More than ${limit.requests} requests per ${limit.seconds} seconds reached. Please wait ${retryAfter} s and consider throttling your request speed`
          })
        )
      )
      // Its body is not read: let it go, so that the connection can take the next request.
      req.resume()
      res.writeHead(429, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "retry-after": String(retryAfter)
      })
      res.end(body)
    }
}
