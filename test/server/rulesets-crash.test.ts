/**
 * A crash of `edgectl serve` (SIGKILL) while clients add, update, reorder and delete custom rules
 * in a loop: after a restart on the same state, the SQLite file passes `PRAGMA integrity_check`,
 * the entry point is a version the platform committed (the last one it acknowledged, or one whose
 * answer the kill cut off), exactly as its history holds it, with no version lost or skipped
 * before it and the entry point row and the history agreeing; its rules are whole (unique ids and
 * refs, every position reachable). Each write is one immediate transaction
 * (src/server/rulesets-handlers.ts), so there is nothing in between to find.
 */
import Database from "better-sqlite3"
import { spawn, type ChildProcess } from "node:child_process"
import * as readline from "node:readline"
import { afterAll, describe, expect, it } from "vitest"
import { storeFile } from "../../src/server/platform.js"
import { bin, tempDir } from "../helpers/cli.js"
import { request } from "../helpers/platform.js"

interface Served {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly token: string
}

const children: Array<ChildProcess> = []
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
})

const serve = async (stateDir: string): Promise<Served> => {
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", stateDir], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.push(child)
  const lines = readline.createInterface({ input: child.stdout! })
  const ready = await new Promise<{ baseUrl: string; token: string }>((resolve, reject) => {
    lines.once("line", (l) => resolve(JSON.parse(l) as { baseUrl: string; token: string }))
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)))
  })
  return { child, ...ready }
}

interface Ruleset {
  id: string
  version: string
  rules: Array<{ id: string; ref: string; expression: string }>
}

describe("rulesets writes survive a kill -9 of edgectl serve", () => {
  it("after a restart the entry point is a committed version, whole, its history contiguous", async () => {
    const stateDir = tempDir("edgectl-rulesets-crash-")
    const s = await serve(stateDir)
    const send = (method: string, path: string, body?: unknown) =>
      request<{ result: Ruleset }>(s.baseUrl, path, { method, body, token: s.token })
    const zones = (await request(s.baseUrl, "/zones?per_page=50", { token: s.token })).body.result as Array<any>
    const zone = zones.find((z) => z.plan?.legacy_id === "enterprise")!.id as string
    const ep = `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`
    const first = await send("PUT", ep, {
      rules: [0, 1, 2].map((i) => ({ action: "block", expression: `http.request.uri.path eq "/${i}"`, ref: `r${i}` }))
    })
    expect(first.status).toBe(200)
    const rules = `/zones/${zone}/rulesets/${first.body.result.id}/rules`
    const acked = new Map<string, Ruleset>([[first.body.result.version, first.body.result]])
    let stop = false
    let n = 3
    let cutOff = 0
    // Each client reads the rules it may touch from its last answer: another's write may have moved or deleted them.
    const client = async (k: number) => {
      let seen = first.body.result
      for (let i = 0; !stop; i++) {
        const pick = seen.rules[(i * 7 + k) % seen.rules.length]!
        const op = (i + k) % 4
        const [method, path, body] =
          op === 0 || seen.rules.length < 3
            ? [
                "POST",
                rules,
                { action: "block", expression: `http.host eq "h${n}.example"`, ref: `r${n++}`, position: { index: 1 } }
              ]
            : op === 1
              ? [
                  "PATCH",
                  `${rules}/${pick.id}`,
                  { action: "block", expression: `${pick.expression} or ssl`.slice(-200), ref: pick.ref }
                ]
              : op === 2
                ? ["PATCH", `${rules}/${pick.id}`, { position: { index: 1 + ((i * 3) % seen.rules.length) } }]
                : ["DELETE", `${rules}/${pick.id}`, undefined]
        try {
          const r = await send(method, path, body)
          if (r.status === 200) {
            acked.set(r.body.result.version, r.body.result)
            seen = r.body.result
          } else {
            // A rule another client deleted or moved in between: read the entry point again.
            const now = await send("GET", ep)
            if (now.status === 200) seen = now.body.result
          }
        } catch {
          cutOff++ // the kill cut this request off: no answer
          return
        }
      }
    }
    const clients = [0, 1, 2].map(client)
    // Kill once the loop is well under way, with requests in flight.
    while (acked.size < 120) await new Promise((r) => setTimeout(r, 20))
    s.child.kill("SIGKILL")
    await new Promise((r) => s.child.once("exit", r))
    stop = true
    await Promise.all(clients)

    const db = new Database(storeFile(stateDir), { readonly: true })
    let stored: { version: number; ruleset: string }
    let history: Array<{ version: number; ruleset: string }>
    try {
      expect(db.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }])
      stored = db
        .prepare(
          "SELECT version, ruleset FROM zone_rulesets WHERE zone_id = ? AND phase = 'http_request_firewall_custom'"
        )
        .get(zone) as typeof stored
      history = db
        .prepare("SELECT version, ruleset FROM zone_ruleset_versions WHERE ruleset_id = ? ORDER BY version DESC")
        .all(first.body.result.id) as typeof history
    } finally {
      db.close()
    }
    const latestAcked = Math.max(...[...acked.keys()].map(Number))
    // The last acknowledged write is there; at most the three writes in flight went further.
    expect(stored.version).toBeGreaterThanOrEqual(latestAcked)
    expect(stored.version).toBeLessThanOrEqual(latestAcked + 3)
    // The row and the history agree, and the history has no gap (and keeps the newest 50).
    expect(history[0]).toEqual(stored)
    expect(history.map((h) => h.version)).toEqual(Array.from({ length: history.length }, (_, i) => stored.version - i))
    expect(history.length).toBe(Math.min(50, stored.version))
    // Every acknowledged version still in the history is stored exactly as it was answered.
    for (const h of history) {
      const a = acked.get(String(h.version))
      if (a !== undefined) expect(JSON.parse(h.ruleset)).toEqual(a)
    }

    const again = await serve(stateDir)
    try {
      const now = await request<{ result: Ruleset }>(again.baseUrl, ep, { token: again.token })
      expect(now.status).toBe(200)
      const r = now.body.result
      expect(r).toEqual(JSON.parse(stored.ruleset))
      expect(new Set(r.rules.map((x) => x.id)).size).toBe(r.rules.length)
      expect(new Set(r.rules.map((x) => x.ref)).size).toBe(r.rules.length)
      // Positions are contiguous: moving the last rule to index n (the count) keeps it last, and to 1 puts it first.
      const last = r.rules.at(-1)!
      const moved = await request<{ result: Ruleset }>(again.baseUrl, `${rules}/${last.id}`, {
        method: "PATCH",
        token: again.token,
        body: { position: { index: 1 } }
      })
      expect(moved.status).toBe(200)
      expect(moved.body.result.rules.map((x) => x.id)).toEqual([last.id, ...r.rules.slice(0, -1).map((x) => x.id)])
      expect(moved.body.result.version).toBe(String(stored.version + 1))
    } finally {
      again.child.kill("SIGTERM")
    }
    expect(acked.size).toBeGreaterThanOrEqual(120)
    expect(cutOff).toBeGreaterThan(0)
  })
})
