/**
 * The requests that read a document where the cursor is: hover, completion, go to definition,
 * signature help, and the semantic tokens of the whole document.
 */
import { CompletionTriggerKind, MarkupKind } from "vscode-languageserver/node.js"
import { complete, hover } from "./features.js"
import { LineIndex } from "./position.js"
import type { Session } from "./server-session.js"
import { KIND, toRange } from "./server-values.js"
import { signatureHelp } from "./signature.js"
import { documentTokens, encodeTokens } from "./tokens.js"

export const registerReading = ({ connection, registry, current, settled }: Session): void => {
  connection.onHover(async (p, token) => {
    const st = await current(p.textDocument.uri, token)
    if (st === undefined) return null
    const h = await hover(registry.jsonFeatures, st.text, st.lines.offset(p.position), st.analysis, {}, st.uri)
    return h === undefined
      ? null
      : { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: toRange(st.lines, h.range) }
  })

  // A completion a typed character triggered (`"`, a space) waits for the check the debounce has
  // scheduled: one per quote typed would check the document between every two keys of a burst.
  connection.onCompletion(async (p, token) => {
    const st =
      p.context?.triggerKind === CompletionTriggerKind.TriggerCharacter
        ? await settled(p.textDocument.uri, token)
        : await current(p.textDocument.uri, token)
    if (st === undefined) return null
    const c = await complete(registry.jsonFeatures, st.text, st.lines.offset(p.position), st.analysis, {}, st.uri)
    if (c === undefined) return null
    const range = toRange(st.lines, c.replace)
    return {
      isIncomplete: false,
      items: c.items.map((i) => ({
        label: i.label,
        kind: KIND[i.kind],
        detail: i.detail,
        textEdit: { range, newText: i.insertText ?? i.label }
      }))
    }
  })

  // Go to definition (Terraform references): the kind's feature finds it, in this file or another of its module.
  connection.onDefinition(async (p, token) => {
    const st = await current(p.textDocument.uri, token)
    const find = st?.analysis.kind && registry.jsonFeatures.get(st.analysis.kind)?.definition
    if (st === undefined || !find) return null
    const d = await find(st.text, st.lines.offset(p.position), st.uri)
    if (d === undefined) return null
    return { uri: d.uri ?? st.uri, range: toRange(d.uri === undefined ? st.lines : new LineIndex(d.text), d.range) }
  })

  connection.onSignatureHelp(async (p, token) => {
    const st = await current(p.textDocument.uri, token)
    if (st === undefined) return null
    const s = signatureHelp(st.analysis, st.lines.offset(p.position))
    if (s === undefined) return null
    return {
      signatures: [
        {
          label: s.label,
          documentation: s.documentation,
          parameters: s.parameters.map((x) => ({
            label: [x.label[0], x.label[1]] as [number, number],
            ...(x.documentation ? { documentation: x.documentation } : {})
          }))
        }
      ],
      activeSignature: 0,
      activeParameter: s.active
    }
  })

  connection.languages.semanticTokens.on(async (p, token) => {
    const st = await current(p.textDocument.uri, token)
    if (st === undefined) return { data: [] }
    return { data: encodeTokens(st.lines, documentTokens(st.analysis)) }
  })
}
