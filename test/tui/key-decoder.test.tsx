import { describe, expect, it } from "vitest"
import { decodeKeys, InputReader, isText } from "../../tui/key-decoder.js"

const names = (chunk: string) => decodeKeys(chunk).map((p) => p.name)

describe("decodeKeys", () => {
  it("makes each byte of a plain run its own key, control bytes included", () => {
    expect(names("abc\r")).toEqual(["a", "b", "c", "enter"])
    expect(names("\u007f\u007f\u007f")).toEqual(["backspace", "backspace", "backspace"])
    expect(names(":acme.com\r")).toEqual([":", "a", "c", "m", "e", ".", "c", "o", "m", "enter"])
    expect(names("a\bb\tc\nd")).toEqual(["a", "backspace", "b", "tab", "c", "enter", "d"])
  })

  it("names C0 bytes ctrl+<letter>, and keeps ctrl+c", () => {
    expect(names("\u0001\u0005\u0015\u000b\u0017\u0003")).toEqual([
      "ctrl+a",
      "ctrl+e",
      "ctrl+u",
      "ctrl+k",
      "ctrl+w",
      "ctrl+c"
    ])
    const ctrlA = decodeKeys("\u0001")[0]!
    expect(ctrlA.key.ctrl).toBe(true)
    expect(isText(ctrlA)).toBe(false)
  })

  it("reads CR LF as one line end", () => {
    expect(names("x\r\ny")).toEqual(["x", "enter", "y"])
  })

  it("tells forward Delete from Backspace", () => {
    expect(names("\u001b[3~\u007f")).toEqual(["delete", "backspace"])
    expect(decodeKeys("\u001b[3~")[0]!.key.delete).toBe(true)
    expect(decodeKeys("\u007f")[0]!.key.backspace).toBe(true)
  })

  it("reads every Home and End variant, arrows, pages and shift+tab", () => {
    expect(names("\u001b[H\u001b[1~\u001bOH\u001b[7~")).toEqual(["home", "home", "home", "home"])
    expect(names("\u001b[F\u001b[4~\u001bOF\u001b[8~")).toEqual(["end", "end", "end", "end"])
    expect(names("\u001b[A\u001b[B\u001b[C\u001b[D\u001bOA\u001bOD")).toEqual([
      "up",
      "down",
      "right",
      "left",
      "up",
      "left"
    ])
    expect(names("\u001b[5~\u001b[6~\u001b[Z")).toEqual(["pageup", "pagedown", "shift+tab"])
  })

  it("reads modifiers: ctrl and alt arrows, alt+letter, alt+backspace", () => {
    expect(names("\u001b[1;5D\u001b[1;5C\u001b[1;3D\u001b\u001b[C")).toEqual([
      "ctrl+left",
      "ctrl+right",
      "alt+left",
      "alt+right"
    ])
    expect(names("\u001bb\u001bf\u001bd\u001b\u007f")).toEqual(["alt+b", "alt+f", "alt+d", "alt+backspace"])
    expect(decodeKeys("\u001bb")[0]!.key.meta).toBe(true)
    // Shift alone keeps the plain name, so shift+↓ still moves.
    expect(names("\u001b[1;2B")).toEqual(["down"])
  })

  it("reads a lone escape, and escape before a control byte as two keys", () => {
    expect(names("\u001b")).toEqual(["escape"])
    expect(names("\u001b\u001b")).toEqual(["escape", "escape"])
    expect(names("\u001b\r")).toEqual(["alt+enter"])
    expect(names("\u001b\u0001")).toEqual(["escape", "ctrl+a"])
  })

  it("keeps text and keys in order when they are mixed in one read", () => {
    expect(names("ab\u001b[Dc\u001b[3~\r")).toEqual(["a", "b", "left", "c", "delete", "enter"])
  })

  it("keeps astral and accented characters whole", () => {
    expect(names("é😀x")).toEqual(["é", "😀", "x"])
    expect(decodeKeys("😀").every(isText)).toBe(true)
  })

  it("drops sequences for keys nothing binds, and never types them as text", () => {
    expect(names("a\u001b[15~b\u001b[200~c\u001b[201~\u001bOP")).toEqual(["a", "b", "c"])
  })
})

describe("InputReader", () => {
  const read = (...chunks: ReadonlyArray<string>) => {
    const reader = new InputReader()
    return chunks.flatMap((c) => reader.read(c)).map((p) => (p.name === "paste" ? `paste:${p.input}` : p.name))
  }

  it("makes a bracketed paste one press of text, its line ends as \\n, keys around it as keys", () => {
    expect(read("j\u001b[200~DELETE FROM t\rWHERE a = 1\u001b[201~k")).toEqual([
      "j",
      "paste:DELETE FROM t\nWHERE a = 1",
      "k"
    ])
    expect(read("\u001b[200~a\r\nb\u0007\u001b[Ac\u001b[201~")).toEqual(["paste:a\nb[Ac"])
  })

  it("keeps a bracketed paste whole across reads", () => {
    expect(read("\u001b[200~first line\r", "second ", "day\u001b[201~", "q")).toEqual([
      "paste:first line\nsecond day",
      "q"
    ])
  })

  it("ends a paste whose end marker never came at a ctrl+c or esc read alone, dropping it", () => {
    expect(read("\u001b[200~half a paste", "\u0003")).toEqual(["ctrl+c"])
    expect(read("\u001b[200~half a paste", "\u001b", "j")).toEqual(["escape", "j"])
  })

  it("takes an unmarked read with a line end followed by more text as a paste that keeps its keys", () => {
    const [p, ...rest] = new InputReader().read("DELETE FROM t\rWHERE a = 1")
    expect(rest).toEqual([])
    expect(p!.name).toBe("paste")
    expect(p!.input).toBe("DELETE FROM t\nWHERE a = 1")
    expect(p!.keys!.map((k) => k.name)).toEqual(names("DELETE FROM t\rWHERE a = 1"))
  })

  it("leaves typed keys as keys: an enter alone or ending its read, and reads with escapes or control keys", () => {
    expect(read("abc\r")).toEqual(["a", "b", "c", "enter"])
    expect(read("\r")).toEqual(["enter"])
    expect(read("\r\r\r")).toEqual(["enter", "enter", "enter"])
    expect(read("\u0015edited\rj")).toEqual(["ctrl+u", "e", "d", "i", "t", "e", "d", "enter", "j"])
    expect(read("\u001b[Bx\ry")).toEqual(["down", "x", "enter", "y"])
  })
})
