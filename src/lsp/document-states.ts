/**
 * The language server's open documents as checked: one analysis per document version, shared by
 * the published diagnostics and every request at that version (hover, completion, code actions,
 * symbols), and when each document is checked.
 *
 * Scheduling: a change to a document that has been quiet (no change and no check for the debounce
 * time) is checked on the next turn of the event loop, so a single edit gets its diagnostics at
 * once; any other change re-arms the debounce. The quiet time counts from the end of the last
 * check, not its start: changes that queued while a long check ran (an 8 MB file) are then
 * coalesced into one check of the last version instead of one check each, whatever a check costs.
 *
 * Requests honour `$/cancelRequest`: one that needs a version not yet checked first lets the event
 * loop turn (so that a cancellation already sent is read), and a cancelled request is answered with
 * the protocol's RequestCancelled error instead of running the check.
 */
import { LSPErrorCodes, ResponseError, type CancellationToken } from "vscode-languageserver/node.js"
import type { TextDocument } from "vscode-languageserver-textdocument"
import type { Analysis } from "./findings.js"
import { LineIndex } from "./position.js"

export interface DocumentState {
  readonly version: number
  readonly text: string
  readonly lines: LineIndex
  readonly analysis: Analysis
}

export interface DocumentStatesOptions {
  readonly get: (uri: string) => TextDocument | undefined
  /** The document's analysis (`previous`: the last one, whose memo it may reuse); undefined for a document the server does not check. */
  readonly analyze: (doc: TextDocument, text: string, previous: Analysis | undefined) => Promise<Analysis> | undefined
  readonly publish: (uri: string, state: DocumentState) => Promise<void>
  readonly failed: (uri: string, error: unknown) => void
  readonly debounceMs: () => number
}

export interface DocumentStates {
  /** The state of the document's current version (checked now when it is not yet); `token`: the request's. */
  current(uri: string, token?: CancellationToken): Promise<DocumentState | undefined>
  /**
   * The state of the document's current version once its scheduled check has run: for requests
   * that come with typing (completion on a trigger character), which must not start checks of
   * their own between a burst's keys.
   */
  settled(uri: string, token: CancellationToken): Promise<DocumentState | undefined>
  /**
   * Checks the document again at the same version: what its check reads besides its text changed
   * (settings, another file of its module). Its cached state is dropped and a check scheduled.
   */
  invalidate(uri: string): void
  /** Opened (again: a client may reopen a document with other text at version 1). */
  opened(uri: string): void
  changed(uri: string): void
  closed(uri: string): void
}

export const requestCancelled = () => new ResponseError(LSPErrorCodes.RequestCancelled, "the request was cancelled")

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

interface Schedule {
  timer?: { handle: NodeJS.Timeout | NodeJS.Immediate; immediate: boolean } | undefined
  /** When the document last changed or a check of it ended. */
  active: number
  running: boolean
  /** A check was due while one ran: armed again when it ends. */
  again: boolean
}

export const documentStates = (o: DocumentStatesOptions): DocumentStates => {
  const states = new Map<string, DocumentState>()
  const inflight = new Map<string, { version: number; state: Promise<DocumentState | undefined> }>()
  const schedules = new Map<string, Schedule>()

  const analyzeNow = (uri: string, doc: TextDocument): Promise<DocumentState | undefined> => {
    const version = doc.version
    const text = doc.getText()
    const analysis = o.analyze(doc, text, states.get(uri)?.analysis)
    if (analysis === undefined) return Promise.resolve(undefined)
    const state = analysis
      .then((a) => {
        const st: DocumentState = { version, text, lines: new LineIndex(text), analysis: a }
        // Kept unless a newer version's state got there first (a Terraform check awaits its parser),
        // or the document was closed or opened again meanwhile (a new document object).
        if (o.get(uri) === doc && (states.get(uri)?.version ?? -Infinity) < version) states.set(uri, st)
        return st
      })
      .finally(() => {
        if (inflight.get(uri)?.version === version) inflight.delete(uri)
      })
    inflight.set(uri, { version, state })
    return state
  }

  const current = async (uri: string, token?: CancellationToken): Promise<DocumentState | undefined> => {
    const doc = o.get(uri)
    if (doc === undefined) return undefined
    const st = states.get(uri)
    if (st !== undefined && st.version === doc.version) return st
    const running = inflight.get(uri)
    if (running !== undefined && running.version === doc.version) return running.state
    if (token !== undefined) {
      // Read what the client sent meanwhile (its cancellation, newer changes) before checking.
      await turn()
      if (token.isCancellationRequested) throw requestCancelled()
      return current(uri)
    }
    return analyzeNow(uri, doc)
  }

  /** Those waiting for a document's scheduled check. */
  const waiters = new Map<string, Set<() => void>>()
  const wake = (uri: string) => {
    const w = waiters.get(uri)
    waiters.delete(uri)
    for (const f of w ?? []) f()
  }

  const settled = async (uri: string, token: CancellationToken): Promise<DocumentState | undefined> => {
    for (;;) {
      const doc = o.get(uri)
      if (doc === undefined) return undefined
      const st = states.get(uri)
      if (st !== undefined && st.version === doc.version) return st
      // No check on its way (none scheduled, or the last one failed): check it now.
      const s = schedules.get(uri)
      if (s === undefined || (s.timer === undefined && !s.running)) return current(uri, token)
      await new Promise<void>((resolve, reject) => {
        const set = waiters.get(uri) ?? new Set()
        waiters.set(uri, set)
        const done = () => {
          sub.dispose()
          resolve()
        }
        const sub = token.onCancellationRequested(() => {
          set.delete(done)
          reject(requestCancelled())
        })
        set.add(done)
      })
    }
  }

  const check = async (uri: string) => {
    const s = schedules.get(uri)
    if (s === undefined) return
    s.timer = undefined
    if (s.running) {
      s.again = true
      return
    }
    s.running = true
    try {
      const st = await current(uri)
      // A newer version arrived while an asynchronous check ran: its own check publishes.
      if (st === undefined || o.get(uri)?.version !== st.version) return
      await o.publish(uri, st)
    } catch (e) {
      o.failed(uri, e)
    } finally {
      s.running = false
      s.active = Date.now()
      wake(uri)
      if (s.again && schedules.get(uri) === s) {
        s.again = false
        arm(uri, s, false)
      }
    }
  }

  const clear = (s: Schedule) => {
    if (s.timer === undefined) return
    if (s.timer.immediate) clearImmediate(s.timer.handle as NodeJS.Immediate)
    else clearTimeout(s.timer.handle as NodeJS.Timeout)
    s.timer = undefined
  }

  const arm = (uri: string, s: Schedule, immediate: boolean) => {
    clear(s)
    s.timer = immediate
      ? { handle: setImmediate(() => void check(uri)), immediate }
      : { handle: setTimeout(() => void check(uri), o.debounceMs()), immediate }
  }

  const changed = (uri: string) => {
    const now = Date.now()
    let s = schedules.get(uri)
    if (s === undefined) schedules.set(uri, (s = { active: -Infinity, running: false, again: false }))
    const quiet = now - s.active >= o.debounceMs()
    s.active = now
    // A check about to run reads the latest version anyway.
    if (s.timer?.immediate) return
    arm(uri, s, quiet && s.timer === undefined && !s.running)
  }
  const closed = (uri: string) => {
    const s = schedules.get(uri)
    if (s !== undefined) clear(s)
    schedules.delete(uri)
    states.delete(uri)
    inflight.delete(uri)
    wake(uri)
  }
  return {
    current,
    settled,
    opened: (uri) => {
      closed(uri)
      changed(uri)
    },
    changed,
    closed,
    invalidate: (uri) => {
      if (o.get(uri) === undefined) return
      states.delete(uri)
      inflight.delete(uri)
      changed(uri)
    }
  }
}
