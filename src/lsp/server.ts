/**
 * `edgectl lsp`: the language server (LSP 3.17 over stdio). Documents are kept with incremental
 * sync; each change is checked on the next turn of the event loop when the document was idle,
 * and bursts of changes are coalesced (debounced) so a fast typist does not queue checks.
 * This file is the server's life (initialize, the documents' open, change and close, listening);
 * the requests are registered in groups: ./server-reading.ts, ./server-actions.ts, ./server-layout.ts.
 */
import {
  CodeActionKind,
  createConnection,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  TextDocumentSyncKind,
  type Connection
} from "vscode-languageserver/node.js"
import { gatedStreams } from "./protocol-gate.js"
import { documentRegistry, type DocumentRegistry } from "./registry.js"
import { registerActions } from "./server-actions.js"
import { registerLayout } from "./server-layout.js"
import { registerReading } from "./server-reading.js"
import { openSession, type Session } from "./server-session.js"
import { DEFAULT_WIDTH, widthOf } from "./server-values.js"
import { followSettings } from "./settings.js"
import { watchTerraformModules } from "./terraform/module-watch.js"
import { TOKEN_MODIFIERS, TOKEN_TYPES } from "./tokens.js"
import { version } from "../version.js"

export interface ServerOptions {
  /** Quiet time after a burst of changes before the check runs (ms). */
  readonly debounceMs?: number
}

/**
 * Initialize (the client's choices, the server's capabilities) and initialized (the registrations
 * that wait for it: the Terraform modules' watch, the settings, formatting for `*.rules`).
 */
const registerLifecycle = (session: Session): void => {
  const { connection, documents, docs, registry, client } = session
  const modules = watchTerraformModules(connection, documents, registry.terraform.pins ?? new Map(), (uri) =>
    docs.invalidate(uri)
  )
  const settings = followSettings(connection, (s) => {
    if (s.printWidth !== undefined) client.printWidth = s.printWidth
    if (s.debounceMs !== undefined) client.debounceMs = s.debounceMs
  })

  let registerFormatting = false
  connection.onInitialize((params) => {
    const init = params.initializationOptions as { debounceMs?: unknown; printWidth?: unknown } | undefined
    if (typeof init?.debounceMs === "number" && init.debounceMs >= 0) client.debounceMs = init.debounceMs
    client.printWidth = widthOf(init?.printWidth) ?? DEFAULT_WIDTH
    // Formatting is offered for the documents it formats (*.rules) when the client lets the server
    // say so; a client that cannot register capabilities is told "all documents" (and gets no edit elsewhere).
    registerFormatting = params.capabilities.textDocument?.formatting?.dynamicRegistration === true
    client.foldingLimit = params.capabilities.textDocument?.foldingRange?.rangeLimit
    client.capabilities = params.capabilities
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
    modules.initialized(client.capabilities)
    settings.initialized(client.capabilities)
    if (registerFormatting) {
      void connection.client.register(DocumentFormattingRequest.type, {
        documentSelector: [{ pattern: "**/*.rules" }, { language: "edgectl-rules" }]
      })
      void connection.client.register(DocumentRangeFormattingRequest.type, {
        documentSelector: [{ pattern: "**/*.rules" }, { language: "edgectl-rules" }]
      })
    }
  })
}

/** The open documents: each opening and change schedules a check; a closed one's diagnostics are cleared. */
const registerDocuments = ({ connection, documents, docs }: Session): void => {
  documents.onDidOpen((e) => docs.opened(e.document.uri))
  documents.onDidChangeContent((e) => docs.changed(e.document.uri))
  documents.onDidClose((e) => {
    docs.closed(e.document.uri)
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] })
  })
}

/** `registry`: the document kinds beyond rule expressions, their checks, hover and completion. */
const startServer = (connection: Connection, registry: DocumentRegistry, options: ServerOptions = {}): void => {
  const session = openSession(connection, registry, options.debounceMs ?? 40)
  registerLifecycle(session)
  registerDocuments(session)
  registerReading(session)
  registerActions(session)
  registerLayout(session)
  session.documents.listen(connection)
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
