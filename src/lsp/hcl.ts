/**
 * The HCL parser: the tree-sitter HCL grammar run by web-tree-sitter (WebAssembly, no native
 * build). Loaded once, on the first Terraform document, so other documents never pay for it.
 */
import { createRequire } from "node:module"
import type { Language, Node, Parser, Tree } from "web-tree-sitter"

export type { Node as HclNode }

let parser: Promise<Parser> | undefined

const load = async (): Promise<Parser> => {
  const require = createRequire(import.meta.url)
  const ts = await import("web-tree-sitter")
  await ts.Parser.init({ locateFile: () => require.resolve("web-tree-sitter/web-tree-sitter.wasm") })
  const hcl: Language = await ts.Language.load(
    require.resolve("@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm")
  )
  const p = new ts.Parser()
  p.setLanguage(hcl)
  return p
}

/** Parses HCL; the tree's indices are UTF-16 offsets into `text` (the string is parsed as UTF-16). */
export const parseHcl = async (text: string): Promise<Tree> => {
  parser ??= load()
  const p = await parser
  const tree = p.parse(text)
  if (tree === null) throw new Error("the HCL parser returned no tree")
  return tree
}

/** The text of a string label or literal (`"cloudflare_waf_rule"` -> `cloudflare_waf_rule`). */
export const stringValue = (n: Node): string | undefined => {
  if (n.type === "string_lit")
    return n.namedChildren
      .filter((c) => c?.type === "template_literal")
      .map((c) => c!.text)
      .join("")
  if (n.type === "expression" || n.type === "literal_value")
    return n.namedChildren[0] ? stringValue(n.namedChildren[0]) : undefined
  return undefined
}

/**
 * Drops the child lists web-tree-sitter caches on each node it was asked for (`children`,
 * `namedChildren`), under `n`: a walk of a 5 MB file otherwise keeps a JavaScript object for every
 * node it visited (330 MB) for as long as any block node is held. The nodes stay valid: a list
 * asked for again is read again from the tree.
 */
export const forgetChildren = (n: Node): void => {
  const cached = n as unknown as {
    _children?: Array<Node | null> | undefined
    _namedChildren?: Array<Node | null> | undefined
  }
  const lists = [cached._children, cached._namedChildren]
  cached._children = undefined
  cached._namedChildren = undefined
  for (const list of lists) for (const c of list ?? []) if (c !== null) forgetChildren(c)
}
