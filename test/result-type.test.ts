/**
 * Pure code has one result type: effect's `Either` (docs/architecture.md, "Results"). This test
 * finds the shapes it replaced, so they do not come back: a `{ ok: true, ... } | { ok: false, ... }`
 * union, a `T | Problem[]` told apart with `Array.isArray(checked)`, a value-or-issue told apart
 * with `isIssue`, and a `{ value } | { problem }` told apart with `"problem" in`. What a tool cannot see (a function that returns an error instance beside its
 * value) is for review.
 *
 * Two kinds of file may still write `ok: true`: a message that crosses a process or a thread (an
 * `Either` does not survive JSON or a structured clone: its tag is on its prototype), and the files
 * not converted yet, each being reworked in another branch. The second list only shrinks: a listed
 * file without the shape fails the test until it is taken off the list.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "..")

/** Messages between processes or threads, not results: relative path to why. */
const Messages: ReadonlyMap<string, string> = new Map([
  ["src/objects/control-server.ts", "a control frame, JSON over the object host's socket"],
  ["src/objects/control-client.ts", "a control frame, JSON over the object host's socket"],
  ["src/store/commit-worker.ts", "the commit worker's answer, a structured clone between threads"],
  ["src/store/commit-worker-entry.ts", "the commit worker's answer, a structured clone between threads"]
])

/** Not converted yet: relative path to why. */
const NotYet: ReadonlyMap<string, string> = new Map([["tui/runtime.tsx", "runEffect's result, read by every screen"]])

/** The replaced shapes, each with what to write instead. */
const Shapes: ReadonlyArray<{ readonly pattern: RegExp; readonly instead: string }> = [
  { pattern: /\bok: true\b/, instead: "return Either.right(value) / Either.left(error)" },
  { pattern: /Array\.isArray\(checked\)/, instead: "return an Either of the value or the problems" },
  { pattern: /\bisIssue\(/, instead: "return an Either of the value or the issue" },
  { pattern: /"(problems?|error)" in /, instead: "return an Either of the value or the problem" }
]

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(p)
    return /\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith(".d.ts") ? [p] : []
  })

const texts = new Map(
  ["src", "tui"]
    .flatMap((d) => sourceFiles(path.join(root, d)))
    .map((f) => [path.relative(root, f).split(path.sep).join("/"), fs.readFileSync(f, "utf8")] as const)
)

/** Each line of `text` that has one of the shapes, as `file:line: what to write instead`. */
const findings = (file: string, text: string): Array<string> =>
  text
    .split("\n")
    .flatMap((line, i) =>
      Shapes.filter((s) => s.pattern.test(line)).map((s) => `${file}:${i + 1}: ${line.trim()} (${s.instead})`)
    )

describe("one result type for pure code", () => {
  it("no file returns an { ok } union, a T | Problem[] or a value-or-issue, but for the listed ones", () => {
    expect(texts.size).toBeGreaterThan(100)
    const found = [...texts]
      .filter(([file]) => !Messages.has(file) && !NotYet.has(file))
      .flatMap(([file, text]) => findings(file, text))
    expect(found).toEqual([])
  })

  it("the shapes are found where they are written", () => {
    expect(findings("x.ts", "  return { ok: true, value }\nconst y = 1")).toEqual([
      "x.ts:1: return { ok: true, value } (return Either.right(value) / Either.left(error))"
    ])
    expect(findings("y.ts", "if (Array.isArray(checked)) fail()")).toHaveLength(1)
    expect(findings("z.ts", "if (isIssue(m)) out = m")).toHaveLength(1)
    expect(findings("w.ts", 'if ("problems" in parsed) return')).toHaveLength(1)
  })

  it("the files not converted yet still have the shape (the list only shrinks)", () => {
    const stale = [...NotYet.keys()]
      .filter((file) => !texts.has(file) || findings(file, texts.get(file)!).length === 0)
      .map((file) =>
        texts.has(file)
          ? `${file}: has no { ok } result now; take it off the list`
          : `${file}: no longer exists; take it off the list`
      )
    expect(stale).toEqual([])
  })
})
