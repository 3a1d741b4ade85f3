/**
 * Every command that reads an object refuses one that is not stored, naming the ones that are: a
 * mistyped class or name must not create an empty object (as `objects sql` did) and read nothing.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectl, tempDir } from "../helpers/cli.js"

const setup = () => {
  const dir = tempDir("edgectl-objects-missing-")
  const run = (...a: Array<string>) => edgectl(["objects", ...a, "--persist-to", dir])
  return {
    dir,
    run,
    classDirs: () => (fs.existsSync(path.join(dir, "objects")) ? fs.readdirSync(path.join(dir, "objects")) : [])
  }
}

describe("objects commands on an object that is not stored (built CLI)", () => {
  it("with nothing stored: one error line, a hint saying how to write one, exit 1, no directory made", () => {
    const { dir, run, classDirs } = setup()
    const r = run("sql", "Counter", "a", "SELECT 1")
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.stderr).toBe(
      `error: objects sql: no object Counter "a" under ${dir}\n` +
        `hint: no objects are stored under ${dir}; \`--create\` makes a new object\n`
    )
    expect(classDirs()).toEqual([])
    expect(run("bookmark", "Counter", "a").stderr).toMatch(
      /hint: no objects are stored under .*; `edgectl objects kv CLASS NAME put KEY VALUE --persist-to \S+` writes one\n$/
    )
  })

  it("a mistyped name or class: every read command refuses, naming the stored objects; --create makes one", () => {
    const { dir, run, classDirs } = setup()
    for (const name of ["alpha", "beta"]) expect(run("kv", "Counter", name, "put", "k", "v").status).toBe(0)
    const before = fs.readdirSync(path.join(dir, "objects", "Counter")).sort()

    const sql = run("sql", "Counter", "alpah", "SELECT 1")
    expect(sql.status).toBe(1)
    expect(sql.stdout).toBe("")
    expect(sql.stderr).toBe(
      `error: objects sql: no object Counter "alpah" under ${dir}\n` +
        `hint: stored objects of class Counter: "alpha", "beta"; \`--create\` makes a new object\n`
    )
    const wrongClass = run("sql", "Countr", "alpha", "CREATE TABLE t (v)")
    expect(wrongClass.status).toBe(1)
    expect(wrongClass.stderr).toBe(
      `error: objects sql: no object Countr "alpha" under ${dir}\n` +
        `hint: no objects of class Countr; stored: Counter "alpha", Counter "beta"\n`
    )
    for (const args of [
      ["kv", "Counter", "alpah", "get", "k"],
      ["kv", "Counter", "alpah", "list"],
      ["kv", "Counter", "alpah", "delete", "k"],
      ["bookmark", "Counter", "alpah"],
      ["bookmark", "Counter", "alpah", "--history"],
      ["restore", "Counter", "alpah", "--at", "2026-01-01T00:00:00Z"],
      ["kv", "Counter", "alpah", "get", "k", "--json"]
    ]) {
      const r = run(...args)
      expect(r.status, args.join(" ")).toBe(1)
      expect(r.stdout, args.join(" ")).toBe("")
      const lines = r.stderr.trimEnd().split("\n")
      expect(lines, args.join(" ")).toHaveLength(2)
      expect(lines[0]).toMatch(/^error: objects \w+( \w+)?: no object Counter "alpah" under /)
      expect(lines[1]).toBe('hint: stored objects of class Counter: "alpha", "beta"')
    }
    // Nothing was created by any of them.
    expect(classDirs()).toEqual(["Counter"])
    expect(fs.readdirSync(path.join(dir, "objects", "Counter")).sort()).toEqual(before)

    const created = run("sql", "Counter", "gamma", "CREATE TABLE t (v); INSERT INTO t VALUES (1)", "--create")
    expect(created.status, created.stderr).toBe(0)
    expect(run("sql", "Counter", "gamma", "SELECT v FROM t").stdout).toContain("1")
  })

  it("more than five stored objects: the hint names five and says how to see all", () => {
    const { run } = setup()
    for (let i = 1; i <= 7; i++) expect(run("kv", "Room", `r${i}`, "put", "k", "v").status).toBe(0)
    const r = run("kv", "Room", "r9", "get", "k")
    expect(r.status).toBe(1)
    expect(r.stderr.split("\n")[1]).toMatch(
      /^hint: stored objects of class Room: ("r\d", ){4}"r\d" and 2 more \(`edgectl objects list --persist-to \S+` shows all\)$/
    )
  })
})
