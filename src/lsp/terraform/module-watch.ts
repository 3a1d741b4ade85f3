/**
 * A Terraform module's files read one another's provider pin (versions.tf): when one changes — on
 * disk (`workspace/didChangeWatchedFiles`, registered for `*.tf` / `*.tf.json` when the client can)
 * or in an editor buffer not saved yet — the module's other open documents are checked again, and
 * an unsaved buffer's pin is the one they read (./version.ts `setModuleBuffer`).
 */
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { TextDocument } from "vscode-languageserver-textdocument"
import {
  DidChangeWatchedFilesNotification,
  type ClientCapabilities,
  type Connection,
  type TextDocuments
} from "vscode-languageserver/node.js"
import { setModuleBuffer, type ModulePins } from "./version.js"

/** How long a buffer's edits must pause before its pin is read again. */
const BURST_MS = 100

const isModuleFile = (uri: string) => /\.tf(\.json)?$/i.test(uri)
const fileOf = (uri: string): string | undefined => {
  try {
    return uri.startsWith("file:") ? fileURLToPath(uri) : undefined
  } catch {
    return undefined
  }
}

export const watchTerraformModules = (
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  pins: ModulePins,
  /** Checks an open document again (the server's debounced schedule). */
  recheck: (uri: string) => void
): { readonly initialized: (capabilities: ClientCapabilities) => void } => {
  /** The open Terraform documents of the directory of `file`, but `except`. */
  const recheckModule = (file: string, except?: string) => {
    for (const d of documents.all())
      if (d.uri !== except && isModuleFile(d.uri) && path.dirname(fileOf(d.uri) ?? "") === path.dirname(file))
        recheck(d.uri)
  }
  // A burst of edits reads each buffer's pin once, after the burst: parsing a large file's pin on
  // every keystroke would hold the server between two keys of a burst (and delay their check).
  // One buffer's pin at a time, in the order the bursts came: a later edit never loses to an earlier parse.
  let queue: Promise<void> = Promise.resolve()
  const pending = new Map<string, { readonly uri: string; readonly text: string | undefined }>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    timer = undefined
    const batch = [...pending]
    pending.clear()
    queue = queue.then(async () => {
      for (const [file, { uri, text }] of batch) {
        const before = pins.get(file)?.pin
        await setModuleBuffer(pins, file, text)
        if (pins.get(file)?.pin !== before || text === undefined) recheckModule(file, uri)
      }
    })
  }
  const buffer = (d: TextDocument, text: string | undefined) => {
    const file = fileOf(d.uri)
    if (file === undefined || !isModuleFile(d.uri)) return
    pending.set(file, { uri: d.uri, text })
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(flush, BURST_MS)
    timer.unref()
  }
  documents.onDidOpen((e) => buffer(e.document, e.document.getText()))
  documents.onDidChangeContent((e) => buffer(e.document, e.document.getText()))
  documents.onDidClose((e) => buffer(e.document, undefined))
  connection.onDidChangeWatchedFiles((p) => {
    for (const c of p.changes) {
      const file = fileOf(c.uri)
      if (file !== undefined && isModuleFile(c.uri)) recheckModule(file, c.uri)
    }
  })
  return {
    initialized: (capabilities) => {
      if (capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true)
        void connection.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: [{ globPattern: "**/*.tf" }, { globPattern: "**/*.tf.json" }]
        })
    }
  }
}
