/**
 * The import graph of TypeScript sources: every relative `import`/`export … from` (type-only ones
 * too: they tie the files together as much for a reader), bare `import "x"`, `import("x")` and
 * `require("x")`, read by TypeScript's pre-processor (no type checking, so a test runs in a
 * second), and its cycles. Packages are left out (only files under the scanned folders count).
 * The layer rules (test/architecture.test.ts) and the cycle checks read the same graph.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"

export type ImportGraph = ReadonlyMap<string, ReadonlyArray<string>>

const Sources = /\.(ts|tsx|mts)$/

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sourceFiles(p)
    return Sources.test(e.name) && !/\.d\.ts$/.test(e.name) ? [p] : []
  })

/**
 * Every module a file names, as TypeScript's own pre-processor reads them: static imports and
 * exports, `import type`, `import()` and `require()`, never a specifier in a comment.
 */
export const specifiersOf = (file: string): ReadonlyArray<string> =>
  ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true).importedFiles.map((f) => f.fileName)

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
      const targets = new Set<string>()
      for (const spec of specifiersOf(file)) {
        if (!spec.startsWith(".")) continue
        const target = resolve(file, spec)
        if (target !== undefined && known.has(target)) targets.add(target)
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
