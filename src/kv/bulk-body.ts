/**
 * A bulk request body (a JSON array of entries or keys) read as its bytes arrive: each item is
 * parsed alone and handed over in order, so a 100 MB body is never one buffer, one string or one
 * tree. What is wrong with the body as a whole is found on the way and said once at the end, with
 * the precedence the platform's readers have: a syntax error or an item nested too deep (whichever
 * comes first), a value that is not an array, then too many items. The server words it (kv-body.ts).
 */
import { JsonMaxDepth } from "../domain/json-depth.js"
import { JsonArrayError, JsonArrayScanner, parseElement } from "./json-array.js"

export type BulkBodyFailure =
  /** Not JSON: what (the reader's words) and the byte offset. */
  | { readonly _tag: "NotJson"; readonly reason: string; readonly offset: number }
  /** A JSON value other than an array ("an object", "null"). */
  | { readonly _tag: "NotArray"; readonly got: string }
  /** Arrays and objects nested deeper than JsonMaxDepth (the body's array is one level). */
  | { readonly _tag: "TooDeep" }
  /** More items than the request may hold: how many there are. */
  | { readonly _tag: "TooMany"; readonly count: number }

const notJson = (e: JsonArrayError): BulkBodyFailure => ({
  _tag: "NotJson",
  reason: e.message.replace(/^(invalid JSON|not JSON): /, ""),
  offset: e.offset
})

export class BulkBodyReader {
  private failure: BulkBodyFailure | undefined
  private readonly scanner: JsonArrayScanner

  /** `onItem` gets the first `maxItems` items (and none after a failure); the others are only counted. */
  constructor(
    private readonly maxItems: number,
    onItem: (item: unknown, index: number) => void
  ) {
    this.scanner = new JsonArrayScanner(
      (text, index, offset, depth) => {
        if (this.failure !== undefined) return
        // The scanner measured the nesting on its way (a second pass over 100 MB costs ~0.8 s).
        if (depth > JsonMaxDepth - 1) {
          this.failure = { _tag: "TooDeep" }
          return
        }
        let item: unknown
        try {
          item = parseElement(text, offset)
        } catch (e) {
          if (!(e instanceof JsonArrayError)) throw e
          this.failure = notJson(e)
          return
        }
        if (index < this.maxItems) onItem(item, index)
      },
      { what: "the request body", byteOrderMark: false }
    )
  }

  /** Whether an item can still be handed over (no failure so far). */
  get ok(): boolean {
    return this.failure === undefined
  }

  get count(): number {
    return this.scanner.elements
  }

  /** The next bytes; after a failure they are ignored (the body is still read to its end by the caller). */
  push(chunk: Uint8Array): void {
    if (this.failure !== undefined) return
    this.guard(() => this.scanner.push(chunk))
  }

  /** The end of the body: what is wrong with it as a whole, if anything. */
  end(): BulkBodyFailure | undefined {
    if (this.failure === undefined) this.guard(() => this.scanner.end())
    if (this.failure !== undefined) return this.failure
    if (this.count > this.maxItems) return { _tag: "TooMany", count: this.count }
    return undefined
  }

  private guard(f: () => void) {
    try {
      f()
    } catch (e) {
      if (!(e instanceof JsonArrayError)) throw e
      this.failure = e.got !== undefined ? { _tag: "NotArray", got: e.got } : notJson(e)
    }
  }
}
