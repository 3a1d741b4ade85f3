/**
 * `edgectl serve --upstream URL`: forwards every request to another platform within its API
 * budget, so tools that fail on the platform's 429 (Terraform, the SDK, the platform's KV tool)
 * can be pointed at it through their base-URL setting. Requests past the budget wait their turn
 * (queued, never refused); one budget per credential, as the platform counts per user; an
 * upstream 429 pauses that credential's budget for its Retry-After and the request is sent again
 * (a 429 applied nothing). Credentials go through untouched and are never logged; nothing is
 * followed (a 3xx goes back to the caller as it came).
 */
import * as http from "node:http"
import * as https from "node:https"
import { BasePath } from "../api/contract-core.js"
import { makeBudget, type Budget, type RateLimit } from "../domain/rate-budget.js"
import { ApiError, toFailureEnvelope } from "../domain/errors.js"
import { credentialOf } from "./rate-gate.js"

export interface UpstreamOptions {
  readonly host: string
  readonly port: number
  /** The other platform's v4 base, e.g. `https://api.cloudflare.com/client/v4`. */
  readonly upstream: string
  readonly limit: RateLimit
}

/** Headers of one connection, not of the request: never forwarded. */
const HopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length"
])

const endToEnd = (headers: http.IncomingHttpHeaders) => {
  const out: Record<string, string | Array<string>> = {}
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HopByHop.has(k)) out[k] = v
  return out
}

/** Retry-After's seconds (a number, or an HTTP date), or undefined without a usable one. */
const retryAfterOf = (h: string | undefined) => {
  if (h === undefined || h === "") return undefined
  const n = Number(h)
  const seconds = Number.isFinite(n) ? n : (Date.parse(h) - Date.now()) / 1000
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined
}

/** Times an upstream 429 is sent again before it goes back to the caller. */
const Max429Retries = 5

const failure = (res: http.ServerResponse, status: number, message: string) => {
  if (res.headersSent) return void res.destroy()
  const body = JSON.stringify(toFailureEnvelope(new ApiError({ status, message })))
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

/** Serves the forwarding proxy until `close`; resolves once it listens. */
export const serveUpstream = (o: UpstreamOptions) =>
  new Promise<{ readonly server: http.Server; readonly port: number }>((resolve, reject) => {
    const base = new URL(o.upstream)
    const basePath = base.pathname.replace(/\/$/, "")
    const transport = base.protocol === "https:" ? https : http
    const budgets = new Map<string, Budget>()
    const budgetOf = (key: string) => {
      let b = budgets.get(key)
      if (b === undefined) budgets.set(key, (b = makeBudget(o.limit)))
      return b
    }
    const server = http.createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("error", () => res.destroy())
      req.on("end", () => {
        const body = Buffer.concat(chunks)
        // The path under the local base (`/client/v4/zones?x` -> `/zones?x`) under the upstream's.
        const local = req.url ?? "/"
        const rest = local.startsWith(BasePath) ? local.slice(BasePath.length) : local
        const target = new URL(base.origin + basePath + rest)
        const headers = { ...endToEnd(req.headers), "content-length": String(body.byteLength) }
        const budget = budgetOf(credentialOf(req))
        const attempt = (tries: number) => {
          let cancel = () => {}
          // A caller that went away while its request waited: it is not sent.
          const onGone = () => cancel()
          res.once("close", onGone)
          cancel = budget.acquire((done) => {
            res.off("close", onGone)
            const up = transport.request(target, { method: req.method ?? "GET", headers }, (answer) => {
              done()
              if (answer.statusCode === 429 && tries < Max429Retries && res.writable) {
                budget.pause(
                  Math.min(retryAfterOf(answer.headers["retry-after"]) ?? 2 ** tries, Math.max(60, o.limit.seconds))
                )
                answer.resume()
                return attempt(tries + 1)
              }
              res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers))
              answer.pipe(res)
              answer.on("error", () => res.destroy())
            })
            up.on("error", (e) => {
              done()
              failure(res, 502, `edgectl serve --upstream: cannot reach ${base.origin}: ${e.message}`)
            })
            up.end(body)
          })
        }
        attempt(0)
      })
    })
    server.once("error", reject)
    server.listen(o.port, o.host, () => {
      server.off("error", reject)
      const address = server.address()
      resolve({ server, port: typeof address === "object" && address !== null ? address.port : o.port })
    })
  })
