/** src/domain/ids.ts: the ids it knows without hashing are the hashes of their names. */
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { hexId, KnownHexIds } from "../../src/domain/ids.js"

describe("hexId", () => {
  it("gives each known id the hash of its name, as for any other name", () => {
    expect(KnownHexIds.size).toBeGreaterThan(0)
    for (const [name, id] of KnownHexIds) expect(id).toBe(createHash("sha256").update(name).digest("hex").slice(0, 32))
    expect(hexId("account", "Acme Corp")).toBe(KnownHexIds.get("account\u0000Acme Corp"))
    expect(hexId("zone", "acme.com")).toBe(createHash("sha256").update("zone\u0000acme.com").digest("hex").slice(0, 32))
  })
})
