/**
 * The requests about a document's layout: formatting (whole or a range), its outline of symbols,
 * and the ranges an editor can fold.
 */
import {
  FoldingRangeKind,
  type CancellationToken,
  type DocumentSymbol,
  type Position
} from "vscode-languageserver/node.js"
import { syntaxOf } from "./analyze.js"
import { formatEdits } from "./formatting.js"
import { outline, type OutlineSymbol } from "./outline.js"
import { LineIndex } from "./position.js"
import type { Session } from "./server-session.js"
import { SYMBOL_KIND, toRange, widthOf } from "./server-values.js"

export const registerLayout = ({ connection, documents, client, current }: Session): void => {
  const formatting = (uri: string, options: Record<string, unknown>, range?: { start: Position; end: Position }) => {
    const doc = documents.get(uri)
    const syntax = doc && syntaxOf(doc.uri, doc.languageId)
    if (doc === undefined || syntax === undefined) return null
    const text = doc.getText()
    const lines = new LineIndex(text)
    const edits = formatEdits(
      syntax,
      text,
      {
        tabSize: typeof options.tabSize === "number" ? options.tabSize : 2,
        insertSpaces: options.insertSpaces !== false,
        width: widthOf(options.printWidth) ?? client.printWidth
      },
      range && { start: lines.offset(range.start), end: lines.offset(range.end) }
    )
    return edits === null ? null : edits.map((e) => ({ range: toRange(lines, e.range), newText: e.newText }))
  }
  connection.onDocumentFormatting((p) => formatting(p.textDocument.uri, p.options as Record<string, unknown>))
  connection.onDocumentRangeFormatting((p) =>
    formatting(p.textDocument.uri, p.options as Record<string, unknown>, p.range)
  )

  const outlineOf = async (uri: string, token: CancellationToken) => {
    const doc = documents.get(uri)
    const syntax = doc && syntaxOf(uri, doc.languageId)
    if (doc === undefined || syntax === undefined) return undefined
    const st = await current(uri, token)
    if (st === undefined) return undefined
    return { lines: st.lines, outline: await outline(syntax, st.text, st.analysis.kind, uri, st.analysis.memo) }
  }

  connection.onDocumentSymbol(async (p, token) => {
    const o = await outlineOf(p.textDocument.uri, token)
    if (o === undefined) return null
    const convert = (s: OutlineSymbol): DocumentSymbol => ({
      name: s.name,
      kind: SYMBOL_KIND[s.kind],
      range: toRange(o.lines, s.range),
      selectionRange: toRange(o.lines, s.selection),
      ...(s.detail !== undefined ? { detail: s.detail } : {}),
      ...(s.children !== undefined ? { children: s.children.map(convert) } : {})
    })
    return o.outline.symbols.map(convert)
  })

  // The closing line stays visible (as editors fold JSON): a span folds from its first line to the line before its end.
  connection.onFoldingRanges(async (p, token) => {
    const o = await outlineOf(p.textDocument.uri, token)
    if (o === undefined) return null
    const folds = o.outline.folds.flatMap((f) => {
      const startLine = o.lines.position(f.start).line
      const endLine = o.lines.position(f.end).line - 1
      return endLine > startLine ? [{ startLine, endLine, kind: FoldingRangeKind.Region }] : []
    })
    return client.foldingLimit === undefined ? folds : folds.slice(0, client.foldingLimit)
  })
}
