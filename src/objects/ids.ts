// Object ids and the on-disk layout of objects' state under --persist-to.
import * as fs from "node:fs"
import * as path from "node:path"
import { nodeCrypto } from "../lazy-builtins.js"

export const DEFAULT_PERSIST_TO = path.join(".edgectl", "state")
const ID = /^[0-9a-f]{64}$/

export class ObjectId {
  constructor(
    readonly hex: string,
    readonly name?: string
  ) {}
  toString(): string {
    return this.hex
  }
  equals(other: ObjectId): boolean {
    return other.hex === this.hex
  }
}

export const idFromName = (className: string, name: string): ObjectId =>
  new ObjectId(nodeCrypto().createHash("sha256").update(`${className}\u0000${name}`).digest("hex"), name)

export const idFromString = (hex: string): ObjectId => {
  if (!ID.test(hex))
    throw new TypeError(
      `idFromString(): an object id is 64 lowercase hex digits, got ${JSON.stringify(hex)} (${hex.length} characters)`
    )
  return new ObjectId(hex)
}

export const newUniqueId = (): ObjectId => new ObjectId(nodeCrypto().randomBytes(32).toString("hex"))

// `<name or 64-hex id>` as the CLI takes it.
export const resolveId = (className: string, nameOrId: string): ObjectId =>
  ID.test(nameOrId) ? new ObjectId(nameOrId) : idFromName(className, nameOrId)

export const CLASS_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/

const objectsRoot = (persistTo: string): string => path.join(persistTo, "objects")
export const objectDir = (persistTo: string, className: string, id: ObjectId): string => {
  if (!CLASS_NAME.test(className)) throw new TypeError(`not a class name: ${JSON.stringify(className)}`)
  return path.join(objectsRoot(persistTo), className, id.hex)
}

// Remembers the name an id came from, so that `objects list` can show it.
export const rememberName = (dir: string, id: ObjectId): void => {
  if (id.name === undefined) return
  const file = path.join(dir, "name")
  if (!fs.existsSync(file)) fs.writeFileSync(file, id.name)
}

export interface StoredObject {
  readonly className: string
  readonly id: string
  readonly name: string | null
  readonly dir: string
  readonly bytes: number
}

export const listStored = (persistTo: string): Array<StoredObject> => {
  const root = objectsRoot(persistTo)
  if (!fs.existsSync(root)) return []
  const out: Array<StoredObject> = []
  for (const className of fs.readdirSync(root).sort()) {
    const classDir = path.join(root, className)
    if (!fs.statSync(classDir).isDirectory()) continue
    for (const id of fs.readdirSync(classDir).sort()) {
      const dir = path.join(classDir, id)
      if (!ID.test(id)) continue
      let name: string | null
      try {
        name = fs.readFileSync(path.join(dir, "name"), "utf8")
      } catch {
        name = null
      }
      let bytes = 0
      for (const f of fs.readdirSync(dir)) bytes += fs.statSync(path.join(dir, f)).size
      out.push({ className, id, name, dir, bytes })
    }
  }
  return out
}
