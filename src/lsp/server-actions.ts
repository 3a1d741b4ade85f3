/**
 * Code actions: the fixes of the findings in a range and the document's own actions, each fix
 * listed once with every finding it fixes; and the commands a fix shows the user to run.
 */
import {
  CodeActionKind,
  MessageType,
  ShowMessageNotification,
  type CodeAction,
  type Diagnostic
} from "vscode-languageserver/node.js"
import { fileActions, takenOnDiskOrOpen } from "./file-actions.js"
import type { Finding, Fix } from "./findings.js"
import type { LineIndex } from "./position.js"
import type { Session } from "./server-session.js"
import { diagnostic, toRange } from "./server-values.js"

export const registerActions = ({ connection, documents, current }: Session): void => {
  const taken = takenOnDiskOrOpen((uri) => documents.get(uri) !== undefined)
  /** A fix as code actions: one, or two for a file that is there (write under a free name, or replace it). */
  const actionsOf = (uri: string, lines: LineIndex, fix: Fix): Array<CodeAction> => {
    const base: Omit<CodeAction, "title" | "kind" | "edit"> = {
      ...(fix.preferred ? { isPreferred: true } : {}),
      ...(fix.command
        ? { command: { title: fix.title, command: "edgectl.runCommand", arguments: [fix.command] } }
        : {}),
      ...(fix.message
        ? { command: { title: fix.title, command: "edgectl.showMessage", arguments: [fix.message] } }
        : {})
    }
    if (fix.create) return fileActions(uri, { ...fix, create: fix.create }, taken, base)
    const a: CodeAction = { ...base, title: fix.title, kind: CodeActionKind.QuickFix }
    if (fix.edits)
      a.edit = { changes: { [uri]: fix.edits.map((e) => ({ range: toRange(lines, e.range), newText: e.newText })) } }
    return [a]
  }

  connection.onCodeAction(async (p, token) => {
    const st = await current(p.textDocument.uri, token)
    if (st === undefined) return []
    const from = st.lines.offset(p.range.start)
    const to = st.lines.offset(p.range.end)
    const out: Array<CodeAction> = []
    // One fix offered by several findings (the zone's ruleset on each of its resources) is listed
    // once, with each finding it fixes: known by identity first, so a shared fix is not serialized
    // once per finding (that made code actions grow with the square of a zone's rule count).
    const byObject = new Map<Fix, { actions: Array<CodeAction>; fixes: Array<Diagnostic> }>()
    const byValue = new Map<string, { actions: Array<CodeAction>; fixes: Array<Diagnostic> }>()
    const add = (f: Finding | undefined, fix: Fix) => {
      let known = byObject.get(fix)
      if (known === undefined) {
        const key = JSON.stringify([fix.title, fix.edits, fix.create, fix.command])
        known = byValue.get(key)
        if (known === undefined) {
          known = { actions: actionsOf(p.textDocument.uri, st.lines, fix), fixes: [] }
          byValue.set(key, known)
          out.push(...known.actions)
        }
        byObject.set(fix, known)
      }
      if (f !== undefined) known.fixes.push(diagnostic(p.textDocument.uri, st.lines, f))
    }
    for (const f of st.analysis.findings) {
      if (f.fixes === undefined || f.range.end < from || f.range.start > to) continue
      for (const fix of f.fixes) add(f, fix)
    }
    for (const fix of st.analysis.actions ?? []) add(undefined, fix)
    for (const { actions, fixes } of byValue.values())
      if (fixes.length > 0) for (const a of actions) a.diagnostics = fixes
    return out
  })

  // A command fix is shown to the user to run: the server never changes the platform by itself.
  // A notification, not `window/showMessageRequest`: an editor waits on a request (Neovim blocks),
  // and there is no choice to offer.
  connection.onExecuteCommand(async (p) => {
    if (p.command === "edgectl.runCommand" || p.command === "edgectl.showMessage")
      await connection.sendNotification(ShowMessageNotification.type, {
        type: MessageType.Info,
        message: `${p.command === "edgectl.runCommand" ? "Run: " : ""}${String(p.arguments?.[0])}`
      })
    return null
  })
}
