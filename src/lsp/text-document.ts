/**
 * The server's open documents: vscode-languageserver-textdocument's algorithm (the same offsets,
 * line offsets and CRLF handling) over a piece list, so that a keystroke does not copy the file.
 *
 * The library splices the new text into its string and then reads the characters around the
 * edit, which makes V8 flatten the whole concatenation: on an 8 MB file, 5 ms a keystroke, 100 ms
 * of a 20-key burst, for versions that a debounced check never reads. Here an edit replaces a span
 * of the piece list (slices of a flat string cost nothing) and the characters around it are read
 * from the pieces; the text is joined once, when a check or a request asks for it.
 */
import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from "vscode-languageserver-textdocument"

const CR = 13
const LF = 10
const isEOL = (c: number) => c === CR || c === LF

/** Offsets where the lines of `text` start, shifted by `at` (the first line's only when `atLineStart`). */
const lineOffsetsOf = (text: string, atLineStart: boolean, at = 0): Array<number> => {
  const out = atLineStart ? [at] : []
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (isEOL(c)) {
      if (c === CR && i + 1 < text.length && text.charCodeAt(i + 1) === LF) i++
      out.push(at + i + 1)
    }
  }
  return out
}

const wellFormed = (r: Range): Range => {
  const { start, end } = r
  return start.line > end.line || (start.line === end.line && start.character > end.character)
    ? { start: end, end: start }
    : r
}

/** Pieces kept before they are joined: an edit and a character read walk them. */
const MAX_PIECES = 64

class PieceDocument implements TextDocument {
  private pieces: Array<string>
  private size: number
  private lineStarts: Array<number> | undefined = undefined

  constructor(
    readonly uri: string,
    readonly languageId: string,
    public version: number,
    content: string
  ) {
    this.pieces = [content]
    this.size = content.length
  }

  private content(): string {
    if (this.pieces.length !== 1) this.pieces = [this.pieces.join("")]
    return this.pieces[0]!
  }

  /** The character code at `offset` (NaN outside the text, as `String#charCodeAt`). */
  private codeAt(offset: number): number {
    if (offset < 0 || offset >= this.size) return NaN
    for (const p of this.pieces) {
      if (offset < p.length) return p.charCodeAt(offset)
      offset -= p.length
    }
    return NaN
  }

  /** Replaces `[start, end)` of the text with `text`. */
  private splice(start: number, end: number, text: string) {
    const out: Array<string> = []
    let at = 0
    let placed = false
    for (const p of this.pieces) {
      const from = at
      const to = at + p.length
      at = to
      if (to <= start) {
        if (p !== "") out.push(p)
        continue
      }
      if (from < start) out.push(p.slice(0, start - from))
      if (!placed) {
        if (text !== "") out.push(text)
        placed = true
      }
      if (to > end) out.push(from >= end ? p : p.slice(end - from))
    }
    if (!placed && text !== "") out.push(text)
    this.pieces = out.length === 0 ? [""] : out
    this.size += text.length - (end - start)
    if (this.pieces.length > MAX_PIECES) this.content()
  }

  getText(range?: Range): string {
    const content = this.content()
    return range === undefined ? content : content.substring(this.offsetAt(range.start), this.offsetAt(range.end))
  }

  private lineOffsets(): Array<number> {
    this.lineStarts ??= lineOffsetsOf(this.content(), true)
    return this.lineStarts
  }

  private beforeEOL(offset: number, lineOffset: number): number {
    while (offset > lineOffset && isEOL(this.codeAt(offset - 1))) offset--
    return offset
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.size), 0)
    const lines = this.lineOffsets()
    let low = 0
    let high = lines.length
    if (high === 0) return { line: 0, character: offset }
    while (low < high) {
      const mid = Math.floor((low + high) / 2)
      if (lines[mid]! > offset) high = mid
      else low = mid + 1
    }
    const line = low - 1
    offset = this.beforeEOL(offset, lines[line]!)
    return { line, character: offset - lines[line]! }
  }

  offsetAt(position: Position): number {
    const lines = this.lineOffsets()
    if (position.line >= lines.length) return this.size
    if (position.line < 0) return 0
    const lineOffset = lines[position.line]!
    if (position.character <= 0) return lineOffset
    const next = position.line + 1 < lines.length ? lines[position.line + 1]! : this.size
    return this.beforeEOL(Math.min(lineOffset + position.character, next), lineOffset)
  }

  getLineRange(line: number): Range {
    const lines = this.lineOffsets()
    if (line >= lines.length) {
      const last = lines.length - 1
      return { start: { line: last, character: 0 }, end: { line: last, character: this.size - lines[last]! } }
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }
    const start = lines[line]!
    const next = line + 1 < lines.length ? lines[line + 1]! : this.size
    return { start: { line, character: 0 }, end: { line, character: this.beforeEOL(next, start) - start } }
  }

  getEOLCharacters(line: number): string {
    const lines = this.lineOffsets()
    if (line >= lines.length || line < 0) return ""
    const next = line + 1 < lines.length ? lines[line + 1]! : this.size
    return this.content().substring(this.beforeEOL(next, lines[line]!), next)
  }

  get lineCount(): number {
    return this.lineOffsets().length
  }

  update(changes: ReadonlyArray<TextDocumentContentChangeEvent>, version: number) {
    for (const change of changes) {
      if (!("range" in change) || change.range === undefined) {
        this.pieces = [change.text]
        this.size = change.text.length
        this.lineStarts = undefined
        continue
      }
      const range = wellFormed(change.range)
      const start = this.offsetAt(range.start)
      const end = this.offsetAt(range.end)
      this.splice(start, end, change.text)
      const insertedEnd = start + change.text.length
      const crlfAtStart = this.codeAt(start - 1) === CR && this.codeAt(start) === LF
      const crlfAtEnd = this.codeAt(insertedEnd - 1) === CR && this.codeAt(insertedEnd) === LF
      if (crlfAtStart || crlfAtEnd || this.lineStarts === undefined) {
        this.lineStarts = undefined
        continue
      }
      const startLine = Math.max(range.start.line, 0)
      const endLine = Math.max(range.end.line, 0)
      let lines = this.lineStarts
      const added = lineOffsetsOf(change.text, false, start)
      if (endLine - startLine === added.length) {
        for (let i = 0; i < added.length; i++) lines[i + startLine + 1] = added[i]!
      } else if (added.length < 10_000) {
        lines.splice(startLine + 1, endLine - startLine, ...added)
      } else {
        this.lineStarts = lines = lines.slice(0, startLine + 1).concat(added, lines.slice(endLine + 1))
      }
      const diff = change.text.length - (end - start)
      if (diff !== 0) for (let i = startLine + 1 + added.length; i < lines.length; i++) lines[i] = lines[i]! + diff
    }
    this.version = version
  }
}

/** What `new TextDocuments(...)` takes: documents that apply a keystroke without copying the file. */
export const PieceTextDocument = {
  create: (uri: string, languageId: string, version: number, content: string): TextDocument =>
    new PieceDocument(uri, languageId, version, content),
  update: (document: TextDocument, changes: Array<TextDocumentContentChangeEvent>, version: number): TextDocument => {
    if (!(document instanceof PieceDocument)) throw new Error("PieceTextDocument.update: not a PieceTextDocument")
    document.update(changes, version)
    return document
  }
}
