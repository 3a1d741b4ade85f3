/**
 * The layers of src/ and tui/ and the direction their imports may take. An import that runs back up
 * (the store reaching into the server, a pure core into the store, the client into the server) fails
 * this test, naming the file, the import and the rule.
 *
 *   area       where                                    may import (besides itself)
 *   ---------  ---------------------------------------  ------------------------------------------------
 *   node       src/*.ts, src/stubs/                     nothing of ours (Node helpers: lazy built-ins,
 *                                                       directories, private state files)
 *   fixtures   fixtures/                                data, readable from every area
 *   domain     src/domain/                              node
 *   rules      src/rules/                               domain, node            \
 *   esc        src/esc/                                 domain, node             |  the pure cores
 *   kv         src/kv/                                  domain, node             |
 *   waf        src/waf/                                 rules, domain, node      |
 *   firewall   src/firewall/                            rules, domain, node      |
 *   deprec.    src/deprecations/ (the scanner)          rules, domain, node      /
 *   store      src/store/                               cores, domain, node (storage of every area)
 *   demo       src/demo/                                store, cores, domain, node (the demo world)
 *   contract   src/api/contract*.ts                     domain, node
 *   server     src/server/                              demo, store, contract, cores, domain, node
 *   client     src/api/ (the rest)                      contract, domain, node
 *   services   src/services/                            client, contract, cores, domain, node
 *   lsp        src/lsp/                                 cores, domain, node
 *   objects    src/objects/                             node (stateful objects stand apart)
 *   tui        tui/                                     services, client, contract, objects, cores,
 *                                                       domain, node
 *   cli        src/cli/                                 root, tui, lsp, services, client, contract,
 *                                                       objects, cores, domain, node (the server only
 *                                                       through root)
 *   root       src/cli/environment.ts,                  cli, everything cli may, and the server: the
 *              src/cli/commands/serve.ts                composition root, where the in-process platform
 *                                                       is given to the client, and `serve`, which runs
 *                                                       the platform on a port
 *   tests      test/ (tests and their helpers)        everything: a test assembles the real platform
 *                                                       under the layer it drives, as a client would
 *
 * (cores = rules, esc, kv, waf, firewall, deprecations.) Fixtures are counted as data, not code. Every import is
 * counted, `import type` and `import()` included: a type that runs back up is a dependency too.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { tempDir } from "./helpers/cli.js"
import { importGraph, specifiersOf } from "./helpers/import-graph.js"

const root = path.resolve(import.meta.dirname, "..")

type Area =
  | "node"
  | "fixtures"
  | "domain"
  | "rules"
  | "esc"
  | "kv"
  | "waf"
  | "firewall"
  | "deprecations"
  | "store"
  | "demo"
  | "contract"
  | "server"
  | "client"
  | "services"
  | "lsp"
  | "objects"
  | "tui"
  | "cli"
  | "root"
  | "tests"

const cores: ReadonlyArray<Area> = ["rules", "esc", "kv", "waf", "firewall", "deprecations"]

const mayImport: Readonly<Record<Area, ReadonlyArray<Area>>> = {
  node: [],
  fixtures: [],
  domain: ["node"],
  rules: ["domain", "node"],
  esc: ["domain", "node"],
  kv: ["domain", "node"],
  waf: ["rules", "domain", "node"],
  firewall: ["rules", "domain", "node"],
  deprecations: ["rules", "domain", "node"],
  store: [...cores, "domain", "node"],
  demo: ["store", ...cores, "domain", "node"],
  contract: ["domain", "node"],
  server: ["demo", "store", "contract", ...cores, "domain", "node"],
  client: ["contract", "domain", "node"],
  services: ["client", "contract", ...cores, "domain", "node"],
  lsp: [...cores, "domain", "node"],
  objects: ["node"],
  tui: ["services", "client", "contract", "objects", ...cores, "domain", "node"],
  cli: ["root", "tui", "lsp", "services", "client", "contract", "objects", ...cores, "domain", "node"],
  root: ["cli", "server", "tui", "lsp", "services", "client", "contract", "objects", ...cores, "domain", "node"],
  tests: []
}

/** The area of a file, from its path relative to the repository (forward slashes). */
const areaOf = (file: string): Area | undefined => {
  if (file.startsWith("test/")) return "tests"
  if (file.startsWith("fixtures/")) return "fixtures"
  if (file.startsWith("tui/")) return "tui"
  if (file === "src/cli/environment.ts" || file === "src/cli/commands/serve.ts") return "root"
  if (/^src\/api\/contract[^/]*\.ts$/.test(file)) return "contract"
  if (file.startsWith("src/api/")) return "client"
  if (/^src\/[^/]+\.[a-z]+$/.test(file) || file.startsWith("src/stubs/")) return "node"
  const top = /^src\/([^/]+)\//.exec(file)?.[1]
  return top !== undefined && top in mayImport ? (top as Area) : undefined
}

const violations = (): Array<string> => {
  const found: Array<string> = []
  const graph = importGraph([path.join(root, "src"), path.join(root, "tui")])
  const relative = (f: string) => path.relative(root, f).split(path.sep).join("/")
  for (const [absolute, imports] of graph) {
    const file = relative(absolute)
    const from = areaOf(file)
    if (from === undefined) {
      found.push(`${file} is in no area: add its folder to the table in test/architecture.test.ts`)
      continue
    }
    if (from === "tests") continue
    for (const target of imports.map(relative)) {
      const to = areaOf(target)
      if (to === undefined) {
        found.push(`${file} imports ${target}, which is in no area`)
        continue
      }
      if (to === from || to === "fixtures" || mayImport[from].includes(to)) continue
      const allowed = mayImport[from].length === 0 ? "nothing of ours" : mayImport[from].join(", ")
      found.push(`${file} imports ${target}: ${from} may not import ${to} (${from} may import ${allowed})`)
    }
  }
  return found
}

describe("the layers", () => {
  it("every import runs down the table (or stays in its area)", () => {
    expect(violations()).toEqual([])
  })

  it("the scanner sees every kind of import", () => {
    // A guard on the scanner itself: if it stopped seeing dynamic imports or `import type`, the
    // test above would pass on anything.
    const dir = tempDir()
    const file = path.join(dir, "a.ts")
    fs.writeFileSync(
      file,
      `import type { A } from "./a.js"\nexport { B } from "./b.js"\nconst c = () => import("./c.js")\n// import "./d.js"\n`
    )
    expect(specifiersOf(file)).toEqual(["./a.js", "./b.js", "./c.js"])
  })

  it("knows where each area is", () => {
    expect(areaOf("src/cli/commands/kv/index.ts")).toBe("cli")
    expect(areaOf("src/cli/environment.ts")).toBe("root")
    expect(areaOf("src/api/contract-kv.ts")).toBe("contract")
    expect(areaOf("src/api/client.ts")).toBe("client")
    expect(areaOf("src/lazy-builtins.ts")).toBe("node")
    expect(areaOf("tui/screens/kv.tsx")).toBe("tui")
    expect(areaOf("test/tui/screens/kv.test.tsx")).toBe("tests")
  })
})
