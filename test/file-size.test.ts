/**
 * Every source file of src/ and tui/ stays under 400 lines: a file holds one thing a reader can
 * take in whole, and a file that grows past the limit is split by what its parts hold (named for
 * it), never by trimming lines or comments. No file is excepted.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "..")

const MaxLines = 400

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(p)
    return /\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith(".d.ts") ? [p] : []
  })

/** Lines as `wc -l` counts them: the newlines of the file. */
const lineCount = (file: string) => fs.readFileSync(file, "utf8").split("\n").length - 1

const sizes = new Map(
  ["src", "tui"]
    .flatMap((d) => sourceFiles(path.join(root, d)))
    .map((f) => [path.relative(root, f).split(path.sep).join("/"), lineCount(f)] as const)
)

describe("file sizes", () => {
  it(`every file of src/ and tui/ has at most ${MaxLines} lines`, () => {
    expect(sizes.size).toBeGreaterThan(100)
    const over = [...sizes]
      .filter(([, lines]) => lines > MaxLines)
      .map(([file, lines]) => `${file}: ${lines} lines, the limit is ${MaxLines}; split it by what its parts hold`)
    expect(over).toEqual([])
  })
})
