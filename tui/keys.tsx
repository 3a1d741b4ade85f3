/**
 * The keypress hub: the app's only `useInput`. Screens, dialogs and overlays register layers with a
 * priority; a key goes to the highest layer first and falls through until one handles it, and stops
 * at a modal layer (a text field, a dialog). The footer reads the same layers, so it lists exactly
 * the keys that work right now. ctrl+c quits from anywhere.
 */
import { useInput, type Key } from "ink"
import { createContext, useCallback, useContext, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react"
import { fromUnknown, type UiError } from "./errors.js"

export interface Keypress {
  /** The text typed (may be several characters when pasted); empty for named keys. */
  readonly input: string
  readonly key: Key
  /** `up`, `down`, `pageup`, `pagedown`, `home`, `end`, `enter`, `escape`, `tab`, `shift+tab`,
   *  `backspace`, `ctrl+<x>`, or the text itself. */
  readonly name: string
}

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
  readonly hints: ReadonlyArray<KeyHint>
  readonly fault: UiError | undefined
  /** The layers that get keys right now, highest first, read when called (for `?`). */
  readonly layersNow: () => ReadonlyArray<LayerKeys>
}

const HubContext = createContext<Hub | undefined>(undefined)

export const keyName = (input: string, key: Key): string => {
  if (key.upArrow) return "up"
  if (key.downArrow) return "down"
  if (key.leftArrow) return "left"
  if (key.rightArrow) return "right"
  if (key.pageUp) return "pageup"
  if (key.pageDown) return "pagedown"
  if (key.home) return "home"
  if (key.end) return "end"
  if (key.return) return "enter"
  if (key.escape) return "escape"
  if (key.tab) return key.shift ? "shift+tab" : "tab"
  // Terminals send DEL (0x7f) for the backspace key; Ink calls it `delete`.
  if (key.backspace || key.delete) return "backspace"
  if (key.ctrl && input.length > 0) return `ctrl+${input}`
  return input
}

/** A key that types text into a field (not a named key, not a chord). */
export const isText = (press: Keypress): boolean =>
  press.input.length > 0 && press.name === press.input && !press.key.ctrl && !press.key.meta && !/[\u0000-\u001f\u007f]/.test(press.input)

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

  const onInput = useCallback((input: string, key: Key) => {
    const press: Keypress = { input, key, name: keyName(input, key) }
    if (press.name === "ctrl+c") return quit.current()
    setFault(undefined)
    const layers = receivers([...registrations.current.values()].sort(byPriority))
    // Keys typed faster than the terminal is read (or sent by a script) arrive as one chunk: unless
    // a text field takes them, each character is its own keypress, so "jjj" moves three rows.
    const presses =
      isText(press) && [...input].length > 1 && !layers.some((r) => r.text)
        ? [...input].map((c): Keypress => ({ input: c, key, name: c }))
        : [press]
    try {
      for (const p of presses) {
        for (const r of layers) {
          if (r.handler.current(p) || r.modal) break
        }
      }
    } catch (e) {
      setFault(fromUnknown(e))
    }
  }, [])
  useInput(onInput)

  const hints = useMemo(() => {
    return receivers([...registrations.current.values()].sort(byPriority)).flatMap((r) => r.hints)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version])

  const layersNow = useCallback(
    () => receivers([...registrations.current.values()].sort(byPriority)).map((r) => ({ priority: r.priority, hints: [...r.hints, ...r.help] })),
    []
  )
  const hub = useMemo(() => ({ register, hints, fault, layersNow }), [register, hints, fault, layersNow])
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
  /** The layer takes typed text (a field): a pasted chunk reaches it whole, not key by key. */
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

/** Reads the key layers under the caller when called: `?` lists them before it opens over them. */
export const useLayersNow = (): (() => ReadonlyArray<LayerKeys>) => useHub().layersNow

/** The hints of the layers that get keys right now, highest first, and the last handler fault. */
export function useKeyHints(): { readonly hints: ReadonlyArray<KeyHint>; readonly fault: UiError | undefined } {
  const { hints, fault } = useHub()
  return { hints, fault }
}
