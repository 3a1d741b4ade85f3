// Reload on change for `objects dev`: polls the module's files (the module and the local files it
// imports) and reloads the host when one changes. Polling (fs.watchFile) rather than fs.watch:
// editors that save by writing a new file and renaming it over the old one leave an fs.watch
// handle on the old file, and a handful of files costs nothing to poll.
import * as fs from "node:fs"
import type { ObjectHost } from "./host.js"

const POLL_MS = 100
// Changes closer together than this (a save in several writes) make one reload.
const SETTLE_MS = 60

export interface ModuleWatch {
  close(): void
}

export const watchModule = (
  host: ObjectHost,
  report: {
    readonly reloaded: (classes: Array<string>, restarted: number) => void
    readonly failed: (error: unknown) => void
  }
): ModuleWatch => {
  const watched = new Map<string, (now: fs.Stats, before: fs.Stats) => void>()
  let timer: NodeJS.Timeout | undefined
  let running = false
  let again = false
  let closed = false

  const reload = async (): Promise<void> => {
    if (running) return void (again = true)
    running = true
    try {
      do {
        again = false
        try {
          const r = await host.reload()
          report.reloaded(r.classes, r.restarted)
        } catch (e) {
          report.failed(e)
        }
        sync()
      } while (again && !closed)
    } finally {
      running = false
    }
  }

  const changed = (now: fs.Stats, before: fs.Stats) => {
    if (now.mtimeMs === before.mtimeMs && now.size === before.size && now.ino === before.ino) return
    clearTimeout(timer)
    timer = setTimeout(() => void reload(), SETTLE_MS)
  }

  // Watches the files of the version now running (a reload may import other files).
  const sync = () => {
    if (closed) return
    const files = new Set(host.moduleFiles)
    for (const [f, listener] of watched) {
      if (!files.has(f)) {
        fs.unwatchFile(f, listener)
        watched.delete(f)
      }
    }
    for (const f of files) {
      if (watched.has(f)) continue
      watched.set(f, changed)
      fs.watchFile(f, { interval: POLL_MS, persistent: false }, changed)
    }
  }
  sync()

  return {
    close: () => {
      closed = true
      clearTimeout(timer)
      for (const [f, listener] of watched) fs.unwatchFile(f, listener)
      watched.clear()
    }
  }
}
