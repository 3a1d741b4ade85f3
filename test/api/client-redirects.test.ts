/**
 * `--remote` and redirects: credentials go only to the configured base URL's origin. Two HTTP
 * servers on 127.0.0.1 (two ports, two origins): the base redirects, the other records what it got.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync } from "../helpers/cli.js"

const emptyZones = JSON.stringify({
  success: true,
  errors: [],
  messages: [],
  result: [],
  result_info: { page: 1, per_page: 50, count: 0, total_count: 0, total_pages: 0 }
})

interface Seen {
  readonly url: string
  readonly headers: http.IncomingHttpHeaders
}

const listen = (handler: http.RequestListener) =>
  new Promise<{ server: http.Server; origin: string }>((resolve) => {
    const server = http.createServer(handler)
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
    )
  })

describe("--remote and redirects", () => {
  const atOther: Array<Seen> = []
  const atBase: Array<Seen> = []
  let other: { server: http.Server; origin: string }
  let base: { server: http.Server; origin: string }
  /** What the base answers: a redirect status and where to. */
  let redirect: { status: number; to: (url: string) => string }

  beforeAll(async () => {
    other = await listen((req, res) => {
      atOther.push({ url: req.url ?? "", headers: req.headers })
      res.writeHead(200, { "content-type": "application/json" }).end(emptyZones)
    })
    base = await listen((req, res) => {
      atBase.push({ url: req.url ?? "", headers: req.headers })
      if (req.url?.startsWith("/client/v4/moved/"))
        return res.writeHead(200, { "content-type": "application/json" }).end(emptyZones)
      res.writeHead(redirect.status, { location: redirect.to(req.url ?? "/") }).end()
    })
  })

  afterAll(() => {
    other.server.close()
    base.server.close()
  })

  const zonesList = (credentials: Record<string, string | undefined>) =>
    edgectlAsync(["zones", "list", "--remote", "--json"], {
      env: { CLOUDFLARE_API_BASE_URL: `${base.origin}/client/v4`, ...credentials }
    })

  const keyAuth = {
    CLOUDFLARE_API_TOKEN: undefined,
    CLOUDFLARE_API_KEY: "0123456789abcdef0123456789abcdef01234",
    CLOUDFLARE_EMAIL: "ops@example.com"
  }
  const tokenAuth = {
    CLOUDFLARE_API_TOKEN: "tok-0123456789abcdef0123456789abcdef0123",
    CLOUDFLARE_API_KEY: undefined,
    CLOUDFLARE_EMAIL: undefined
  }

  it("refuses a redirect to another origin: no credentials leave, the command fails saying why", async () => {
    for (const status of [301, 302, 307, 308]) {
      for (const credentials of [keyAuth, tokenAuth]) {
        atOther.length = 0
        redirect = { status, to: (url) => `${other.origin}${url}` }
        const r = await zonesList(credentials)
        expect(r.status).toBe(1)
        expect(r.stdout).toBe("")
        expect(r.stderr).toBe(
          `error: zones list: refused a cross-origin redirect: GET /client/v4/zones answered HTTP ${status} to ${other.origin}; credentials are sent only to ${base.origin}\n` +
            "hint: check the network and CLOUDFLARE_API_BASE_URL\n"
        )
        // The other origin is never asked at all, so it never sees a credential.
        expect(atOther).toEqual([])
      }
    }
  })

  it("follows a redirect within the base's origin, credentials and all", async () => {
    atBase.length = 0
    redirect = { status: 301, to: (url) => url.replace("/client/v4/", "/client/v4/moved/") }
    const r = await zonesList(keyAuth)
    expect(r.stderr).toBe("")
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual([])
    const moved = atBase.find((s) => s.url.startsWith("/client/v4/moved/zones"))
    expect(moved?.headers["x-auth-key"]).toBe(keyAuth.CLOUDFLARE_API_KEY)
    expect(moved?.headers["x-auth-email"]).toBe(keyAuth.CLOUDFLARE_EMAIL)
  })
})
