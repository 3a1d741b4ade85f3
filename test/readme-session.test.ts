/**
 * The README's first session, run as printed: each `node bin/edgectl.cjs …` line of it, in order,
 * from a directory of its own (the default state, `.edgectl/state`, made there on the first
 * command) with the project's `fixtures/` beside it, as in a clone. Each exits as its comment says
 * (`exit 1` where it says so, else 0) and prints something; after the migration's apply only the
 * previous WAF has a step left (it was deployed to validation mode, the dashboard's Deploy: its
 * finish is the next step).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectl, root, tempDir } from "./helpers/cli.js"

const readme = fs.readFileSync(path.join(root, "README.md"), "utf8")
const session = /## A first session[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? ""
const lines = session
  .split("\n")
  .filter((l) => l.startsWith("node bin/edgectl.cjs "))
  .map((l) => {
    const [command = "", comment = ""] = l.split(/\s+#\s+/)
    return { line: l, args: command.trim().split(/\s+/).slice(2), exit: /\bexit 1\b/.test(comment) ? 1 : 0 }
  })

describe("the README's first session", () => {
  it("has the commands of a session: look, preview, scan, replay, apply", () => {
    expect(lines.map((l) => l.args.slice(0, 2).join(" "))).toEqual(
      expect.arrayContaining(["zones list", "scan fixtures/terraform", "migrate --zone"])
    )
    expect(lines.some((l) => l.args.includes("--replay"))).toBe(true)
    expect(lines.some((l) => l.args.includes("--yes"))).toBe(true)
  })

  it("runs as printed, each command exiting as its comment says", () => {
    const dir = tempDir("edgectl-readme-")
    fs.symlinkSync(path.join(root, "fixtures"), path.join(dir, "fixtures"))
    for (const { line, args, exit } of lines) {
      const r = edgectl(args, { cwd: dir })
      expect({ line, status: r.status }, r.stderr).toEqual({ line, status: exit })
      expect(r.stdout.length, line).toBeGreaterThan(0)
    }
    const after = edgectl(["migrate", "--zone", "acme-mail.com", "--dry-run", "--json"], { cwd: dir })
    expect(after.status, after.stderr).toBe(0)
    const plan = JSON.parse(after.stdout) as { summary: Array<{ part: string; status: string }> }
    expect(plan.summary.filter((p) => p.status === "planned").map((p) => p.part)).toEqual(["waf"])
  })
})
