/**
 * Code actions that write a new file beside the document (the equivalent custom rules, the
 * generated WAF configuration). They never overwrite: a name that is taken on disk or by an open
 * document gets the next free one (`x.custom-rules.2.json`), the create is sent with
 * `overwrite: false` (an editor refuses it should the file appear meanwhile), and replacing the
 * file that is there is its own action whose title says so.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { CodeActionKind, type CodeAction, type WorkspaceEdit } from "vscode-languageserver/node.js"
import type { Fix } from "./findings.js"

/** Whether a file by that URI exists: on disk (file: URIs), or as a document the editor has open. */
export type UriTaken = (uri: string) => boolean

/** The check an editor's server makes: a file on disk, or any document open in the editor. */
export const takenOnDiskOrOpen =
  (isOpen: (uri: string) => boolean): UriTaken =>
  (uri) => {
    if (isOpen(uri)) return true
    if (!uri.startsWith("file:")) return false
    try {
      return fs.existsSync(fileURLToPath(uri))
    } catch {
      return false
    }
  }

/** `a.custom-rules.json` -> `a.custom-rules.2.json`: the number before the last extension. */
const numbered = (name: string, n: number): string => {
  const ext = path.posix.extname(name)
  return `${name.slice(0, name.length - ext.length)}.${n}${ext}`
}

/** The first name beside `documentUri` that is not taken, starting with `name` itself. */
const freeName = (documentUri: string, name: string, taken: UriTaken): string => {
  if (!taken(new URL(name, documentUri).toString())) return name
  for (let n = 2; ; n++) {
    const candidate = numbered(name, n)
    if (!taken(new URL(candidate, documentUri).toString())) return candidate
  }
}

const writeFile = (target: string, text: string, overwrite: boolean): WorkspaceEdit => ({
  documentChanges: [
    {
      kind: "create",
      uri: target,
      options: overwrite ? { overwrite: true } : { overwrite: false, ignoreIfExists: false }
    },
    {
      textDocument: { uri: target, version: null },
      edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: text }]
    }
  ]
})

/**
 * The actions of a fix that writes `fix.create`: the write under a free name, and when the fix's
 * own name is taken, "Replace …" as a second action that says it overwrites that file.
 * `base`: the action's other fields (its diagnostics, its command).
 */
export const fileActions = (
  documentUri: string,
  fix: Fix & { readonly create: NonNullable<Fix["create"]> },
  taken: UriTaken,
  base: Omit<CodeAction, "title" | "kind" | "edit">
): Array<CodeAction> => {
  const wanted = fix.create.name
  const name = freeName(documentUri, wanted, taken)
  const write: CodeAction = {
    ...base,
    title: fix.title.split(wanted).join(name),
    kind: CodeActionKind.Source,
    edit: writeFile(new URL(name, documentUri).toString(), fix.create.text, false)
  }
  if (name === wanted) return [write]
  const replace: CodeAction = {
    ...base,
    title: `Replace ${wanted} (overwrites the file that is there): ${fix.title}`,
    kind: CodeActionKind.Source,
    edit: writeFile(new URL(wanted, documentUri).toString(), fix.create.text, true)
  }
  return [write, replace]
}
