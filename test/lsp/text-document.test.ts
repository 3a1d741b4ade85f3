/**
 * The server's documents (src/lsp/text-document.ts) answer as vscode-languageserver-textdocument
 * does after any sequence of edits: the same text, lines, offsets and positions, CR, LF and CRLF
 * line ends included (an edit may split or join a CRLF), and whole-text changes.
 */
import { TextDocument } from "vscode-languageserver-textdocument"
import { describe, expect, it } from "vitest"
import { PieceTextDocument } from "../../src/lsp/text-document.js"

/** A small deterministic generator (xorshift), so a failure replays. */
const random = (seed: number) => () => {
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return (seed >>> 0) / 0x1_0000_0000
}

const PARTS = ["a", "bc", "\n", "\r", "\r\n", "xyz\nq", "", "é", "\r\n\r\n", '{"k": 1}']

describe("the server's documents", () => {
  it("agree with vscode-languageserver-textdocument over thousands of random edits", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const next = random(seed * 7919)
      const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(next() * xs.length)]!
      const initial = Array.from({ length: 30 }, () => pick(PARTS)).join("")
      const expected = TextDocument.create("file:///x.json", "json", 1, initial)
      const actual = PieceTextDocument.create("file:///x.json", "json", 1, initial)
      for (let v = 2; v < 150; v++) {
        const text = expected.getText()
        // Queries past a line's end and past the last line too: both clamp them the same way.
        const pos = (lines = expected.lineCount + 1) => ({
          line: Math.floor(next() * lines),
          character: Math.floor(next() * 12)
        })
        // An edit's lines exist (as a client sends them); a second edit of the same change goes to the first line.
        const edit = (i: number) => ({
          range: { start: pos(i === 0 ? expected.lineCount : 1), end: pos(i === 0 ? expected.lineCount : 1) },
          text: Array.from({ length: Math.floor(next() * 3) }, () => pick(PARTS)).join("")
        })
        const changes =
          next() < 0.03
            ? [{ text: Array.from({ length: 10 }, () => pick(PARTS)).join("") }]
            : Array.from({ length: 1 + Math.floor(next() * 2) }, (_, i) => edit(i))
        TextDocument.update(expected, changes, v)
        PieceTextDocument.update(actual, changes, v)
        // Reads between edits sometimes, not always: the pieces must also hold up unjoined.
        if (next() < 0.3) expect(actual.getText()).toBe(expected.getText())
        expect(actual.version).toBe(v)
        for (let k = 0; k < 5; k++) {
          const p = pos()
          expect(actual.offsetAt(p)).toBe(expected.offsetAt(p))
          const offset = Math.floor(next() * (text.length + 3)) - 1
          expect(actual.positionAt(offset)).toEqual(expected.positionAt(offset))
          expect(actual.getLineRange(p.line)).toEqual(expected.getLineRange(p.line))
          expect(actual.getEOLCharacters(p.line)).toBe(expected.getEOLCharacters(p.line))
        }
        expect(actual.lineCount).toBe(expected.lineCount)
      }
      expect(actual.getText()).toBe(expected.getText())
      const range = { start: { line: 1, character: 2 }, end: { line: 3, character: 1 } }
      expect(actual.getText(range)).toBe(expected.getText(range))
    }
  })
})
