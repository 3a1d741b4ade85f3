/**
 * A local HTTP proxy in front of `edgectl serve` that misbehaves at the Nth request it counts (by
 * default the writes: PUT, POST, PATCH, DELETE, not a check with `dry_run=true`): it answers a v4 failure (403, 500, …) without
 * forwarding, stalls (holds the request, never answers), drops the connection before forwarding,
 * or forwards and then drops the connection (the write is applied, the client never hears it).
 * Everything else is forwarded as it is. Loopback only.
 */
import * as http from "node:http"
import type { AddressInfo, Socket } from "node:net"

export type Fault =
  | {
      readonly kind: "status"
      readonly status: number
      readonly code?: number
      readonly message?: string
      /** How many counted requests from the Nth on get it (a 500 is retried by the client). */
      readonly times?: number
    }
  | { readonly kind: "stall" }
  | { readonly kind: "drop" }
  | { readonly kind: "drop-after" }
  /** Another client's work, done before the request is forwarded as it is (or, with `answer`, failed so). */
  | {
      readonly kind: "meanwhile"
      readonly run: () => Promise<unknown>
      readonly answer?: { readonly status: number; readonly code?: number; readonly message?: string }
    }

export interface FaultProxy {
  /** The base URL to give the client (`CLOUDFLARE_API_BASE_URL`). */
  readonly baseUrl: string
  /** Every request seen, counted or not, in order. */
  readonly seen: ReadonlyArray<{ readonly method: string; readonly path: string; readonly fault?: string }>
  /** Arms a fault at the Nth counted request from now on (undefined: none). */
  readonly arm: (at: number | undefined, fault?: Fault) => void
  /** Resolves when a request is being held by a stall. */
  readonly stalled: () => Promise<void>
  readonly close: () => Promise<void>
}

const WRITES = ["PUT", "POST", "PATCH", "DELETE"]

export const startFaultProxy = async (
  upstream: string,
  options: { readonly at?: number; readonly fault?: Fault; readonly methods?: ReadonlyArray<string> } = {}
): Promise<FaultProxy> => {
  const up = new URL(upstream)
  const methods = options.methods ?? WRITES
  let at = options.at
  let fault = options.fault
  let counted = 0
  const seen: Array<{ method: string; path: string; fault?: string }> = []
  const sockets = new Set<Socket>()
  let onStall: Array<() => void> = []
  let stalls = 0

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, dropAfter: boolean) => {
    const out = http.request(
      {
        host: up.hostname,
        port: up.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: up.host, "content-length": String(body.length) }
      },
      (answer) => {
        const chunks: Array<Buffer> = []
        answer.on("data", (c: Buffer) => chunks.push(c))
        answer.on("end", () => {
          if (dropAfter) {
            req.socket.destroy()
            return
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          res.end(Buffer.concat(chunks))
        })
      }
    )
    out.on("error", () => req.socket.destroy())
    out.end(body)
  }

  const failWith = (
    res: http.ServerResponse,
    f: { readonly status: number; readonly code?: number; readonly message?: string }
  ) => {
    res.writeHead(f.status, { "content-type": "application/json" })
    res.end(
      JSON.stringify({
        success: false,
        errors: [
          {
            code: f.code ?? (f.status === 403 ? 10000 : 10001),
            message: f.message ?? (f.status === 403 ? "Authentication error" : "internal server error")
          }
        ],
        messages: [],
        result: null
      })
    )
  }

  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks)
      const method = req.method ?? "GET"
      let n: number | undefined
      // A check with dry_run=true writes nothing: the Nth counted request is the Nth real write.
      if (methods.includes(method) && !/[?&]dry_run=true(&|$)/.test(req.url ?? "")) n = ++counted
      const times = fault?.kind === "status" ? (fault.times ?? 1) : 1
      const hit = n !== undefined && at !== undefined && fault !== undefined && n >= at && n < at + times
      seen.push({ method, path: req.url ?? "", ...(hit ? { fault: fault!.kind } : {}) })
      if (!hit) return forward(req, res, body, false)
      const f = fault!
      switch (f.kind) {
        case "status":
          return failWith(res, f)
        case "stall":
          stalls++
          for (const r of onStall) r()
          onStall = []
          return
        case "drop":
          req.socket.destroy()
          return
        case "drop-after":
          return forward(req, res, body, true)
        case "meanwhile":
          void f.run().then(() => (f.answer !== undefined ? failWith(res, f.answer) : forward(req, res, body, false)))
          return
      }
    })
  })
  server.on("connection", (s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    baseUrl: `http://127.0.0.1:${port}${up.pathname.replace(/\/$/, "")}`,
    seen,
    arm: (n, f) => {
      counted = 0
      at = n
      fault = f
    },
    stalled: () => (stalls > 0 ? Promise.resolve() : new Promise((resolve) => onStall.push(resolve))),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}
