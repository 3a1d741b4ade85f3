/**
 * No import cycles in the CLI (issue 20), nor anywhere else in src/ and tui/: a command's tree and
 * the module of its handlers, or two helpers, that import each other (even for a type, even through
 * import()) make an order of evaluation that depends on who is loaded first, and a tree that cannot
 * be read top down.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { tempDir } from "../helpers/cli.js"
import { importCycles, importGraph } from "../helpers/import-graph.js"

const relative = (f: string) => path.relative(process.cwd(), f)

/**
 * Cycles tolerated for now, each written as the test prints it (files sorted, joined by " <-> ")
 * with a comment saying why it cannot be broken yet. None: a new cycle is broken by moving the
 * type or function that both files need to the module that owns it.
 */
const Exceptions: ReadonlyArray<string> = []

describe("import cycles", () => {
  it("src/cli has none (through any file of src/ or tui/)", () => {
    const graph = importGraph(["src", "tui"])
    const cli = path.resolve("src/cli") + path.sep
    const cycles = importCycles(graph)
      .filter((c) => c.some((f) => f.startsWith(cli)))
      .map((c) => c.map(relative).join(" <-> "))
    expect(cycles).toEqual([])
  })

  it("src/ and tui/ have none, but the listed exceptions", () => {
    const cycles = importCycles(importGraph(["src", "tui"]))
      .map((c) => c.map(relative).join(" <-> "))
      .filter((c) => !Exceptions.includes(c))
    expect(cycles).toEqual([])
  })

  it("the scan sees the CLI's static, type-only and lazy imports", () => {
    const graph = importGraph(["src"])
    const imports = (from: string) => (graph.get(path.resolve(from)) ?? []).map(relative)
    expect(imports("src/cli/main.ts")).toEqual(
      expect.arrayContaining(["src/cli/run.ts", "src/cli/commands/zones.ts", "src/cli/commands/kv/index.ts"])
    )
    expect(imports("src/cli/lazy.ts")).toEqual(["src/cli/run.ts"])
  })

  it("finds a cycle made of an import(), a type-only import and a re-export", () => {
    const dir = tempDir()
    const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text)
    write("tree.ts", 'export const load = () => import("./run.js")\n')
    write("run.ts", 'import type { Input } from "./types.js"\nexport const run = (i: Input) => i\n')
    write(
      "types.ts",
      '// import "./tree.js" in a comment is not an import\nexport type { Tree as Input } from "./tree.js"\n'
    )
    write("alone.ts", 'import * as fs from "node:fs"\nexport const f = fs\n')
    const cycles = importCycles(importGraph([dir])).map((c) => c.map((f) => path.basename(f)))
    expect(cycles).toEqual([["run.ts", "tree.ts", "types.ts"]])
  })
})
