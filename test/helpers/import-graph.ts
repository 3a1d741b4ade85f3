/**
 * The import graph of TypeScript sources, read as text: every relative `import`/`export … from`
 * (type-only ones too: they tie the files together as much for a reader), bare `import "x"` and
 * literal `import("x")`, and its cycles. A plain scan, with no compiler, so that a test can fail
 * on a cycle in a second; packages are left out (only files under the scanned folders count).
 */
import * as fs from "node:fs"
import * as path from "node:path"

export type ImportGraph = ReadonlyMap<string, ReadonlyArray<string>>

const Sources = /\.(ts|tsx|mts)$/

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sourceFiles(p)
    return Sources.test(e.name) && !/\.d\.ts$/.test(e.name) ? [p] : []
  })

/** The source without its comments (a specifier in a doc comment is not an import). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")

const Specifiers = [
  /(?:^|[\n;])\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']/g,
  /(?:^|[\n;])\s*import\s*["']([^"']+)["']/g,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g
]

/** The file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx` in the sources). */
const resolve = (from: string, specifier: string): string | undefined => {
  const base = path.resolve(path.dirname(from), specifier)
  const stem = base.replace(/\.(m?js|jsx)$/, "")
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, path.join(base, "index.ts")]
  return candidates.find((c) => Sources.test(c) && fs.existsSync(c) && fs.statSync(c).isFile())
}

/** Each file under `dirs` with the files under `dirs` it imports. */
export const importGraph = (dirs: ReadonlyArray<string>): ImportGraph => {
  const files = dirs.flatMap((d) => sourceFiles(path.resolve(d)))
  const known = new Set(files)
  return new Map(
    files.map((file) => {
      const text = withoutComments(fs.readFileSync(file, "utf8"))
      const targets = new Set<string>()
      for (const pattern of Specifiers) {
        for (const m of text.matchAll(pattern)) {
          const spec = m[1]!
          if (!spec.startsWith(".")) continue
          const target = resolve(file, spec)
          if (target !== undefined && known.has(target)) targets.add(target)
        }
      }
      return [file, [...targets]] as const
    })
  )
}

/** The graph's cycles: each a group of files that reach each other (Tarjan's strongly connected components). */
export const importCycles = (graph: ImportGraph): Array<Array<string>> => {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const cycles: Array<Array<string>> = []
  const visit = (v: string) => {
    index.set(v, counter)
    low.set(v, counter++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const group: Array<string> = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      group.push(w)
    } while (w !== v)
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(group.sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return cycles
}
