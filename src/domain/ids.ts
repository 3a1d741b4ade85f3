/**
 * The platform's ids, derived from names: the same parts always give the same id, so the demo
 * world, the server's new objects, tests and docs can all name them.
 */
import { nodeCrypto } from "../lazy-builtins.js"

/**
 * Ids a cold command derives on every run (local KV commands act for the demo account): known, so
 * such a command does not load node:crypto (~15 M instructions, 1.5% of its start). test/domain/ids.test.ts checks each
 * against the hash.
 */
export const KnownHexIds: ReadonlyMap<string, string> = new Map([
  ["account\u0000Acme Corp", "9ceb3ed8a4d51764641f47536189e297"]
])

/** A 32-hex id derived from a name, like the platform's ids. */
export const hexId = (...parts: ReadonlyArray<string | number>) => {
  const name = parts.join("\u0000")
  return KnownHexIds.get(name) ?? nodeCrypto().createHash("sha256").update(name).digest("hex").slice(0, 32)
}

export const uuidId = (...parts: ReadonlyArray<string | number>) => {
  const h = hexId("uuid", ...parts)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}
