/**
 * The server's settings (section `edgectl`: `printWidth`, `debounceMs`) from where the client keeps
 * them: `initializationOptions` at start, then `workspace/configuration` (pulled after
 * `initialized` and again on each `workspace/didChangeConfiguration`), or the settings a client
 * pushes in `didChangeConfiguration` when it cannot be asked. A value that is not valid is ignored.
 */
import {
  DidChangeConfigurationNotification,
  type ClientCapabilities,
  type Connection
} from "vscode-languageserver/node.js"

export interface Settings {
  readonly printWidth?: number
  readonly debounceMs?: number
}

/** The valid settings of a section's value (anything else: none). */
const readSettings = (v: unknown): Settings => {
  if (typeof v !== "object" || v === null) return {}
  const o = v as Record<string, unknown>
  return {
    ...(typeof o.printWidth === "number" && Number.isInteger(o.printWidth) && o.printWidth >= 20
      ? { printWidth: o.printWidth }
      : {}),
    ...(typeof o.debounceMs === "number" && o.debounceMs >= 0 ? { debounceMs: o.debounceMs } : {})
  }
}

export const followSettings = (
  connection: Connection,
  apply: (s: Settings) => void
): { readonly initialized: (capabilities: ClientCapabilities) => void } => {
  let pull = false
  const refresh = async () => {
    try {
      apply(readSettings(await connection.workspace.getConfiguration("edgectl")))
    } catch {
      // A client that fails the request keeps the settings it gave before.
    }
  }
  connection.onDidChangeConfiguration((p) => {
    if (pull) void refresh()
    else apply(readSettings((p.settings as Record<string, unknown> | null)?.edgectl))
  })
  return {
    initialized: (capabilities) => {
      pull = capabilities.workspace?.configuration === true
      if (!pull) return
      if (capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true)
        void connection.client.register(DidChangeConfigurationNotification.type, { section: "edgectl" })
      void refresh()
    }
  }
}
