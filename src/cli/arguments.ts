/** The command line's words as bytes: an argument that is not UTF-8 is refused before anything runs. */
import * as fs from "node:fs"

/**
 * An argument that is not valid UTF-8 (`$'\\xff'`): Node hands it over with U+FFFD in place of
 * the bytes, and a key or a name would be silently another. Linux keeps the bytes in
 * /proc/self/cmdline: the error names the first byte that is not UTF-8.
 */
export const notUtf8Argument = (argv: ReadonlyArray<string>): string | undefined => {
  if (!argv.some((a) => a.includes("\uFFFD"))) return undefined
  let raw: Array<Buffer>
  try {
    const all = fs.readFileSync("/proc/self/cmdline")
    raw = []
    for (let at = 0; at < all.length;) {
      const end = all.indexOf(0, at)
      raw.push(all.subarray(at, end < 0 ? all.length : end))
      at = end < 0 ? all.length : end + 1
    }
  } catch {
    return undefined
  }
  const strict = new TextDecoder("utf-8", { fatal: true })
  for (const bytes of raw.slice(-argv.length)) {
    try {
      strict.decode(bytes)
    } catch {
      const at = firstBadByte(bytes)
      return `argument ${JSON.stringify(bytes.toString("utf8"))} is not valid UTF-8: byte 0x${bytes[at]!.toString(16).padStart(2, "0")} at byte ${at + 1}; edgectl takes UTF-8 text (encode other bytes, e.g. %FF)`
    }
  }
  return undefined
}

/** The index of the first byte of `bytes` that does not start or continue a UTF-8 sequence (a cut one: its first byte). */
const firstBadByte = (bytes: Buffer): number => {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!
    const length = b < 0x80 ? 1 : b >> 5 === 6 ? 2 : b >> 4 === 14 ? 3 : b >> 3 === 30 ? 4 : 0
    if (length === 0) return i
    for (let k = 1; k < length; k++) {
      if (i + k >= bytes.length) return i
      if ((bytes[i + k]! & 0xc0) !== 0x80) return i
    }
    i += length
  }
  // An overlong form or a surrogate: well-formed bytes the decoder still refuses.
  return 0
}
