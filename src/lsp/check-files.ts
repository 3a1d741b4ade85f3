/** `edgectl check`: the editor's checks over files, for CI. */
import * as fs from "node:fs"
import { analyze, syntaxOf } from "./analyze.js"
import { documentRegistry, type DocumentRegistry } from "./registry.js"
import { counts, renderJson, renderSarif, renderText, type FileResult } from "./report.js"

export type CheckFormat = "text" | "json" | "sarif"

export interface CheckOutcome {
  readonly stdout: string
  readonly stderr: string
  readonly exitCode: 0 | 1
}

/** Problems reading a file or knowing its kind are user errors: reported, and the exit is 1. */
export const checkFiles = async (
  paths: ReadonlyArray<string>,
  fmt: CheckFormat,
  color: boolean,
  version: string,
  registry: DocumentRegistry = documentRegistry()
): Promise<CheckOutcome> => {
  const results: Array<FileResult> = []
  const problems: Array<string> = []
  for (const path of paths) {
    const syntax = syntaxOf(path)
    if (syntax === undefined) {
      problems.push(`error: check ${path}: unknown kind of file: expected *.rules, *.json or *.tf`)
      continue
    }
    let text: string
    try {
      text = fs.readFileSync(path, "utf8")
    } catch (e) {
      const code = (e as { code?: string }).code
      problems.push(
        `error: check ${path}: cannot read it: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : String((e as Error).message)}`
      )
      continue
    }
    const analysis = await analyze(registry, syntax, text, {}, path)
    results.push({ path, text, kind: analysis.kind, findings: analysis.findings })
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
