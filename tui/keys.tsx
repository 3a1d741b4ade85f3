/**
 * The keypress hub: the app's only `useInput`. Screens, dialogs and overlays register layers with a
 * priority; a key goes to the highest layer first and falls through until one handles it, and stops
 * at a modal layer (a text field, a dialog). The footer reads the same layers, so it lists exactly
 * the keys that work right now. ctrl+c quits from anywhere; ctrl+l redraws the screen from anywhere.
 *
 * A paste (tui/key-decoder.ts) reaches the layers as one `paste` press, with `toText` saying whether
 * a field (a `text` layer) is there to take it; layers that take no text never act on it, and the
 * notice layer (tui/notices.tsx) says a paste with no field was ignored.
 */
import { useStdin } from "ink"
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useInsertionEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode
} from "react"
import { fromUnknown, type UiError } from "./errors.js"
import { WholeRedraw } from "./frame-diff.js"
import { InputReader, isText, textPress, type Keypress } from "./key-decoder.js"

export type { Keypress } from "./key-decoder.js"

/** True when handled; an unhandled key falls through to lower layers (unless this layer is modal). */
export type KeyHandler = (press: Keypress) => boolean

export interface KeyHint {
  readonly keys: string
  readonly label: string
  /** How long the footer keeps it when the line is too narrow: higher stays longer (default 0; on
   *  a tie the hint listed first stays). `KeepAlways` is never dropped (`? help`, `q quit`). */
  readonly keep?: number
}

export const KeepAlways = 100

/** Layer priorities, lowest first. */
export const KeyLayer = { app: 0, screen: 10, view: 20, tab: 25, input: 30, dialog: 40, overlay: 50 } as const

interface Registration {
  readonly id: number
  readonly priority: number
  readonly modal: boolean
  readonly text: boolean
  readonly hints: ReadonlyArray<KeyHint>
  /** Keys listed only by the help overlay, after the hints. */
  readonly help: ReadonlyArray<KeyHint>
  readonly handler: { current: KeyHandler }
}

/** A layer's keys as the help overlay lists them. */
export interface LayerKeys {
  readonly priority: number
  readonly hints: ReadonlyArray<KeyHint>
}

interface Hub {
  readonly register: (r: Omit<Registration, "id">) => () => void
  /** Keeps the keys queued (ctrl+c aside) until the returned release is called. */
  readonly hold: () => () => void
  readonly hints: ReadonlyArray<KeyHint>
  readonly fault: UiError | undefined
  /** The layers that get keys right now, highest first, read when called (for `?`). */
  readonly layersNow: () => ReadonlyArray<LayerKeys>
}

const HubContext = createContext<Hub | undefined>(undefined)

const byPriority = (a: Registration, b: Registration) => b.priority - a.priority || b.id - a.id

/** The layers a key can reach, highest first: down to the first modal one. */
const receivers = (sorted: ReadonlyArray<Registration>): ReadonlyArray<Registration> => {
  const modal = sorted.findIndex((r) => r.modal)
  return modal === -1 ? sorted : sorted.slice(0, modal + 1)
}

export function KeypressProvider({ onQuit, children }: { onQuit: () => void; children: ReactNode }) {
  const registrations = useRef(new Map<number, Registration>())
  const nextId = useRef(0)
  const [version, setVersion] = useState(0)
  const [fault, setFault] = useState<UiError | undefined>(undefined)
  const quit = useRef(onQuit)
  quit.current = onQuit

  const register = useCallback((r: Omit<Registration, "id">) => {
    const id = nextId.current++
    registrations.current.set(id, { ...r, id })
    setVersion((v) => v + 1)
    return () => {
      registrations.current.delete(id)
      setVersion((v) => v + 1)
    }
  }, [])

  // The hub reads the raw input rather than Ink's useInput, which hands a run of plain bytes over as
  // one key and names DEL and forward Delete alike. Keys are dispatched one at a time, each after
  // React has rendered what the one before it did, whether it came in the same read or in the next:
  // a layer opened by one key (`:`, `d`, a form's next step) takes the keys after it, and every
  // handler sees the state they left.
  const { internal_eventEmitter: events, setRawMode } = useStdin()
  useEffect(() => {
    setRawMode(true)
    return () => setRawMode(false)
  }, [setRawMode])

  const queue = useRef<Array<Keypress>>([])
  const waiting = useRef(false)
  const [turn, setTurn] = useState(0)

  /** Hands the next key (or run of typed characters, to a field) to the layers it reaches. */
  const dispatchNext = () => {
    const presses = queue.current
    const first = presses[0]!
    const layers = receivers([...registrations.current.values()].sort(byPriority))
    const toText = layers.some((r) => r.text)
    // A paste read without markers is keys where no field takes text: a burst of keys on a list.
    if (first.name === "paste" && first.keys !== undefined && !toText) {
      presses.splice(0, 1, ...first.keys)
      if (presses.length === 0) return
      return dispatchNext()
    }
    // A field takes a run of typed characters as one paste, so a long paste renders once.
    let end = 1
    if (isText(first) && toText) while (end < presses.length && isText(presses[end]!)) end++
    const joined =
      end === 1
        ? first
        : textPress(
            presses
              .slice(0, end)
              .map((t) => t.input)
              .join("")
          )
    presses.splice(0, end)
    const press = first.name === "paste" ? { ...first, toText } : joined
    try {
      for (const r of layers) {
        if (r.handler.current(press) || r.modal) break
      }
    } catch (e) {
      presses.splice(0)
      setFault(fromUnknown(e))
    }
  }
  // Keys typed while the app starts (before a screen is there to take them) wait for it.
  const holds = useRef(0)
  const drain = useRef(() => {})
  drain.current = () => {
    waiting.current = false
    if (queue.current.length === 0 || holds.current > 0) return
    dispatchNext()
    // The keys after it wait for the render this key caused (and its effects): see the effect on
    // `turn`. Even when none is queued yet: React renders a key's update in a later task, and the
    // next read can come before it (issue 29: `block⏎`, then a lone `⏎` went to the Action step
    // again, not to the Priority step it opened). A read meanwhile is queued by onChunk.
    waiting.current = true
    setTurn((t) => t + 1)
  }
  useEffect(() => {
    if (waiting.current) drain.current()
  }, [turn])
  const hold = useCallback(() => {
    holds.current++
    let held = true
    return () => {
      if (!held) return
      held = false
      if (--holds.current > 0 || queue.current.length === 0) return
      // The keys go once the render that released them (the screen that takes them) is committed.
      waiting.current = true
      setTurn((t) => t + 1)
    }
  }, [])

  const [redraws, setRedraws] = useState(0)
  // ctrl+l's render asks for the whole frame. React skips the commit of a render that changes no
  // element and has no effect, and Ink draws on a commit: this effect makes it commit, and an
  // insertion effect runs before Ink draws (a layout effect runs after).
  useInsertionEffect(() => {
    if (redraws > 0) WholeRedraw.pending = true
  }, [redraws])
  const reader = useRef(new InputReader())
  const onChunk = useCallback((chunk: string) => {
    let presses = reader.current.read(chunk)
    if (presses.some((p) => p.name === "ctrl+c")) {
      queue.current = []
      return quit.current()
    }
    // ctrl+l redraws the whole screen, from anywhere (a field too), as in a shell or vim.
    if (presses.some((p) => p.name === "ctrl+l")) {
      setRedraws((n) => n + 1)
      presses = presses.filter((p) => p.name !== "ctrl+l")
    }
    setFault(undefined)
    queue.current.push(...presses)
    if (!waiting.current) drain.current()
  }, [])
  useEffect(() => {
    events.on("input", onChunk)
    return () => {
      events.off("input", onChunk)
    }
  }, [events, onChunk])

  const hints = useMemo(() => {
    // A key listed by a higher layer is handled there: a lower layer's hint for it would not be true.
    const seen = new Set<string>()
    return receivers([...registrations.current.values()].sort(byPriority))
      .flatMap((r) => r.hints)
      .filter((h) => !seen.has(h.keys) && seen.add(h.keys) !== undefined)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version counts the changes of registrations, a ref
  }, [version])

  const layersNow = useCallback(
    () =>
      receivers([...registrations.current.values()].sort(byPriority)).map((r) => ({
        priority: r.priority,
        hints: [...r.hints, ...r.help]
      })),
    []
  )
  const hub = useMemo(() => ({ register, hold, hints, fault, layersNow }), [register, hold, hints, fault, layersNow])
  return <HubContext.Provider value={hub}>{children}</HubContext.Provider>
}

const useHub = (): Hub => {
  const hub = useContext(HubContext)
  if (hub === undefined) throw new Error("useKeys must be used inside <KeypressProvider>")
  return hub
}

export interface KeyOptions {
  readonly priority: number
  /** Inactive layers neither get keys nor show hints. */
  readonly active?: boolean
  /** A modal layer swallows every key it does not handle (except ctrl+c). */
  readonly modal?: boolean
  /** The layer takes typed text (a field): a run of typed characters in one read reaches it as one press. */
  readonly text?: boolean
  readonly hints?: ReadonlyArray<KeyHint>
  /** More keys of the layer that the footer never shows and `?` lists after the hints. */
  readonly help?: ReadonlyArray<KeyHint>
}

/** Registers a key layer for as long as the component is mounted and `active`. */
export function useKeys(handler: KeyHandler, options: KeyOptions): void {
  const { register } = useHub()
  const ref = useRef(handler)
  ref.current = handler
  const { priority, active = true, modal = false, text = false } = options
  const hintsKey = JSON.stringify([options.hints ?? [], options.help ?? []])
  // A layout effect, so the footer never draws a frame with the hints of a layer already gone.
  useLayoutEffect(() => {
    if (!active) return
    const [hints, help] = JSON.parse(hintsKey) as [Array<KeyHint>, Array<KeyHint>]
    return register({ priority, modal, text, hints, help, handler: ref })
  }, [register, priority, active, modal, text, hintsKey])
}

/**
 * While `holding`, keys wait in their queue instead of reaching the layers there are (ctrl+c still
 * quits): the app holds them until its screens are mounted, so keys typed as it starts are not lost.
 */
export function useHoldKeys(holding: boolean): void {
  const { hold } = useHub()
  useLayoutEffect(() => (holding ? hold() : undefined), [hold, holding])
}

/** Reads the key layers under the caller when called: `?` lists them before it opens over them. */
export const useLayersNow = (): (() => ReadonlyArray<LayerKeys>) => useHub().layersNow

/** The hints of the layers that get keys right now, highest first, and the last handler fault. */
export function useKeyHints(): { readonly hints: ReadonlyArray<KeyHint>; readonly fault: UiError | undefined } {
  const { hints, fault } = useHub()
  return { hints, fault }
}
