/**
 * What every part of the language server shares: the connection, the document kinds, the open
 * documents and their checked states, and what the client asked for (at initialize and in its
 * settings since). Each group of requests (./server-reading.ts, ./server-actions.ts,
 * ./server-layout.ts) is registered on a session.
 */
import {
  TextDocuments,
  type CancellationToken,
  type ClientCapabilities,
  type Connection
} from "vscode-languageserver/node.js"
import { languageOf } from "../deprecations/scan-text.js"
import { analyze, analyzeSource, syntaxOf } from "./analyze.js"
import { documentStates, requestCancelled, type DocumentState, type DocumentStates } from "./document-states.js"
import type { DocumentRegistry } from "./registry.js"
import { DEFAULT_WIDTH, diagnostic } from "./server-values.js"
import { PieceTextDocument } from "./text-document.js"
import type { TextDocument } from "vscode-languageserver-textdocument"

/** What the client asked for; initialize sets it, the client's settings change it later. */
interface ClientChoices {
  /** Quiet time after a burst of changes before the check runs (ms). */
  debounceMs: number
  printWidth: number
  /** The client's `foldingRange.rangeLimit`: the folds beyond it are dropped by the client anyway. */
  foldingLimit: number | undefined
  capabilities: ClientCapabilities
}

/** A document's checked state, with its URI, as a request reads it. */
type RequestState = DocumentState & { readonly uri: string }

export interface Session {
  readonly connection: Connection
  /** The document kinds beyond rule expressions, their checks, hover and completion. */
  readonly registry: DocumentRegistry
  readonly documents: TextDocuments<TextDocument>
  readonly docs: DocumentStates
  readonly client: ClientChoices
  /** The state of the document as it is now, for a request (checked on demand when it outruns the debounce). */
  current(uri: string, token: CancellationToken): Promise<RequestState | undefined>
  /** The state once the scheduled check has run (a completion a typed character triggered). */
  settled(uri: string, token: CancellationToken): Promise<RequestState | undefined>
}

/** A document of no checked syntax whose deprecations the scanner still finds (scripts, programs, configuration). */
const scannerReads = (uri: string) => languageOf(uri) !== undefined

export const openSession = (connection: Connection, registry: DocumentRegistry, debounceMs: number): Session => {
  const documents = new TextDocuments(PieceTextDocument)
  const client: ClientChoices = { debounceMs, printWidth: DEFAULT_WIDTH, foldingLimit: undefined, capabilities: {} }
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
    debounceMs: () => client.debounceMs
  })
  return {
    connection,
    registry,
    documents,
    docs,
    client,
    current: async (uri, token) => {
      const st = await docs.current(uri, token)
      if (token.isCancellationRequested) throw requestCancelled()
      return st === undefined ? undefined : { ...st, uri }
    },
    settled: async (uri, token) => {
      const st = await docs.settled(uri, token)
      return st === undefined ? undefined : { ...st, uri }
    }
  }
}
