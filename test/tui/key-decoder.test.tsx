import { describe, expect, it } from "vitest"
import { decodeKeys, isText } from "../../tui/key-decoder.js"

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
