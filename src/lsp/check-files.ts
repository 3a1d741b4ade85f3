/** `edgectl check`: the editor's checks over files, for CI. */
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { analyze, syntaxOf, type DocumentSyntax } from "./analyze.js"
import { documentRegistry, type DocumentRegistry } from "./registry.js"
import { counts, renderJson, renderSarif, renderText, type FileResult } from "./report.js"

export type CheckFormat = "text" | "json" | "sarif"

export interface CheckOutcome {
  readonly stdout: string
  readonly stderr: string
  readonly exitCode: 0 | 1
}

export interface CheckInputs {
  /** The syntax of every file named on the command line (`--kind`), else each file's by its name. */
  readonly kind?: DocumentSyntax | undefined
  /** Reads a named file: `-` (stdin), FIFOs and /dev/fd paths included; fails with a one-line reason. */
  readonly read: (path: string) => Promise<string>
}

const unknownKind = (path: string) =>
  `error: check ${path}: unknown kind of file: expected *.rules, *.json or *.tf (name it with --kind rules|json|tf)`

/**
 * The files of directory `dir` and its subdirectories that have a known kind (*.rules, *.json,
 * *.tf), in name order; hidden directories and node_modules are not entered.
 */
const knownFilesIn = (dir: string): Array<string> =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => {
      const full = nodePath.join(dir, e.name)
      if (e.isDirectory()) return e.name.startsWith(".") || e.name === "node_modules" ? [] : knownFilesIn(full)
      return e.isFile() && syntaxOf(e.name) !== undefined ? [full] : []
    })

/** Problems reading a file or knowing its kind are user errors: reported, and the exit is 1. */
export const checkFiles = async (
  paths: ReadonlyArray<string>,
  fmt: CheckFormat,
  color: boolean,
  version: string,
  inputs: CheckInputs,
  registry: DocumentRegistry = documentRegistry()
): Promise<CheckOutcome> => {
  const results: Array<FileResult> = []
  const problems: Array<string> = []
  for (const named of paths) {
    const isDir = named !== "-" && fs.statSync(named, { throwIfNoEntry: false })?.isDirectory() === true
    const files = isDir ? knownFilesIn(named) : [named]
    if (isDir && files.length === 0)
      problems.push(`error: check ${named}: the directory holds no *.rules, *.json or *.tf file`)
    for (const path of files) {
      const syntax = (isDir ? undefined : inputs.kind) ?? syntaxOf(path)
      if (syntax === undefined) {
        problems.push(unknownKind(path))
        continue
      }
      let text: string
      try {
        text = await inputs.read(path)
      } catch (e) {
        problems.push(`error: check ${path}: cannot read it: ${(e as Error).message}`)
        continue
      }
      const analysis = await analyze(registry, syntax, text, {}, path)
      results.push({ path, text, kind: analysis.kind, findings: analysis.findings })
    }
  }
  const c = counts(results)
  const summary = [
    `${results.length} file${results.length === 1 ? "" : "s"} checked`,
    `${c.errors} error${c.errors === 1 ? "" : "s"}`,
    `${c.warnings} warning${c.warnings === 1 ? "" : "s"}`
  ]
  if (c.notes) summary.push(`${c.notes} note${c.notes === 1 ? "" : "s"}`)
  let stdout: string
  let stderr = problems.map((p) => `${p}\n`).join("")
  if (fmt === "json") stdout = `${JSON.stringify(renderJson(results), null, 2)}\n`
  else if (fmt === "sarif") stdout = `${JSON.stringify(renderSarif(results, version), null, 2)}\n`
  else {
    stdout = renderText(results, color)
  }
  // One summary line: a file that could not be checked counts there too (it fails the run), and a
  // run that checked nothing has said everything in its problem lines.
  if (problems.length > 0) summary.push(`${problems.length} file${problems.length === 1 ? "" : "s"} not checked`)
  const failed = c.errors > 0 || problems.length > 0
  if ((fmt === "text" || failed) && results.length > 0)
    stderr += `${failed ? "error: check: " : ""}${summary.join(", ")}\n`
  return { stdout, stderr, exitCode: c.errors > 0 || problems.length > 0 ? 1 : 0 }
}
