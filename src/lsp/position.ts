/** Offsets and line/character positions (0-based, UTF-16) of a text, with the line starts computed once. */
export class LineIndex {
  private readonly starts: Array<number>
  constructor(readonly text: string) {
    this.starts = [0]
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1)
  }
  position(offset: number): { line: number; character: number } {
    const at = Math.max(0, Math.min(offset, this.text.length))
    let lo = 0
    let hi = this.starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.starts[mid]! <= at) lo = mid
      else hi = mid - 1
    }
    return { line: lo, character: at - this.starts[lo]! }
  }
  offset(p: { line: number; character: number }): number {
    if (p.line >= this.starts.length) return this.text.length
    const start = this.starts[Math.max(0, p.line)]!
    const next = p.line + 1 < this.starts.length ? this.starts[p.line + 1]! - 1 : this.text.length
    return Math.min(start + Math.max(0, p.character), next)
  }
  /** The text of a line, without its line break. */
  line(n: number): string {
    const start = this.starts[n] ?? this.text.length
    const end = n + 1 < this.starts.length ? this.starts[n + 1]! - 1 : this.text.length
    return this.text.slice(start, end).replace(/\r$/, "")
  }
}
