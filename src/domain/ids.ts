/**
 * The platform's ids, derived from names: the same parts always give the same id, so the demo
 * world, the server's new objects, tests and docs can all name them.
 */
import { nodeCrypto } from "../lazy-builtins.js"

/** A 32-hex id derived from a name, like the platform's ids. */
export const hexId = (...parts: ReadonlyArray<string | number>) =>
  nodeCrypto().createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32)

export const uuidId = (...parts: ReadonlyArray<string | number>) => {
  const h = hexId("uuid", ...parts)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}
