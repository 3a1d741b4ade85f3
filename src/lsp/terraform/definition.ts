/**
 * Go to definition in a Terraform module: where a resource named by a reference is written, in the
 * same file or another `*.tf` / `*.tf.json` file of its directory. Shared by the help in `*.tf`
 * (./help.ts) and in `*.tf.json` (./json-help.ts).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { Range } from "../findings.js"
import { parseHcl, type HclNode } from "../hcl.js"
import { resourceBlocks } from "./analyze.js"
import { jsonResourceRange } from "./json-resources.js"

/** A definition in this file (`uri` undefined) or another file of the module. */
export interface DefinitionResult {
  readonly uri?: string
  readonly text: string
  readonly range: Range
}

/** Runs `f` on the parse tree of `text`, freeing the tree after. */
export const withTree = async <A>(text: string, f: (root: HclNode) => Promise<A>): Promise<A> => {
  const tree = await parseHcl(text)
  try {
    return await f(tree.rootNode)
  } finally {
    tree.delete()
  }
}

/** The other `*.tf` and `*.tf.json` files of the document's directory (its module), read from disk. */
const moduleFiles = (name: string): ReadonlyArray<string> => {
  try {
    const file = name.startsWith("file:") ? fileURLToPath(name) : path.resolve(name)
    const dir = path.dirname(file)
    return fs
      .readdirSync(dir)
      .filter((f) => (f.endsWith(".tf") || f.endsWith(".tf.json")) && f !== path.basename(file))
      .sort()
      .map((f) => path.join(dir, f))
  } catch {
    return []
  }
}

/** Where resource `type.label` is written in `text` (a `*.tf` file, or Terraform JSON when `json`). */
export const resourceRange = async (
  text: string,
  type: string,
  label: string,
  json = false
): Promise<Range | undefined> =>
  json
    ? jsonResourceRange(text, type, label)
    : withTree(text, async (root) => {
        const b = resourceBlocks(root).find((x) => x.type === type && x.name === label)
        return b === undefined ? undefined : { start: b.node.startIndex, end: b.node.endIndex }
      })

/** The resource a reference names, in this file (`here`) or another file of the module. */
export const resourceDefinition = async (
  here: Range | undefined,
  text: string,
  name: string,
  type: string,
  label: string
): Promise<DefinitionResult | undefined> => {
  if (here !== undefined) return { text, range: here }
  for (const file of moduleFiles(name)) {
    let other: string
    try {
      other = fs.readFileSync(file, "utf8")
    } catch {
      continue
    }
    if (!other.includes(`"${label}"`)) continue
    const range = await resourceRange(other, type, label, file.endsWith(".tf.json"))
    if (range !== undefined) return { uri: pathToFileURL(file).toString(), text: other, range }
  }
  return undefined
}
