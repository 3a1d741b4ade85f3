/**
 * `edgectl lsp`: the language server (LSP 3.17 over stdio). Documents are kept with incremental
 * sync; each change is checked on the next turn of the event loop when the document was idle,
 * and bursts of changes are coalesced (debounced) so a fast typist does not queue checks.
 */
import { PieceTextDocument } from "./text-document.js"
import {
  CodeActionKind,
  CompletionItemKind,
  CompletionTriggerKind,
  createConnection,
  DiagnosticSeverity,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  FoldingRangeKind,
  SymbolKind,
  MarkupKind,
  MessageType,
  ShowMessageNotification,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type ClientCapabilities,
  type CodeAction,
  type Connection,
  type Diagnostic,
  type DocumentSymbol,
  type Position
} from "vscode-languageserver/node.js"
import { analyze, analyzeSource, syntaxOf } from "./analyze.js"
import { languageOf } from "../deprecations/scan-text.js"
import { complete, hover } from "./features.js"
import { formatEdits } from "./formatting.js"
import type { Finding, Fix } from "./findings.js"
import { outline, type OutlineSymbol } from "./outline.js"
import { gatedStreams } from "./protocol-gate.js"
import { LineIndex } from "./position.js"
import { documentStates, requestCancelled } from "./document-states.js"
import { fileActions, takenOnDiskOrOpen } from "./file-actions.js"
import { documentRegistry, type DocumentRegistry } from "./registry.js"
import { followSettings } from "./settings.js"
import { signatureHelp } from "./signature.js"
import { watchTerraformModules } from "./terraform-module-watch.js"
import { documentTokens, encodeTokens, TOKEN_MODIFIERS, TOKEN_TYPES } from "./tokens.js"
import { version } from "../version.js"

const SEVERITY = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information
} as const
const KIND = {
  field: CompletionItemKind.Field,
  function: CompletionItemKind.Function,
  keyword: CompletionItemKind.Keyword,
  operator: CompletionItemKind.Operator,
  value: CompletionItemKind.Value,
  list: CompletionItemKind.Variable,
  property: CompletionItemKind.Property,
  enum: CompletionItemKind.EnumMember
} as const

const SYMBOL_KIND = {
  object: SymbolKind.Object,
  class: SymbolKind.Class,
  module: SymbolKind.Module,
  property: SymbolKind.Property,
  key: SymbolKind.Key,
  boolean: SymbolKind.Boolean,
  array: SymbolKind.Array,
  struct: SymbolKind.Struct
} as const

/** Where a formatted expression wraps when the client names no width (its `printWidth` option). */
const DEFAULT_WIDTH = 100
const widthOf = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isInteger(v) && v >= 20 ? v : undefined

export interface ServerOptions {
  /** Quiet time after a burst of changes before the check runs (ms). */
  readonly debounceMs?: number
}

/** `registry`: the document kinds beyond rule expressions, their checks, hover and completion. */
/** A document of no checked syntax whose deprecations the scanner still finds (scripts, programs, configuration). */
const scannerReads = (uri: string) => languageOf(uri) !== undefined

export const startServer = (connection: Connection, registry: DocumentRegistry, options: ServerOptions = {}): void => {
  let debounceMs = options.debounceMs ?? 40
  const documents = new TextDocuments(PieceTextDocument)

  const toRange = (lines: LineIndex, r: { start: number; end: number }) => ({
    start: lines.position(r.start),
    end: lines.position(r.end)
  })

  const diagnostic = (uri: string, lines: LineIndex, f: Finding): Diagnostic => ({
    severity: SEVERITY[f.severity],
    code: f.code,
    source: "edgectl",
    message: f.hint ? `${f.message}\nhint: ${f.hint}` : f.message,
    range: toRange(lines, f.range),
    ...(f.related
      ? {
          relatedInformation: f.related.map((r) => ({
            location: { uri, range: toRange(lines, r.range) },
            message: r.message
          }))
        }
      : {})
  })

  const docs = documentStates({
    get: (uri) => documents.get(uri),
    analyze: (doc, text, previous) => {
      const syntax = syntaxOf(doc.uri, doc.languageId)
      // A document of no checked syntax: the deprecation scanner's findings only, where it reads it.
      if (syntax === undefined)
        return scannerReads(doc.uri) ? Promise.resolve(analyzeSource(registry, text, doc.uri)) : undefined
      return analyze(registry, syntax, text, {}, doc.uri, previous?.memo)
    },
    publish: (uri, st) =>
      connection.sendDiagnostics({
        uri,
        version: st.version,
        diagnostics: st.analysis.findings.map((f) => diagnostic(uri, st.lines, f))
      }),
    failed: (uri, e) =>
      connection.console.error(`edgectl: checking ${uri} failed: ${e instanceof Error ? e.stack : String(e)}`),
    debounceMs: () => debounceMs
  })
  /** The state of the document as it is now, for a request (checked on demand when it outruns the debounce). */
  const current = async (uri: string, token: CancellationToken) => {
    const st = await docs.current(uri, token)
    if (token.isCancellationRequested) throw requestCancelled()
    return st === undefined ? undefined : { ...st, uri }
  }
  /** The state once the scheduled check has run (a completion a typed character triggered). */
  const settled = async (uri: string, token: CancellationToken) => {
    const st = await docs.settled(uri, token)
    return st === undefined ? undefined : { ...st, uri }
  }

  const modules = watchTerraformModules(connection, documents, registry.terraform.pins ?? new Map(), (uri) =>
    docs.invalidate(uri)
  )
  let clientCapabilities: ClientCapabilities = {}
  const settings = followSettings(connection, (s) => {
    if (s.printWidth !== undefined) printWidth = s.printWidth
    if (s.debounceMs !== undefined) debounceMs = s.debounceMs
  })

  let printWidth = DEFAULT_WIDTH
  /** The client's `foldingRange.rangeLimit`: the folds beyond it are dropped by the client anyway. */
  let foldingLimit: number | undefined
  let registerFormatting = false
  connection.onInitialize((params) => {
    const init = params.initializationOptions as { debounceMs?: unknown; printWidth?: unknown } | undefined
    if (typeof init?.debounceMs === "number" && init.debounceMs >= 0) debounceMs = init.debounceMs
    printWidth = widthOf(init?.printWidth) ?? DEFAULT_WIDTH
    // Formatting is offered for the documents it formats (*.rules) when the client lets the server
    // say so; a client that cannot register capabilities is told "all documents" (and gets no edit elsewhere).
    registerFormatting = params.capabilities.textDocument?.formatting?.dynamicRegistration === true
    foldingLimit = params.capabilities.textDocument?.foldingRange?.rangeLimit
    clientCapabilities = params.capabilities
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        definitionProvider: true,
        completionProvider: { triggerCharacters: [".", "$", " ", '"', "("] },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Source] },
        ...(registerFormatting ? {} : { documentFormattingProvider: true, documentRangeFormattingProvider: true }),
        signatureHelpProvider: { triggerCharacters: ["(", ","], retriggerCharacters: [","] },
        documentSymbolProvider: true,
        semanticTokensProvider: {
          legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] },
          full: true
        },
        foldingRangeProvider: true,
        executeCommandProvider: { commands: ["edgectl.runCommand", "edgectl.showMessage"] }
      },
      serverInfo: { name: "edgectl", version: version() }
    }
  })

  connection.onInitialized(() => {
    modules.initialized(clientCapabilities)
    settings.initialized(clientCapabilities)
    if (registerFormatting) {
      void connection.client.register(DocumentFormattingRequest.type, {
        documentSelector: [{ pattern: "**/*.rules" }, { language: "edgectl-rules" }]
      })
      void connection.client.register(DocumentRangeFormattingRequest.type, {
        documentSelector: [{ pattern: "**/*.rules" }, { language: "edgectl-rules" }]
      })
    }
  })

  documents.onDidOpen((e) => docs.opened(e.document.uri))
  documents.onDidChangeContent((e) => docs.changed(e.document.uri))
  documents.onDidClose((e) => {
    docs.closed(e.document.uri)
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] })
  })

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
        width: widthOf(options.printWidth) ?? printWidth
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
    return foldingLimit === undefined ? folds : folds.slice(0, foldingLimit)
  })

  connection.languages.semanticTokens.on(async (p, token) => {
    const st = await current(p.textDocument.uri, token)
    if (st === undefined) return { data: [] }
    return { data: encodeTokens(st.lines, documentTokens(st.analysis)) }
  })

  documents.listen(connection)
  connection.listen()
}

/**
 * Starts the server on this process's stdin and stdout, with every document kind edgectl knows;
 * resolves when the client has asked it to exit.
 */
export const serveStdio = (
  options: ServerOptions = {},
  registry: DocumentRegistry = documentRegistry()
): Promise<void> =>
  new Promise((resolve) => {
    const { reader, writer } = gatedStreams(process.stdin, process.stdout)
    const connection = createConnection(reader, writer)
    connection.onExit(() => resolve())
    startServer(connection, registry, options)
  })
