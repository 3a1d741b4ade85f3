/** A JSON-RPC client that drives the built `edgectl lsp` over stdio, as an editor does. */
import { spawn, type ChildProcess } from "node:child_process"
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection
} from "vscode-jsonrpc/node.js"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll } from "vitest"
import { bin } from "./cli.js"

export interface PublishedDiagnostics {
  readonly uri: string
  readonly version?: number
  readonly diagnostics: ReadonlyArray<{
    severity: number
    code: string
    message: string
    range: { start: { line: number; character: number }; end: { line: number; character: number } }
    relatedInformation?: ReadonlyArray<{ location: { uri: string; range: unknown }; message: string }>
  }>
}

export interface LspClient {
  readonly connection: MessageConnection
  readonly child: ChildProcess
  /** The next diagnostics published for `uri` (after this call) that satisfy `accept`. */
  diagnostics(uri: string, accept?: (d: PublishedDiagnostics) => boolean): Promise<PublishedDiagnostics>
  open(uri: string, text: string, languageId?: string): Promise<PublishedDiagnostics>
  /** Requests the server sent to the client (an editor may block on them: `window/showMessageRequest`). */
  readonly serverRequests: ReadonlyArray<{ method: string; params: unknown }>
  /** `window/showMessage` notifications. */
  readonly messages: ReadonlyArray<{ type: number; message: string }>
  close(): Promise<number | null>
}

/** `capabilities`: the client's capabilities, as an editor declares them in `initialize`. */
export const startLsp = async (
  initializationOptions: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = {}
): Promise<LspClient & { capabilities: Record<string, unknown>; serverInfo: { name: string; version: string } }> => {
  const child = spawn(process.execPath, [bin, "lsp", "--stdio"], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" }
  })
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!)
  )
  const waiters: Array<{
    uri: string
    accept: (d: PublishedDiagnostics) => boolean
    resolve: (d: PublishedDiagnostics) => void
  }> = []
  connection.onNotification("textDocument/publishDiagnostics", (d: PublishedDiagnostics) => {
    const i = waiters.findIndex((w) => w.uri === d.uri && w.accept(d))
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(d)
  })
  connection.onNotification("window/logMessage", () => {})
  const serverRequests: Array<{ method: string; params: unknown }> = []
  const messages: Array<{ type: number; message: string }> = []
  connection.onNotification("window/showMessage", (m: { type: number; message: string }) => void messages.push(m))
  connection.onRequest((method, params) => {
    serverRequests.push({ method, params })
    return null
  })
  connection.listen()
  const init = (await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: null,
    capabilities,
    initializationOptions
  })) as {
    capabilities: Record<string, unknown>
    serverInfo: { name: string; version: string }
  }
  await connection.sendNotification("initialized", {})
  const versions = new Map<string, number>()
  const diagnostics = (uri: string, accept: (d: PublishedDiagnostics) => boolean = () => true) =>
    new Promise<PublishedDiagnostics>((resolve) => waiters.push({ uri, accept, resolve }))
  return {
    connection,
    child,
    capabilities: init.capabilities,
    serverInfo: init.serverInfo,
    diagnostics,
    serverRequests,
    messages,
    open: async (uri, text, languageId = "plaintext") => {
      versions.set(uri, 1)
      const next = diagnostics(uri)
      await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } })
      return next
    },
    close: async () => {
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
      await connection.sendRequest("shutdown")
      await connection.sendNotification("exit")
      const code = await exited
      connection.dispose()
      return code
    }
  }
}

/** A text edit, a published diagnostic and a code action, as the code-action tests read them. */
export interface LspEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  newText: string
}
export type LspDiagnostic = PublishedDiagnostics["diagnostics"][number]
export interface LspAction {
  title: string
  isPreferred?: boolean
  edit?: { changes: Record<string, Array<LspEdit>> }
}

/** The code actions the server offers on `diagnostics`, asked at the first one's range as an editor asks. */
export const codeActions = async (client: LspClient, uri: string, diagnostics: ReadonlyArray<LspDiagnostic>) =>
  (await client.connection.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range: diagnostics[0]!.range,
    context: { diagnostics }
  })) as Array<LspAction>

/** `text` with a code action's edits applied, as an editor applies them to the document. */
export const applyEdits = (text: string, edits: ReadonlyArray<LspEdit>, languageId: string) =>
  TextDocument.applyEdits(TextDocument.create("x", languageId, 0, text), [...edits])

/**
 * A test file's language server on the platform's clock `now`: EDGECTL_PLATFORM_NOW is set in this
 * process for the file (the server reads its clock from its environment, as `scan` and every CLI
 * command the file runs do), the client started before the file's tests and closed after them, and
 * the variable restored. Answers the client's getter.
 */
export const lspOnClock = (now: string, initializationOptions: Record<string, unknown> = {}) => {
  let client: Awaited<ReturnType<typeof startLsp>> | undefined
  let previous: string | undefined
  beforeAll(async () => {
    previous = process.env.EDGECTL_PLATFORM_NOW
    process.env.EDGECTL_PLATFORM_NOW = now
    client = await startLsp(initializationOptions)
  })
  afterAll(async () => {
    await client?.close()
    if (previous === undefined) delete process.env.EDGECTL_PLATFORM_NOW
    else process.env.EDGECTL_PLATFORM_NOW = previous
  })
  return () => client!
}
