/**
 * Keeping the Objects screen current while something else changes the objects (a running
 * `edgectl objects dev` serving requests, a CLI command). The host sends no notification: while a
 * view is shown, the screen compares a few stat calls of the object's files (storageSignature)
 * every POLL_MS and reads the object again when they changed or when the host that answered the
 * last read stopped; the list compares the stored objects and their hosts every LIST_POLL_MS
 * (or 20 times as long as reading them took).
 * Reads never overlap, and the last one wins.
 */
import { useEffect, useEffectEvent, useRef, useState } from "react"
import { ObjectBusyError } from "../../src/objects/owner-lock.js"
import { fromUnknown, type UiError } from "../errors.js"
import {
  type Host,
  hostServing,
  readObject,
  readStored,
  storageSignature,
  type ObjectView,
  type StoredObject
} from "./objects-data.js"

const POLL_MS = 250
const LIST_POLL_MS = 1000

export interface Failure {
  readonly error: UiError
  // Another process (not a host) holds the object: the view says who, and that r opens it later.
  readonly busy: boolean
}

/** An open object's view, read again whenever its storage changes; `reload` reads it now. */
export const useObjectView = (object: StoredObject, polling: boolean) => {
  const [view, setView] = useState<ObjectView | undefined>(undefined)
  const [failure, setFailure] = useState<Failure | undefined>(undefined)
  const state = useRef<{ reading: boolean; again: boolean; seen: string; alive: boolean; host: Host | undefined }>({
    reading: false,
    again: false,
    seen: "",
    alive: true,
    host: undefined
  })

  const reload = (): void => {
    const s = state.current
    if (s.reading) {
      s.again = true
      return
    }
    s.reading = true
    s.again = false
    // Taken before the read: a commit made while it runs is seen by the next poll.
    s.seen = storageSignature(object.dir)
    readObject(object)
      .then(
        (v) => s.alive && ((s.host = v.host), setView(v), setFailure(undefined)),
        // No retrying a failed read on every poll: a change of the storage, or r, reads again.
        (e: unknown) =>
          s.alive && ((s.host = undefined), setFailure({ error: fromUnknown(e), busy: e instanceof ObjectBusyError }))
      )
      .finally(() => {
        s.reading = false
        if (s.again && s.alive) reload()
      })
  }

  // A view that the caller read itself (with a SQL query, as one event) replaces the current one.
  const replace = (v: ObjectView): void => {
    state.current.seen = storageSignature(object.dir)
    state.current.host = v.host
    setView(v)
    setFailure(undefined)
  }

  // Another object's directory reads it at once; a new listing of the same object does not.
  const readNow = useEffectEvent(reload)
  useEffect(() => {
    const s = state.current
    s.alive = true
    readNow()
    return () => {
      s.alive = false
    }
  }, [object.dir])

  useEffect(() => {
    if (!polling) return
    const timer = setInterval(() => {
      const s = state.current
      if (s.reading) return
      if (storageSignature(object.dir) !== s.seen || (s.host !== undefined && !hostServing(s.host))) readNow()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [object.dir, polling])

  return { view, failure, reload, replace }
}

/** The stored objects and the hosts running them, read again while the list is shown. */
export const useStoredObjects = (dir: string, polling: boolean) => {
  const [listed, setListed] = useState<{ objects: Array<StoredObject>; hosts: Array<Host> } | undefined>(undefined)
  const [failure, setFailure] = useState<UiError | undefined>(undefined)
  const last = useRef("")
  const load = (): void => {
    try {
      const next = readStored(dir)
      const key = JSON.stringify(next)
      setFailure(undefined)
      // Unchanged: no new frame.
      if (key === last.current) return
      last.current = key
      setListed(next)
    } catch (e) {
      setFailure(fromUnknown(e))
    }
  }
  const loadNow = useEffectEvent(load)
  useEffect(() => {
    last.current = ""
    loadNow()
  }, [dir])
  useEffect(() => {
    if (!polling) return
    // Reading thousands of objects takes a while: the pause grows with it, so polling stays a
    // small share of the time.
    let timer: NodeJS.Timeout
    const next = (took: number) => {
      timer = setTimeout(
        () => {
          const started = performance.now()
          loadNow()
          next(performance.now() - started)
        },
        Math.max(LIST_POLL_MS, 20 * took)
      )
    }
    next(0)
    return () => clearTimeout(timer)
  }, [dir, polling])
  return { objects: listed?.objects, hosts: listed?.hosts ?? [], failure, load }
}
