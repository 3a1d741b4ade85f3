import { describe, expect, it } from "vitest"
import { decodeKeys, pastePress } from "../../tui/key-decoder.js"
import { editLine, emptyLine, lineBreaks, lineOf, lineWindow, type Line } from "../../tui/line-editor.js"

/** The line after the keys in `chunk`, applied one by one; `|` in the result marks the cursor. */
const typeInto = (start: Line, chunk: string): string => {
  let line = start
  for (const press of decodeKeys(chunk)) line = editLine(line, press) ?? line
  const chars = [...line.text]
  return [...chars.slice(0, line.cursor), "|", ...chars.slice(line.cursor)].join("")
}
const at = (marked: string): Line => ({ text: marked.replace("|", ""), cursor: [...marked.split("|")[0]!].length })

const Left = "\u001b[D"
const Right = "\u001b[C"
const Home = "\u001b[H"
const End = "\u001b[F"
const Delete = "\u001b[3~"

describe("editLine", () => {
  it("inserts typed and pasted text at the cursor", () => {
    expect(typeInto(emptyLine, "abc")).toBe("abc|")
    expect(typeInto(at("ac|"), `${Left}b`)).toBe("ab|c")
    expect(typeInto(at("|world"), "hello ")).toBe("hello |world")
  })

  it("a paste keeps its line ends in a multi-line field, and a one-line field joins its lines with spaces", () => {
    const paste = pastePress("DELETE FROM t\r\nWHERE\ta = 1\r")
    expect(editLine(at("x|y"), paste, "keep")).toEqual(at("xDELETE FROM t\nWHERE\ta = 1\n|y"))
    expect(editLine(at("x|y"), paste)).toEqual(at("xDELETE FROM t WHERE a = 1|y"))
    expect(lineBreaks("a\nb\tc")).toBe("a⏎b⇥c")
  })

  it("moves with ←→, Home/End, ctrl+a/e and ctrl+b/f, and stops at the ends", () => {
    expect(typeInto(at("abc|"), Left + Left)).toBe("a|bc")
    expect(typeInto(at("a|bc"), Right)).toBe("ab|c")
    expect(typeInto(at("abc|"), Right)).toBe("abc|")
    expect(typeInto(at("|abc"), Left)).toBe("|abc")
    expect(typeInto(at("ab|c"), Home)).toBe("|abc")
    expect(typeInto(at("a|bc"), End)).toBe("abc|")
    expect(typeInto(at("ab|c"), "\u0001")).toBe("|abc")
    expect(typeInto(at("a|bc"), "\u0005")).toBe("abc|")
    expect(typeInto(at("ab|c"), "\u0002\u0002\u0006")).toBe("a|bc")
  })

  it("Backspace deletes before the cursor, Delete and ctrl+d after it", () => {
    expect(typeInto(at("ab|c"), "\u007f")).toBe("a|c")
    expect(typeInto(at("|abc"), "\u007f")).toBe("|abc")
    expect(typeInto(at("ab|c"), Delete)).toBe("ab|")
    expect(typeInto(at("abc|"), Delete)).toBe("abc|")
    expect(typeInto(at("a|bc"), "\u0004")).toBe("a|c")
  })

  it("ctrl+u deletes to the start, ctrl+k to the end", () => {
    expect(typeInto(at("abc|def"), "\u0015")).toBe("|def")
    expect(typeInto(at("abc|def"), "\u000b")).toBe("abc|")
  })

  it("ctrl+w deletes the whitespace-delimited word before the cursor", () => {
    expect(typeInto(at("ip.src eq 1.2.3.4|"), "\u0017")).toBe("ip.src eq |")
    expect(typeInto(at("ip.src eq  |x"), "\u0017")).toBe("ip.src |x")
    expect(typeInto(at("|abc"), "\u0017")).toBe("|abc")
  })

  it("alt+b/f and ctrl+←/→ move by words, alt+backspace and alt+d delete one", () => {
    expect(typeInto(at("http.request.uri|"), "\u001bb")).toBe("http.request.|uri")
    expect(typeInto(at("http.request.uri|"), "\u001b[1;5D\u001b[1;5D")).toBe("http.|request.uri")
    expect(typeInto(at("|http.request"), "\u001bf")).toBe("http|.request")
    expect(typeInto(at("http|.request"), "\u001b[1;5C")).toBe("http.request|")
    expect(typeInto(at("http.request|"), "\u001b\u007f")).toBe("http.|")
    expect(typeInto(at("http|.request"), "\u001bd")).toBe("http|")
  })

  it("counts an emoji or an accented letter as one step", () => {
    expect(typeInto(at("a😀é|"), `${Left}\u007f`)).toBe("a|é")
  })

  it("leaves enter, esc, tab and ↑↓ to the field", () => {
    for (const key of ["\r", "\u001b", "\t", "\u001b[A"])
      expect(editLine(lineOf("x"), decodeKeys(key)[0]!)).toBeUndefined()
  })

  it("an edit in the middle, as a user makes it: Left, Home, ctrl+w, Delete", () => {
    expect(typeInto(emptyLine, `acme.cm${Left}o${Home}${Delete}A${End} zz\u0017\u007f`)).toBe("Acme.com|")
  })
})

describe("lineWindow", () => {
  const drawn = (line: Line, width: number, shown?: string) => {
    const w = lineWindow(line, width, shown)
    return `${w.before}[${w.at}]${w.after}`
  }

  it("draws a short line whole, with the cursor cell at the end or on a character", () => {
    expect(drawn(lineOf("abc"), 10)).toBe("abc[ ]")
    expect(drawn({ text: "abc", cursor: 1 }, 10)).toBe("a[b]c")
  })

  it("keeps the cursor in view in a field narrower than the text, marking cut ends with …", () => {
    const text = "abcdefghijklmnopqrstuvwxyz"
    expect(drawn(lineOf(text), 8)).toBe("…uvwxyz[ ]")
    expect(drawn({ text, cursor: 0 }, 8)).toBe("[a]bcdefg…")
    expect(drawn({ text, cursor: 13 }, 8)).toBe("…klm[n]op…")
    for (let cursor = 0; cursor <= text.length; cursor++) {
      const w = lineWindow({ text, cursor }, 8)
      expect([...`${w.before}${w.at}${w.after}`].length).toBeLessThanOrEqual(8)
      expect(w.at).toBe(text[cursor] ?? " ")
    }
  })

  it("draws a secret as bullets with the cursor where it is", () => {
    expect(drawn({ text: "hunter2", cursor: 3 }, 20, "•••••••")).toBe("•••[•]•••")
  })

  it("puts the cursor at the end when what is drawn is not one cell per character", () => {
    expect(drawn({ text: "abc", cursor: 1 }, 20, "(3 chars)")).toBe("(3 chars)[ ]")
  })
})
