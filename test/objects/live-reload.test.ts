// `objects dev` reloads its module (and what it imports) on change, with the objects' storage
// intact; a module that fails to load leaves the previous version running.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { type Dev, startDev, workspace } from "../helpers/objects-live.js"

const source = (version: string) => `import { label } from "./label"
export class Tally {
  ctx: any
  constructor(ctx: any) {
    this.ctx = ctx
  }
  async fetch(): Promise<Response> {
    const s = this.ctx.storage
    const n = (((await s.get("n")) as number | undefined) ?? 0) + 1
    await s.put("n", n)
    // In flight a little longer (a reload waits for it); other requests run meanwhile.
    await new Promise((r) => setTimeout(r, 2))
    return new Response(label + ":${version}:" + n)
  }
}
`
const label = (l: string) => `export const label = ${JSON.stringify(l)}\n`

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe("objects dev reloads on change", () => {
  it("a change of the module or of a file it imports restarts the objects on the new code with their storage; requests running meanwhile all succeed; a broken module keeps the previous version", async () => {
    const { cwd, state } = workspace()
    const module = path.join(cwd, "tally.ts")
    fs.writeFileSync(module, source("v1"))
    fs.writeFileSync(path.join(cwd, "label.ts"), label("A"))
    const dev: Dev = await startDev(cwd, state, module)
    const answers: Array<Array<{ status: number; text: string }>> = [[], [], []]
    let stop = false
    const loops = answers.map(async (out) => {
      while (!stop) {
        const r = await fetch(`${dev.url}/Tally/a/`)
        out.push({ status: r.status, text: await r.text() })
      }
    })
    const latest = () => answers.flat().at(-1)?.text ?? ""
    try {
      await until("first answers", () => answers.flat().length > 5)
      // A save in two writes: the first half does not compile (reported, the old version runs on).
      const next = source("v2")
      fs.writeFileSync(module, next.slice(0, next.length / 2))
      await until("the half-saved module's error", () => dev.stderr().includes("error: objects dev: reloading"))
      fs.writeFileSync(module, next)
      await until("version 2", () => latest().startsWith("A:v2:"))
      fs.writeFileSync(path.join(cwd, "label.ts"), label("B"))
      await until("the imported file's change", () => latest().startsWith("B:v2:"))
      fs.writeFileSync(module, "export class Tally { fetch( {")
      await until("the broken module's error", () => dev.stderr().split("error: objects dev: reloading").length === 3)
      const before = answers.flat().length
      await until("more answers", () => answers.flat().length > before + 5)
      expect(latest()).toMatch(/^B:v2:\d+$/)
    } finally {
      stop = true
      await Promise.all(loops)
      await dev.stop()
    }
    const all = answers.flat()
    expect(all.filter((a) => a.status !== 200)).toEqual([])
    // One count across every version: the storage stayed, and no increment was lost or repeated.
    const counts = all.map((a) => Number(a.text.split(":")[2]))
    expect([...counts].sort((x, y) => x - y)).toEqual(counts.map((_, i) => i + 1))
    // Each client saw the versions in order.
    const order = ["A:v1", "A:v2", "B:v2"]
    for (const out of answers) {
      const seen = out.map((a) => order.indexOf(a.text.split(":").slice(0, 2).join(":")))
      expect(seen.every((v, i) => v >= 0 && (i === 0 || v >= seen[i - 1]!))).toBe(true)
    }
    expect(dev.stderr()).toMatch(/reloaded .*tally\.ts: Tally \(1 running object\(s\) restarted\)/)
    expect(dev.stderr()).toMatch(
      /error: objects dev: reloading .*tally\.ts: cannot compile .*; the previous version keeps running/
    )
  })

  it("--no-watch keeps the version it started with", async () => {
    const { cwd, state } = workspace()
    const module = path.join(cwd, "tally.ts")
    fs.writeFileSync(module, source("v1"))
    fs.writeFileSync(path.join(cwd, "label.ts"), label("A"))
    const dev = await startDev(cwd, state, module, "--no-watch")
    try {
      expect(await dev.text("/Tally/a/")).toBe("A:v1:1")
      fs.writeFileSync(module, source("v2"))
      await new Promise((r) => setTimeout(r, 600))
      expect(await dev.text("/Tally/a/")).toBe("A:v1:2")
      expect(dev.stderr()).not.toContain("reloaded")
    } finally {
      await dev.stop()
    }
  })
})
