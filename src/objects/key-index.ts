// Every key of an object's `_cf_KV` table in UTF-8 order, kept in memory beside the value cache
// while the cache holds the whole table, so that list() needs no SQLite at all. Keys are kept in
// blocks of at most BLOCK, so that an insert or a removal moves at most a block of entries.
import { compareUtf8 } from "./key-order.js"

const BLOCK = 512

export interface Bounds {
  readonly lower?: string
  // The lower bound excludes itself (startAfter).
  readonly lowerStrict?: boolean
  // Exclusive.
  readonly upper?: string
  readonly reverse?: boolean
  readonly limit?: number
}

// A UTF-16 unit at or above U+D800: a surrogate, or a unit that sorts below surrogates in UTF-8.
const HIGH = /[\uD800-\uFFFF]/

export class KeyIndex {
  // Never empty; a block is empty only when it is the only one.
  private blocks: Array<Array<string>> = [[]]
  private count = 0
  // While no key has a HIGH unit, JavaScript's own string comparison is UTF-8 order, whatever the
  // other string: at the first unit that differs, the key's is below U+D800 and so compares the
  // same way in both orders.
  private plain = true

  static fromSorted(keys: ReadonlyArray<string>): KeyIndex {
    const index = new KeyIndex()
    if (keys.length === 0) return index
    index.blocks = []
    for (let i = 0; i < keys.length; i += BLOCK) index.blocks.push(keys.slice(i, i + BLOCK))
    index.count = keys.length
    index.plain = !keys.some((k) => HIGH.test(k))
    return index
  }

  private compare(a: string, b: string): number {
    if (!this.plain) return compareUtf8(a, b)
    return a < b ? -1 : a === b ? 0 : 1
  }

  get size(): number {
    return this.count
  }

  // The block that holds `key` or would: the first whose last key is >= key, else the last.
  private block(key: string): number {
    const blocks = this.blocks
    let lo = 0
    let hi = blocks.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const b = blocks[mid]!
      if (this.compare(b[b.length - 1]!, key) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  // In `keys`, the first position whose key is >= key (> key when strict).
  private search(keys: ReadonlyArray<string>, key: string, strict: boolean): number {
    let lo = 0
    let hi = keys.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const c = this.compare(keys[mid]!, key)
      if (c < 0 || (strict && c === 0)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  // Returns false when the key was there already.
  insert(key: string): boolean {
    if (this.plain && HIGH.test(key)) this.plain = false
    // Keys written in order (the common case) go at the end, after one comparison.
    const tail = this.blocks[this.blocks.length - 1]!
    if (tail.length === 0 || this.compare(tail[tail.length - 1]!, key) < 0) {
      tail.push(key)
      this.count++
      if (tail.length > 2 * BLOCK) this.blocks.push(tail.splice(BLOCK))
      return true
    }
    const bi = this.block(key)
    const b = this.blocks[bi]!
    const i = this.search(b, key, false)
    if (i < b.length && b[i] === key) return false
    b.splice(i, 0, key)
    this.count++
    if (b.length > 2 * BLOCK) this.blocks.splice(bi + 1, 0, b.splice(BLOCK))
    return true
  }

  // Returns false when the key was not there.
  remove(key: string): boolean {
    const bi = this.block(key)
    const b = this.blocks[bi]!
    const i = this.search(b, key, false)
    if (i >= b.length || b[i] !== key) return false
    b.splice(i, 1)
    this.count--
    if (b.length === 0 && this.blocks.length > 1) this.blocks.splice(bi, 1)
    return true
  }

  // [block, offset] of the first key at or after `key` (after it when strict).
  private position(key: string, strict: boolean): [number, number] {
    let bi = this.block(key)
    let i = this.search(this.blocks[bi]!, key, strict)
    // Past the end of a block: the next block's start.
    if (i === this.blocks[bi]!.length && bi < this.blocks.length - 1) {
      bi++
      i = 0
    }
    return [bi, i]
  }

  // The keys within the bounds, in order (or reversed), at most `limit` of them.
  range(o: Bounds): Array<string> {
    const [lb, li] = o.lower === undefined ? [0, 0] : this.position(o.lower, o.lowerStrict === true)
    const last = this.blocks.length - 1
    const [ub, ui] = o.upper === undefined ? [last, this.blocks[last]!.length] : this.position(o.upper, false)
    const out: Array<string> = []
    const limit = o.limit ?? Infinity
    if (lb > ub || (lb === ub && li >= ui)) return out
    if (o.reverse !== true) {
      for (let b = lb, i = li; out.length < limit; i++) {
        if (b === ub && i >= ui) break
        const block = this.blocks[b]!
        if (i >= block.length) {
          b++
          i = -1
          continue
        }
        out.push(block[i]!)
      }
    } else {
      for (let b = ub, i = ui - 1; out.length < limit; i--) {
        if (b === lb && i < li) break
        if (i < 0) {
          b--
          i = this.blocks[b]!.length
          continue
        }
        out.push(this.blocks[b]![i]!)
      }
    }
    return out
  }
}
