import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as readline from "node:readline"
import { describe, expect, it } from "vitest"
import { LOCK_FILE } from "../../src/objects/owner-lock.js"
import { edgectlAsync, json, tempDir } from "../helpers/cli.js"

const script = path.resolve(import.meta.dirname, "../fixtures/objects/take-lock.mts")

// A process that is surely gone: a child that has exited (its pid is free again).
const deadPid = async (): Promise<number> => {
  const c = spawn(process.execPath, ["-e", ""], { stdio: "ignore" })
  await new Promise((r) => c.once("exit", r))
  return c.pid!
}

// Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot.
const processStart = (pid: number): string => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!
}

const objectDirOf = (state: string): string => {
  const root = path.join(state, "objects", "Counter")
  return path.join(root, fs.readdirSync(root)[0]!)
}

describe("owner.lock takeover (the lock records the pid and its start time)", () => {
  it("the CLI takes over a lock whose process is gone or whose pid now belongs to another program, and refuses a live one", async () => {
    const cwd = tempDir()
    const state = path.join(cwd, "st")
    const run = (...a: Array<string>) => edgectlAsync(["objects", ...a, "--persist-to", state], { cwd })
    json(await run("kv", "Counter", "a", "put", "n", "1", "--json"))
    const dir = objectDirOf(state)
    const lock = path.join(dir, LOCK_FILE)
    const sleeper = spawn("sleep", ["30"], { stdio: "ignore" })
    try {
      const start = processStart(sleeper.pid!)
      expect(start).toMatch(/^\d+$/)
      // The very process that wrote the lock is running: refused, naming it.
      fs.writeFileSync(lock, JSON.stringify({ pid: sleeper.pid, start, command: "edgectl objects dev counter.ts" }))
      const refused = await run("kv", "Counter", "a", "get", "n")
      expect(refused.status).toBe(1)
      expect(refused.stderr).toContain(
        `is open in another process: pid ${sleeper.pid} (edgectl objects dev counter.ts)`
      )
      // The same pid with another start time: the writer is gone and its pid was reused.
      for (const pid of [sleeper.pid!, process.pid]) {
        fs.writeFileSync(lock, JSON.stringify({ pid, start: "1", command: "edgectl objects dev counter.ts" }))
        expect(json(await run("kv", "Counter", "a", "get", "n", "--json"))).toEqual({
          key: "n",
          found: true,
          value: "1"
        })
        expect(fs.existsSync(lock)).toBe(false)
      }
      // A pid that no process has.
      fs.writeFileSync(lock, JSON.stringify({ pid: await deadPid(), command: "edgectl objects dev counter.ts" }))
      expect(json(await run("kv", "Counter", "a", "put", "n", "2", "--json"))).toEqual({ key: "n", written: true })
      expect(fs.readdirSync(dir).filter((f) => f.startsWith(LOCK_FILE))).toEqual([])
    } finally {
      const exited = new Promise((r) => sleeper.once("exit", r))
      sleeper.kill()
      await exited
    }
  })

  it("of several processes taking over the same dead lock at once, exactly one wins", async () => {
    const root = tempDir()
    const count = 150
    const dead = JSON.stringify({ pid: await deadPid(), command: "edgectl objects dev" })
    for (let i = 0; i < count; i++) {
      fs.mkdirSync(path.join(root, String(i)))
      fs.writeFileSync(path.join(root, String(i), LOCK_FILE), dead)
    }
    const startAt = Date.now() + 2500
    const racers = Array.from({ length: 4 }, () =>
      spawn(process.execPath, ["--import", "tsx", script, root, String(count), String(startAt)], {
        stdio: ["pipe", "pipe", "inherit"]
      })
    )
    try {
      const answers = await Promise.all(
        racers.map(
          (c) =>
            new Promise<Array<number>>((resolve, reject) => {
              readline
                .createInterface({ input: c.stdout! })
                .once("line", (l) => resolve(JSON.parse(l) as Array<number>))
              c.once("exit", (code) => reject(new Error(`racer exited ${code}`)))
            })
        )
      )
      const wins = new Array<number>(count).fill(0)
      for (const a of answers) for (const i of a) wins[i]!++
      expect(wins).toEqual(new Array<number>(count).fill(1))
      // Every lock now names one of the racers, whole.
      const pids = new Set(racers.map((c) => c.pid))
      for (let i = 0; i < count; i++)
        expect(
          pids.has((JSON.parse(fs.readFileSync(path.join(root, String(i), LOCK_FILE), "utf8")) as { pid: number }).pid)
        ).toBe(true)
    } finally {
      await Promise.all(
        racers.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : (c.once("exit", r), c.stdin!.end()))))
      )
    }
  })
})

describe("objects commands side by side on a stopped object", () => {
  it("wait for one another instead of refusing: every write of eight at once lands", async () => {
    const cwd = tempDir()
    const state = path.join(cwd, "st")
    const run = (...a: Array<string>) => edgectlAsync(["objects", ...a, "--persist-to", state], { cwd })
    json(await run("kv", "Counter", "a", "put", "first", "0", "--json"))
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => run("kv", "Counter", "a", "put", `k${i}`, "v", "--json"))
    )
    expect(results.map((r) => [r.status, r.stderr])).toEqual(results.map(() => [0, ""]))
    const keys = json<Array<{ key: string }>>(await run("kv", "Counter", "a", "list", "--json")).map((e) => e.key)
    expect(keys).toEqual(["first", ...Array.from({ length: 8 }, (_, i) => `k${i}`)])
  })
})
