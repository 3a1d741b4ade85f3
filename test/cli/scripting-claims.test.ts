/**
 * Issue 30 item 6, through the built CLI: README claims (now docs/commands.md's) made true or exact.
 * `waf replay --limit 0` prints only the counts; a group of commands alone is a usage error; which
 * commands take `--json` is what docs/commands.md says.
 */
import Database from "better-sqlite3"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as readline from "node:readline"
import { describe, expect, it } from "vitest"
import { bin, edgectl, edgectlAsync, root, shell, tempDir } from "../helpers/cli.js"

const dir = tempDir("edgectl-claims-")
const local = ["--persist-to", path.join(dir, "state")]
const lines = (s: string) => s.split("\n").filter((l) => l !== "")
const sample = path.join(root, "fixtures/waf/traffic-sample.jsonl")

describe("the claims of docs/commands.md", () => {
  it("waf replay --limit 0 prints only the counts", async () => {
    const all = await edgectlAsync(["waf", "replay", "--zone", "acme.com", "--traffic", sample, ...local], { cwd: dir })
    expect(all.status, all.stderr).toBe(0)
    const counts = await edgectlAsync(
      ["waf", "replay", "--zone", "acme.com", "--traffic", sample, "--limit", "0", ...local],
      { cwd: dir }
    )
    expect([counts.status, counts.stderr]).toEqual([0, ""])
    const total = Number(/(\d+) disagree/.exec(counts.stdout)?.[1])
    expect(lines(counts.stdout)).toEqual([...lines(all.stdout).slice(0, 3), `... ${total} more (--limit N, or --json)`])
    expect(counts.stdout).toMatch(/\d+ disagree/)
    expect(counts.stdout).not.toContain("LINE")
    expect(counts.stdout).not.toContain("DISAGREEMENTS")
  }, 60_000)

  it("a group of commands alone is a usage error naming its commands", async () => {
    for (const group of [["zones"], ["kv", "namespace"], ["firewall", "rules"]]) {
      const r = await edgectlAsync([...group, ...local], { cwd: dir })
      expect([r.status, r.stdout]).toEqual([2, ""])
      expect(lines(r.stderr)[0]).toMatch(new RegExp(`^error: edgectl ${group.join(" ")} needs a command: \\w`))
      expect(lines(r.stderr)[1]).toBe(`hint: run \`edgectl ${group.join(" ")} --help\` for what each does`)
    }
    const help = await edgectlAsync(["zones", "--help"], { cwd: dir })
    expect(help.status).toBe(0)
  }, 60_000)

  it("every command takes --json but the ones docs/commands.md names", async () => {
    const help = await edgectlAsync(["--help"], { cwd: dir })
    const commands = lines(help.stdout)
      .map((l) => /^\s+- ([a-z-]+(?: [a-z-]+)*)(.*)$/.exec(l))
      .filter((m) => m !== null)
      .map((m) => ({ name: m[1]!, options: m[2]! }))
    const leaves = commands.filter((c) => !commands.some((o) => o.name.startsWith(`${c.name} `)))
    expect(leaves.length).toBeGreaterThan(40)
    const without = leaves.filter((c) => !c.options.includes("--json")).map((c) => c.name)
    expect(without).toEqual(["lsp", "tui"])
    const readme = fs.readFileSync(path.join(root, "docs/commands.md"), "utf8")
    expect(readme).toContain("Every command but `lsp` and `tui` takes `--json`")
    const lsp = await edgectlAsync(["lsp", "--json"], { cwd: dir })
    expect([lsp.status, lines(lsp.stderr)]).toEqual([2, ["error: unknown option --json (edgectl lsp takes: --stdio)"]])
  }, 60_000)

  it("the exit-code table: every example exits as its row says", async () => {
    const cwd = tempDir("edgectl-exit-codes-")
    fs.copyFileSync(sample, path.join(cwd, "traffic.jsonl"))
    fs.writeFileSync(path.join(cwd, "bad-entry.json"), '[{"key": "a"}]\n')
    fs.writeFileSync(path.join(cwd, "bad.rules"), "http.host eq\n")
    const readme = fs.readFileSync(path.join(root, "docs/commands.md"), "utf8")
    const table = readme.slice(readme.indexOf("**Exit codes**"))
    const rows = [...table.matchAll(/^\| ([012]) \|[^|]*\| (.*) \|$/gm)].map((m) => ({
      exit: Number(m[1]),
      examples: [...m[2]!.matchAll(/`([^`]*)`/g)].map((e) => e[1]!)
    }))
    expect(rows.map((r) => r.exit)).toEqual([0, 1, 2])
    const first = /^(zones|dns|kv|waf|check) /
    let ran = 0
    for (const row of rows)
      for (const example of row.examples.filter((e) => first.test(e) || e === "zones")) {
        const r = await shell(`$EDGECTL ${example}`, cwd)
        expect([example, r.status]).toEqual([example, row.exit])
        if (row.exit !== 0) expect(lines(r.stderr)[0]).toMatch(/^error: /)
        ran++
      }
    expect(ran).toBeGreaterThanOrEqual(20)
  }, 120_000)

  it("docs/commands.md lists every option that reads or writes a file, as --help shows them (FILE)", async () => {
    const help = await edgectlAsync(["--help"], { cwd: dir })
    const fromHelp = new Set<string>()
    for (const m of help.stdout.matchAll(/^\s+- ([a-z-]+(?: [a-z-]+)*) (.*)$/gm)) {
      const [command, options] = [m[1]!, m[2]!]
      for (const o of options.matchAll(/(--[a-z-]+)\)? FILE\b|<(FILES?)>/g)) {
        if (o[2] !== undefined) fromHelp.add(`${command} ${o[2]}`)
        // The wrangler project file: one option of every kv command.
        else fromHelp.add(command.startsWith("kv ") && o[1] === "--config" ? "kv --config" : `${command} ${o[1]}`)
      }
    }
    fromHelp.add("esc disable --secret-stdin")
    const readme = fs.readFileSync(path.join(root, "docs/commands.md"), "utf8")
    const bullet = readme
      .slice(readme.indexOf("- **Files in and out**"), readme.indexOf("- **Output that cannot be written**"))
      .replace(/\s+/g, " ")
    const listed = new Set(
      [...bullet.matchAll(/`([^`]*)`/g)]
        .map((m) => m[1]!)
        .filter((t) => /^(waf|firewall|rules|kv|check|esc|objects|migrate) /.test(t))
    )
    expect([...listed].sort()).toEqual([...fromHelp].sort())
  }, 60_000)
})

describe("values the platform would keep wrong", () => {
  it("an argument that is not UTF-8 is refused, naming the byte, not changed to U+FFFD", async () => {
    const ns = "b1758d9c90def649a064ed27fa8fba21"
    const r = await shell(`$EDGECTL kv key put $'a\\xff\\xfek' v --namespace-id ${ns} ${local.join(" ")}`, dir)
    expect([r.status, lines(r.stderr)]).toEqual([
      2,
      [
        'error: argument "a\ufffd\ufffdk" is not valid UTF-8: byte 0xff at byte 2; edgectl takes UTF-8 text (encode other bytes, e.g. %FF)'
      ]
    ])
    const cut = await shell(`$EDGECTL kv key put $'a\\xe2\\x82b' v --namespace-id ${ns} ${local.join(" ")}`, dir)
    expect([cut.status, lines(cut.stderr)[0]]).toEqual([2, expect.stringContaining("byte 0xe2 at byte 2")])
    const keys = await edgectlAsync(["kv", "key", "list", "--namespace-id", ns, "--prefix", "a", ...local], {
      cwd: dir
    })
    expect(keys.stdout).not.toContain("\ufffd")
    // U+FFFD typed as itself is a character like another.
    const typed = await edgectlAsync(["kv", "key", "put", "a\ufffdk", "v", "--namespace-id", ns, ...local], {
      cwd: dir
    })
    expect(typed.status).toBe(0)
  }, 60_000)

  it("a namespace title with a control character is refused, naming it", async () => {
    const r = await edgectlAsync(["kv", "namespace", "create", "bad\u0001title", ...local], { cwd: dir })
    expect(r.status).toBe(1)
    expect(lines(r.stderr)).toContain(
      "error: kv namespace create: title has a control character (U+0001) at character 11; a title is printable text [code 1004]"
    )
  }, 60_000)

  it("a custom rule's parse error does not name the request body's rules[N]", async () => {
    const r = await edgectlAsync(
      [
        "custom-rules",
        "add",
        "--zone",
        "acme-api.com",
        "--expression",
        "http.host eq 1",
        "--action",
        "block",
        ...local
      ],
      { cwd: dir }
    )
    expect(r.status).toBe(1)
    expect(lines(r.stderr)).toContain(
      "error: custom-rules add: invalid expression: expected a string, got an integer (at character 14) [code 10110]"
    )
  }, 60_000)
})

describe("edgectl serve", () => {
  it("logs one line for a 500 it answers without EDGECTL_DEBUG, nothing of the cause", async () => {
    const state = tempDir("edgectl-serve-500-")
    const made = await edgectlAsync(["zones", "list", "--json", "--persist-to", state])
    const id = (JSON.parse(made.stdout) as Array<{ id: string; name: string }>).find((z) => z.name === "acme.com")!.id
    const db = new Database(path.join(state, "platform.sqlite"))
    db.prepare("UPDATE zones SET plan = ? WHERE id = ?").run('{"id": 5, "name": "secret-plan"}', id)
    db.close()
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" }
    delete env.EDGECTL_DEBUG
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", state], { env })
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    const ready = await new Promise<{ baseUrl: string; token: string }>((resolve) =>
      readline.createInterface({ input: child.stdout }).once("line", (l) => resolve(JSON.parse(l)))
    )
    const answer = await fetch(`${ready.baseUrl}/zones/${id}?x=1`, {
      headers: { authorization: `Bearer ${ready.token}` }
    })
    expect(answer.status).toBe(500)
    const closed = new Promise((resolve) => child.once("close", resolve))
    child.kill("SIGTERM")
    await closed
    expect(lines(stderr)).toEqual([
      `edgectl serve: 500 on GET /client/v4/zones/${id}: internal error of the local platform (EDGECTL_DEBUG=1 logs its cause and stack)`
    ])
  }, 60_000)
})

describe("zones get ''", () => {
  it("is a usage error naming the argument, before any request", () => {
    const r = edgectl(["zones", "get", ""], { cwd: tempDir("edgectl-claims-") })
    expect(r.status).toBe(2)
    expect(r.stderr.split("\n")[0]).toBe("error: <zone> needs a zone id or name, got an empty string")
  })
})
