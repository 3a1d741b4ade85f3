/** Units: how the KV screen shows values and expirations (tui/screens/kv-format.ts). */
import { describe, expect, it } from "vitest"
import { asText, expiresCell, expiresText, sizeText, viewValue } from "../../tui/screens/kv-format.js"

describe("value views", () => {
  it("JSON is pretty-printed, text kept as it is, other bytes as a hex dump", () => {
    expect(viewValue(Buffer.from('{"a":[1,2]}'))).toEqual({
      kind: "json",
      lines: ["{", '  "a": [', "    1,", "    2", "  ]", "}"]
    })
    expect(viewValue(Buffer.from("line 1\nline 2"))).toEqual({ kind: "text", lines: ["line 1", "line 2"] })
    expect(viewValue(Buffer.from("{not json"))).toEqual({ kind: "text", lines: ["{not json"] })
    const bin = viewValue(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x41]))
    expect(bin.kind).toBe("binary")
    expect(bin.lines).toEqual([
      "00000000  89 50 4e 47 00 01 02 03  04 05 06 07 08 09 0a 0b  |.PNG............|",
      "00000010  41                                                |A|"
    ])
  })

  it("text is UTF-8 without control characters (tabs and line breaks allowed)", () => {
    expect(asText(Buffer.from("héllo\tworld\r\n"))).toBe("héllo\tworld\r\n")
    expect(asText(Buffer.from([0xff, 0xfe]))).toBeUndefined()
    expect(asText(Buffer.from("a\u0000b"))).toBeUndefined()
  })

  it("expirations as a date and a distance; sizes", () => {
    const now = 1_800_000_000
    expect(expiresText(undefined, now)).toBe("never")
    expect(expiresText(now + 90, now)).toBe("2027-01-15 08:01:30Z (in 1m 30s)")
    expect(expiresText(now + 400 * 86_400, now)).toMatch(/\(in 1y 35d\)$/)
    expect(expiresText(now - 7200, now)).toMatch(/\(2h 0m ago\)$/)
    expect(expiresCell(now + 3 * 86_400 + 3600, now)).toBe("in 3d 1h")
    expect(expiresCell(now - 1, now)).toBe("expired")
    expect([sizeText(1), sizeText(2048), sizeText(26_214_400)]).toEqual(["1 byte", "2.0 KiB", "25.0 MiB"])
  })
})
