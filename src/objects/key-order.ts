// The platform's key order: UTF-8 bytes, which is code point order. Comparing UTF-16 units gives
// the same answer except for a surrogate (half of a code point above U+FFFF) against a unit at or
// above U+E000, so surrogates are lifted above the rest of the BMP before comparing.
const lift = (u: number): number => (u < 0xd800 ? u : u < 0xe000 ? u + 0x2000 : u - 0x800)
export const compareUtf8 = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return lift(x) - lift(y)
  }
  return a.length - b.length
}
