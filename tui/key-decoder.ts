/**
 * Turns what the terminal sent in one read into the keypresses it stands for, in order. A read can
 * hold many keys (a paste, a held key, a laggy link): Ink hands a run of plain bytes to its input
 * hook as one event and names both DEL and `ESC [3~` "delete", so the hub decodes the raw bytes
 * itself. Each codepoint of a plain run is its own key; escape sequences are read as xterm, rxvt
 * and the Linux console send them. Sequences for keys the TUI never binds (F-keys, focus reports)
 * are dropped rather than typed as text.
 *
 * A paste is text, never keys: the TUI turns on bracketed paste (tui/app.tsx), so the terminal wraps
 * a paste in `ESC [200~ … ESC [201~`, which becomes one `paste` press (across reads, for a long
 * paste). A terminal without bracketed paste sends a paste as one read: a read of plain text with a
 * line end followed by more text (a typed enter comes alone or ends its read) becomes a `paste`
 * press too, which keeps its keys, so a screen that takes no text still gets them one by one.
 */
import type { Key } from "ink"

export interface Keypress {
  /** The text typed (several characters for a paste delivered as one press); empty for named keys. */
  readonly input: string
  readonly key: Key
  /** `up`, `down`, `left`, `right`, `pageup`, `pagedown`, `home`, `end`, `enter`, `escape`, `tab`,
   *  `shift+tab`, `backspace`, `delete` (forward), `ctrl+<x>`, `alt+<x>`, `ctrl+left`…, or the text. */
  readonly name: string
  /** A paste read without bracketed-paste markers: the keys it stands for if no field takes it. */
  readonly keys?: ReadonlyArray<Keypress>
  /** Set by the hub on a paste: whether a field is there to take it (else it is ignored). */
  readonly toText?: boolean
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

/** Pasted text with its line ends as `\n` and no control bytes other than line ends and tabs. */
const pastedText = (raw: string): string =>
  raw.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")

/** A press that pastes `text` into the field that has the keys. */
export const pastePress = (text: string, keys?: ReadonlyArray<Keypress>): Keypress => ({
  input: pastedText(text),
  name: "paste",
  key: noKey,
  ...(keys !== undefined ? { keys } : {})
})

const PasteStart = "\u001b[200~"
const PasteEnd = "\u001b[201~"

/** A read of plain text (tabs and line ends aside) with a line end followed by more text. */
const looksPasted = (chunk: string): boolean =>
  /[\r\n][^\r\n]/.test(chunk) && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(chunk)

/** Reads the terminal's input one read at a time; a bracketed paste may span reads. */
export class InputReader {
  /** The text of a bracketed paste whose end marker has not come yet. */
  private pasting: string | undefined = undefined

  read(chunk: string): ReadonlyArray<Keypress> {
    const out: Array<Keypress> = []
    let rest = chunk
    while (rest.length > 0) {
      if (this.pasting !== undefined) {
        // A paste whose end never comes (a terminal that lost it) must not take every key after
        // it: ctrl+c or esc alone in a read ends it, dropped, and acts.
        if (rest === "\u0003" || rest === "\u001b") {
          this.pasting = undefined
          return [...out, ...decodeKeys(rest)]
        }
        const end = rest.indexOf(PasteEnd)
        if (end === -1) {
          this.pasting += rest
          return out
        }
        out.push(pastePress(this.pasting + rest.slice(0, end)))
        this.pasting = undefined
        rest = rest.slice(end + PasteEnd.length)
        continue
      }
      const start = rest.indexOf(PasteStart)
      const before = start === -1 ? rest : rest.slice(0, start)
      if (looksPasted(before)) out.push(pastePress(before, decodeKeys(before)))
      else out.push(...decodeKeys(before))
      if (start === -1) return out
      this.pasting = ""
      rest = rest.slice(start + PasteStart.length)
    }
    return out
  }
}
