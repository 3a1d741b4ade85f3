/**
 * Turns what the terminal sent in one read into the keypresses it stands for, in order. A read can
 * hold many keys (a paste, a held key, a laggy link): Ink hands a run of plain bytes to its input
 * hook as one event and names both DEL and `ESC [3~` "delete", so the hub decodes the raw bytes
 * itself. Each codepoint of a plain run is its own key; escape sequences are read as xterm, rxvt
 * and the Linux console send them. Sequences for keys the TUI never binds (F-keys, focus reports,
 * bracketed-paste markers) are dropped rather than typed as text.
 */
import type { Key } from "ink"

export interface Keypress {
  /** The text typed (several characters for a paste delivered as one press); empty for named keys. */
  readonly input: string
  readonly key: Key
  /** `up`, `down`, `left`, `right`, `pageup`, `pagedown`, `home`, `end`, `enter`, `escape`, `tab`,
   *  `shift+tab`, `backspace`, `delete` (forward), `ctrl+<x>`, `alt+<x>`, `ctrl+left`…, or the text. */
  readonly name: string
}

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false
}

const press = (name: string, key: Partial<Key> = {}, input = ""): Keypress => ({
  input,
  name,
  key: { ...noKey, ...key }
})

/** A press that types `text` (one character, or a paste joined by the hub). */
export const textPress = (text: string): Keypress => press(text, { shift: /^[A-Z]$/.test(text) }, text)

/** A key that types text into a field (not a named key, not a chord). */
export const isText = (p: Keypress): boolean =>
  p.input.length > 0 && p.name === p.input && !p.key.ctrl && !p.key.meta && !/[\u0000-\u001f\u007f]/.test(p.input)

const Named: Record<string, Partial<Key>> = {
  up: { upArrow: true },
  down: { downArrow: true },
  left: { leftArrow: true },
  right: { rightArrow: true },
  pageup: { pageUp: true },
  pagedown: { pageDown: true },
  home: { home: true },
  end: { end: true },
  enter: { return: true },
  escape: { escape: true, meta: true },
  tab: { tab: true },
  "shift+tab": { tab: true, shift: true },
  backspace: { backspace: true },
  delete: { delete: true }
}

const named = (name: string, alt = false, ctrl = false, shift = false): Keypress => {
  const prefix = ctrl ? "ctrl+" : alt ? "alt+" : ""
  return press(`${prefix}${name}`, {
    ...Named[name],
    ...(alt ? { meta: true } : {}),
    ...(ctrl ? { ctrl: true } : {}),
    ...(shift ? { shift: true } : {})
  })
}

/** A control byte (below 0x20, or DEL) on its own. */
const control = (code: number): Keypress => {
  if (code === 0x0d || code === 0x0a) return named("enter")
  if (code === 0x09) return named("tab")
  if (code === 0x7f || code === 0x08) return named("backspace")
  if (code === 0x00) return press("ctrl+space", { ctrl: true }, " ")
  const letter = code <= 0x1a ? String.fromCharCode(code + 0x60) : "\\]^_"[code - 0x1c]!
  return press(`ctrl+${letter}`, { ctrl: true }, letter)
}

const Final: Record<string, string> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end" }
const Tilde: Record<string, string> = {
  "1": "home",
  "7": "home",
  "4": "end",
  "8": "end",
  "3": "delete",
  "5": "pageup",
  "6": "pagedown"
}

/** A CSI or SS3 sequence's key, with xterm's modifier parameter (2 shift, 3 alt, 5 ctrl, …). */
const sequenceKey = (params: string, final: string, alt: boolean): Keypress | undefined => {
  const [first = "", mods = "1"] = params.split(";")
  const m = Math.max(0, Number.parseInt(mods, 10) - 1) || 0
  const shift = (m & 1) !== 0
  const withAlt = alt || (m & 2) !== 0
  const ctrl = (m & 4) !== 0
  if (final === "Z") return named("shift+tab")
  const name = final === "~" ? Tilde[first] : Final[final]
  return name === undefined ? undefined : named(name, withAlt, ctrl, shift)
}

/** Reads the escape sequence at `i` (which holds ESC): the press (if any) and where the next key starts. */
const escapeAt = (
  s: string,
  i: number,
  alt = false
): { readonly press: Keypress | undefined; readonly next: number } => {
  const kind = s[i + 1]
  if (kind === "[") {
    let j = i + 2
    // The Linux console's F-keys: ESC [ [ A.
    if (s[j] === "[") j++
    const start = j
    while (j < s.length && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x3f) j++
    if (j >= s.length || s.charCodeAt(j) < 0x40 || s.charCodeAt(j) > 0x7e) return { press: undefined, next: j }
    return { press: sequenceKey(s.slice(start, j), s[j]!, alt), next: j + 1 }
  }
  if (kind === "O" && i + 2 < s.length) return { press: sequenceKey("", s[i + 2]!, alt), next: i + 3 }
  if (kind === "\u001b" && !alt && (s[i + 2] === "[" || s[i + 2] === "O")) return escapeAt(s, i + 1, true)
  if (kind === undefined || kind === "\u001b") return { press: named("escape"), next: i + 1 }
  const code = kind.codePointAt(0)!
  const width = code > 0xffff ? 2 : 1
  if (code === 0x7f || code === 0x08) return { press: named("backspace", true), next: i + 2 }
  if (code === 0x0d) return { press: named("enter", true), next: i + 2 }
  // ESC before another control byte is the escape key, then that key.
  if (code < 0x20) return { press: named("escape"), next: i + 1 }
  const ch = s.slice(i + 1, i + 1 + width)
  return { press: press(`alt+${ch}`, { meta: true }, ch), next: i + 1 + width }
}

/** The keypresses in `chunk`, in the order they were typed. */
export const decodeKeys = (chunk: string): ReadonlyArray<Keypress> => {
  const out: Array<Keypress> = []
  let i = 0
  while (i < chunk.length) {
    const code = chunk.codePointAt(i)!
    if (code === 0x1b) {
      const { press: p, next } = escapeAt(chunk, i)
      if (p !== undefined) out.push(p)
      i = next
    } else if (code < 0x20 || code === 0x7f) {
      out.push(control(code))
      // CR LF is one line end, so a pasted Windows line does not press enter twice.
      i += code === 0x0d && chunk[i + 1] === "\n" ? 2 : 1
    } else {
      const ch = String.fromCodePoint(code)
      out.push(textPress(ch))
      i += ch.length
    }
  }
  return out
}
