/**
 * An option the command does not take is a usage error naming it and the options the command
 * takes. @effect/cli alone reads an unknown `--word` as the value of a positional argument and
 * blames the next word (`rules check --persist-to DIR FILE` said "--persist-to: expected true or
 * false"), or names neither.
 */
import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { edgectl, tempDir } from "../helpers/cli.js"

const refused = (args: ReadonlyArray<string>) => {
  const r = edgectl(args)
  expect(r.status, r.stderr).toBe(2)
  expect(r.stdout).toBe("")
  const lines = r.stderr.split("\n").filter((l) => l !== "")
  expect(lines, r.stderr).toHaveLength(1)
  return lines[0]!
}

describe("unknown options", () => {
  it("an option of another command, before a positional argument", () => {
    expect(refused(["rules", "check", "--persist-to", tempDir(), 'http.host eq "a"'])).toBe(
      "error: unknown option --persist-to (edgectl rules check takes: --file, --json, --plan, --scheme)"
    )
  })

  it("a misspelt option, with and without a value, and after `=`", () => {
    expect(refused(["zones", "list", "--jsn"])).toBe(
      "error: unknown option --jsn (edgectl zones list takes: --account-id, --json, --local, --name, --persist-to, --rate-limit, --remote, --status, --timeout)"
    )
    expect(refused(["rules", "check", "--nope", "x"])).toMatch(
      /^error: unknown option --nope \(edgectl rules check takes: /
    )
    expect(refused(["kv", "namespace", "list", "--per-page=5"])).toMatch(
      /^error: unknown option --per-page \(edgectl kv namespace list takes: .*--json.*\)$/
    )
  })

  it("leaves the options a command takes, its `--opt=value` form, built-ins and words after `--` alone", () => {
    const dir = tempDir()
    const r = edgectl(["zones", "list", "--json", `--persist-to=${dir}`, "--name", "acme.com"])
    expect(r.status, r.stderr).toBe(0)
    expect((JSON.parse(r.stdout) as Array<{ name: string }>).map((z) => z.name)).toEqual(["acme.com"])
    const help = edgectl(["rules", "check", "--help"])
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toContain("--scheme")
    // A long alias (`--force` for `--yes`) is an option the command takes.
    const alias = edgectl(["kv", "bulk", "delete", "missing.json", "--namespace-id", "x", "--force"])
    expect(alias.stderr).toContain("cannot read")
    const expression = edgectl(["rules", "check", "--json", "--", 'http.host eq "a"'])
    expect(expression.stderr).not.toContain("unknown option")
  })
})

describe("--help anywhere before `--`", () => {
  it("shows the help of the command the line names, as right after the command", () => {
    const plain = edgectl(["firewall", "rules", "list", "--help"])
    expect(plain.status).toBe(0)
    for (const args of [
      ["firewall", "rules", "list", "--zone", "acme.com", "--help"],
      ["firewall", "rules", "list", "--zone", "acme.com", "-h", "--json"]
    ]) {
      const r = edgectl(args)
      expect(r.status, r.stderr).toBe(0)
      expect(r.stdout).toBe(plain.stdout)
    }
    // A mistyped command still says so; after `--` a `-h` is an argument (here a rules expression).
    expect(edgectl(["zones", "lst", "--help"]).stderr).toContain('unknown command "zones lst"')
    expect(edgectl(["rules", "check", "--", "-h"]).stdout).not.toContain("USAGE")
  })
})

describe("an option that takes a value, given none", () => {
  /** The two lines of the refusal, and the hint's command run as printed. */
  const refusedWithHint = (args: ReadonlyArray<string>) => {
    const r = edgectl(args)
    expect({ status: r.status, stdout: r.stdout }, r.stderr).toEqual({ status: 2, stdout: "" })
    const [error, hint, ...more] = r.stderr.split("\n").filter((l) => l !== "")
    expect(more).toEqual([])
    const command = /^hint: run `edgectl (.+)` for what --[\w-]+ takes$/.exec(hint ?? "")?.[1]
    expect(command, r.stderr).toBeDefined()
    const help = edgectl(command!.split(" "))
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toContain(/^error: (--[\w-]+):/.exec(error!)![1])
    return error
  }

  it("followed by another option of the command: names the option and what it expected, not the next one", () => {
    const dir = tempDir()
    expect(refusedWithHint(["firewall", "migrate", "--zone", "acme-mail.com", "--replay", "--persist-to", dir])).toBe(
      "error: --replay: expected FILE after it, got the option --persist-to"
    )
    expect(refusedWithHint(["zones", "list", "--name", "--json"])).toBe(
      "error: --name: expected NAME after it, got the option --json"
    )
  })

  it("last on the line", () => {
    expect(refusedWithHint(["firewall", "migrate", "--zone", "acme-mail.com", "--replay"])).toBe(
      "error: --replay: expected FILE after it, got nothing"
    )
    expect(refusedWithHint(["zones", "list", "--persist-to"])).toBe(
      "error: --persist-to: expected DIR after it, got nothing"
    )
  })

  it("a value that starts with dashes is given after `=`", () => {
    const r = edgectl(["zones", "list", "--persist-to", tempDir(), "--json", "--name=--json"])
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "[]\n", stderr: "" })
  })
})

describe("a word more than the command takes", () => {
  /** The refusal's error line; its hint is run as printed and shows the arguments the error names. */
  const refusedArgument = (args: ReadonlyArray<string>) => {
    const r = edgectl(args)
    expect({ status: r.status, stdout: r.stdout }, r.stderr).toEqual({ status: 2, stdout: "" })
    const [error, hint, ...more] = r.stderr.split("\n").filter((l) => l !== "")
    expect(more).toEqual([])
    const command = /^hint: run `edgectl (.+)` for what it takes$/.exec(hint ?? "")?.[1]
    expect(command, r.stderr).toBeDefined()
    const help = edgectl(command!.split(" "))
    expect(help.status, help.stderr).toBe(0)
    for (const name of /takes (.*)$/.exec(error!)![1]!.match(/<[\w-]+>/g) ?? []) expect(help.stdout).toContain(name)
    return error
  }

  it("names the word and what the command takes (it said: Received unknown argument)", () => {
    const dir = tempDir()
    expect(refusedArgument(["kv", "export", "out.json", "--namespace-id", "x", "--persist-to", dir])).toBe(
      'error: unexpected argument "out.json": edgectl kv export takes no arguments'
    )
    expect(refusedArgument(["zones", "list", "--persist-to", dir, "extra"])).toBe(
      'error: unexpected argument "extra": edgectl zones list takes no arguments'
    )
    expect(refusedArgument(["kv", "key", "put", "k", "v", "w", "--namespace-id", "x", "--persist-to", dir])).toBe(
      'error: unexpected argument "w": edgectl kv key put takes <key> [<value>]'
    )
    // Words after `--` are arguments too.
    expect(refusedArgument(["zones", "list", "--persist-to", dir, "--", "--json"])).toBe(
      'error: unexpected argument "--json": edgectl zones list takes no arguments'
    )
  })

  it("counts neither an option's value (long or short) nor a flag's true or false", () => {
    const dir = tempDir()
    const out = `${dir}/out.json`
    const put = edgectl(["kv", "key", "put", "k", "v", "--namespace-id", "x", "--persist-to", dir, "--remote", "false"])
    expect({ status: put.status, stderr: put.stderr }).toEqual({ status: 0, stderr: "" })
    const exported = edgectl(["kv", "export", "-o", out, "--namespace-id", "x", "--persist-to", dir])
    expect({ status: exported.status, stderr: exported.stderr }).toEqual({ status: 0, stderr: "" })
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toEqual([{ key: "k", value: "v" }])
  })
})

describe("a file to write in a directory that is not there", () => {
  it("kv export and waf export name the missing directory (exit 1), not an internal error; nothing is made", () => {
    const dir = tempDir()
    const missing = `${dir}/no/such/dir`
    const kv = edgectl(["kv", "export", "-o", `${missing}/out.json`, "--namespace-id", "x", "--persist-to", dir])
    expect(kv).toEqual({
      status: 1,
      stdout: "",
      stderr: `error: kv export: cannot write ${missing}/out.json: no such directory: ${missing}\n`
    })
    const waf = edgectl(["waf", "export", "--zone", "acme.com", "-o", `${missing}/waf.json`, "--persist-to", dir])
    expect(waf).toEqual({
      status: 1,
      stdout: "",
      stderr: `error: waf export: cannot write ${missing}/waf.json: no such directory: ${missing}\n`
    })
    expect(fs.existsSync(`${dir}/no`)).toBe(false)
    // A directory that is there but takes no new files (the kernel's /proc) is not called missing.
    const proc = edgectl(["kv", "export", "-o", "/proc/edgectl-out.json", "--namespace-id", "x", "--persist-to", dir])
    expect(proc.stderr).toBe("error: kv export: cannot write /proc/edgectl-out.json: /proc takes no new files\n")
  })
})
