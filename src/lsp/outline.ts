/**
 * The outline of a document (LSP document symbols) and its folding ranges, in document offsets:
 * the rules of a firewall/filter/ruleset document, the entries of a KV bulk file, the WAF
 * configuration's rules, Terraform blocks (with a ruleset's rules named by description), and a
 * `.rules` file's top-level conditions. Computed on request from the text: never kept with the
 * analysis, so a 50,000-entry file costs nothing until the editor asks.
 */
import { parseTree, type Node } from "jsonc-parser"
import { check, children, type Node as RulesNode } from "../rules/index.js"
import type { BulkState, DocumentKind, Memo, Range } from "./findings.js"
import { parseHcl, stringValue, type HclNode } from "./hcl.js"
import { rangeOf } from "./json-path.js"
import { rulesDocument } from "./platform-json.js"

type SymbolKind = "object" | "class" | "module" | "property" | "key" | "boolean" | "array" | "struct"

export interface OutlineSymbol {
  readonly name: string
  readonly detail?: string
  readonly kind: SymbolKind
  readonly range: Range
  /** What is highlighted when the symbol is picked (its name, or its first line). */
  readonly selection: Range
  readonly children?: ReadonlyArray<OutlineSymbol>
}

/** A foldable span, from the opening character to the closing one (both included). */
interface Fold {
  readonly start: number
  readonly end: number
}

export interface Outline {
  readonly symbols: ReadonlyArray<OutlineSymbol>
  readonly folds: ReadonlyArray<Fold>
}

const MAX_NAME = 60
/** As VS Code's JSON server (`json.maxItemsComputed`): an outline of 50,000 entries helps nobody and costs a 200 ms answer. */
const MAX_SYMBOLS = 5000
/** A name for people: one line, long ones cut with an ellipsis. */
const shorten = (s: string): string => {
  const one = s.replace(/\s+/g, " ").trim()
  return one.length > MAX_NAME ? `${one.slice(0, MAX_NAME - 1)}…` : one || "(empty)"
}

const prop = (n: Node | undefined, key: string): Node | undefined => {
  if (n?.type !== "object") return undefined
  for (const p of n.children ?? []) if (p.children?.[0]?.value === key) return p.children[1]
  return undefined
}
const str = (n: Node | undefined): string | undefined => (n?.type === "string" ? (n.value as string) : undefined)

/** Every object and array that spans several lines folds. */
const jsonFolds = (text: string, root: Node): Array<Fold> => {
  const out: Array<Fold> = []
  const visit = (n: Node) => {
    if (n.type === "object" || n.type === "array") {
      const end = n.offset + n.length - 1
      if (text.indexOf("\n", n.offset) !== -1 && text.indexOf("\n", n.offset) < end) out.push({ start: n.offset, end })
    }
    for (const c of n.children ?? []) if (c.type !== "string" && c.type !== "number") visit(c)
  }
  visit(root)
  return out
}

/** A rule object named as the platform's dashboards name it: its description, else its ref or id, else its expression. */
const ruleSymbol = (
  o: Node,
  index: number,
  expression: string | undefined,
  detail: string | undefined
): OutlineSymbol => {
  const label = str(prop(o, "description")) || str(prop(o, "ref")) || str(prop(o, "id")) || expression
  const name = label === undefined ? `rule ${index + 1}` : shorten(label)
  return {
    name,
    kind: "object",
    range: rangeOf(o),
    selection: { start: o.offset, end: o.offset + 1 },
    ...(detail ? { detail } : {})
  }
}

const elementsOf = (body: Node): Array<Node> =>
  (body.type === "array" ? (body.children ?? []) : [body]).filter((e) => e.type === "object")

/**
 * A bulk file's outline from its check's entries (the memo), not from a tree of the whole file: an
 * editor asks for symbols on every open, and a 50,000-entry tree is the memory peak the check
 * avoids. Only entries written over several lines are parsed, for their folds. Entries are
 * numbered from 0, as the diagnostics number them.
 */
const kvOutline = (text: string, bulk: BulkState): Outline => {
  const symbols = bulk.entries.slice(0, MAX_SYMBOLS).map((e, i): OutlineSymbol => ({
    name: e.key === undefined ? `entry ${i}` : shorten(e.key),
    detail: `entry ${i}`,
    kind: "key",
    range: { start: e.start, end: e.end },
    selection: e.keyRange
      ? { start: e.start + e.keyRange.start, end: e.start + e.keyRange.end }
      : { start: e.start, end: e.end }
  }))
  const folds: Array<Fold> = []
  const first = bulk.entries[0]
  const last = bulk.entries[bulk.entries.length - 1]
  if (first !== undefined && last !== undefined)
    folds.push({ start: text.lastIndexOf("[", first.start), end: text.indexOf("]", last.end) })
  for (const e of bulk.entries) {
    if (folds.length >= MAX_SYMBOLS) break
    const slice = text.slice(e.start, e.end)
    if (!slice.includes("\n")) continue
    const node = parseTree(slice)
    if (node !== undefined)
      for (const f of jsonFolds(slice, node)) folds.push({ start: f.start + e.start, end: f.end + e.start })
  }
  return { symbols, folds }
}

const topLevelProperties = (root: Node): Array<OutlineSymbol> =>
  (root.children ?? []).flatMap((p) => {
    const [k, v] = p.children ?? []
    if (k === undefined || v === undefined) return []
    return [
      {
        name: String(k.value),
        kind:
          v.type === "array" ? ("array" as const) : v.type === "object" ? ("object" as const) : ("property" as const),
        range: rangeOf(p),
        selection: rangeOf(k)
      }
    ]
  })

const jsonSymbols = (root: Node, kind: DocumentKind | undefined): Array<OutlineSymbol> => {
  if (kind === "waf-config") {
    const body = prop(root, "result") ?? root
    const rules = prop(body, "rules")
    return rules?.type === "array"
      ? elementsOf(rules).map((o, i) => ruleSymbol(o, i, str(prop(o, "expression")), str(prop(o, "action"))))
      : []
  }
  if (kind === "rules-json") {
    const doc = rulesDocument(root)
    if (doc === undefined || doc.shape === "schema") return topLevelProperties(root)
    return elementsOf(doc.body).map((o, i) => {
      const expression =
        doc.shape === "firewall-rules" ? str(prop(prop(o, "filter"), "expression")) : str(prop(o, "expression"))
      return ruleSymbol(o, i, expression, doc.shape === "filters" ? "filter" : str(prop(o, "action")))
    })
  }
  if (kind === "waf-export" && root.type === "object") return topLevelProperties(root)
  return []
}

/** `*.tf.json`: resource -> type -> name. */
const terraformJsonSymbols = (root: Node): Array<OutlineSymbol> =>
  (root.children ?? []).flatMap((section): Array<OutlineSymbol> => {
    const [k, v] = section.children ?? []
    if (k === undefined || v?.type !== "object") return []
    const nested = (v.children ?? []).flatMap((typed): Array<OutlineSymbol> => {
      const [tk, tv] = typed.children ?? []
      if (tk === undefined) return []
      if (tv?.type !== "object" || (k.value !== "resource" && k.value !== "data"))
        return [{ name: String(tk.value), kind: "property" as const, range: rangeOf(typed), selection: rangeOf(tk) }]
      return (tv.children ?? []).map((named) => ({
        name: `${tk.value}.${named.children?.[0]?.value}`,
        kind: "class" as const,
        range: rangeOf(named),
        selection: rangeOf(named.children![0]!)
      }))
    })
    return [
      {
        name: String(k.value),
        kind: "module" as const,
        range: rangeOf(section),
        selection: rangeOf(k),
        children: nested
      }
    ]
  })

const span = (n: HclNode): Range => ({ start: n.startIndex, end: n.endIndex })
const hclAttr = (body: HclNode | undefined, name: string): string | undefined => {
  for (const a of body?.namedChildren ?? []) {
    if (a?.type === "attribute" && a.namedChildren[0]?.text === name && a.namedChildren[1])
      return stringValue(a.namedChildren[1])
  }
  return undefined
}
/** An object's `key = "string"` element (5.x rules are objects in a tuple). */
const objectElem = (obj: HclNode, name: string): string | undefined => {
  for (const e of obj.namedChildren) {
    if (e?.type === "object_elem" && e.namedChildren[0]?.text === name && e.namedChildren[1])
      return stringValue(e.namedChildren[1])
  }
  return undefined
}
const innerOf = (n: HclNode, type: string): HclNode | undefined => {
  let x: HclNode | null | undefined = n
  while (x && x.type !== type) x = x.type === "expression" || x.type === "collection_value" ? x.namedChildren[0] : null
  return x ?? undefined
}

const hclOutline = (text: string, root: HclNode): Outline => {
  const folds: Array<Fold> = []
  const fold = (n: HclNode) => {
    if (text.slice(n.startIndex, n.endIndex).includes("\n")) folds.push({ start: n.startIndex, end: n.endIndex - 1 })
  }
  const foldValues = (n: HclNode) => {
    if (n.type === "object" || n.type === "tuple" || n.type === "heredoc_template" || n.type === "function_call")
      fold(n)
    for (const c of n.namedChildren) if (c !== null) foldValues(c)
  }
  const bodySymbols = (body: HclNode | undefined): Array<OutlineSymbol> => {
    const out: Array<OutlineSymbol> = []
    for (const c of body?.namedChildren ?? []) {
      if (c?.type === "block") {
        const id = c.namedChildren[0]!
        const labels = c.namedChildren.filter((x) => x?.type === "string_lit").map((x) => stringValue(x!) ?? "")
        const inner = c.namedChildren.find((x) => x?.type === "body") ?? undefined
        fold(c)
        const described = id.text === "rules" ? (hclAttr(inner, "description") ?? hclAttr(inner, "ref")) : undefined
        const name =
          id.text === "resource" || id.text === "data"
            ? `${id.text} ${labels.join(".")}`
            : [id.text, ...labels.map((l) => JSON.stringify(l))].join(" ")
        out.push({
          name: described ? `rules: ${shorten(described)}` : name,
          kind: labels.length ? "class" : "struct",
          range: span(c),
          selection: span(id),
          children: bodySymbols(inner)
        })
      } else if (c?.type === "attribute") {
        const id = c.namedChildren[0]!
        const value = c.namedChildren[1]
        if (value) foldValues(value)
        const tuple = value ? innerOf(value, "tuple") : undefined
        const items =
          id.text === "rules" && tuple
            ? tuple.namedChildren.flatMap((e, i): Array<OutlineSymbol> => {
                const obj = e ? innerOf(e, "object") : undefined
                if (obj === undefined) return []
                const label = objectElem(obj, "description") ?? objectElem(obj, "ref") ?? objectElem(obj, "expression")
                return [
                  {
                    name: label ? shorten(label) : `rule ${i + 1}`,
                    kind: "object",
                    range: span(obj),
                    selection: { start: obj.startIndex, end: obj.startIndex + 1 }
                  }
                ]
              })
            : []
        out.push({
          name: id.text,
          kind: "property",
          range: span(c),
          selection: span(id),
          ...(items.length ? { children: items } : {})
        })
      }
    }
    return out
  }
  const top = root.namedChildren.find((c) => c?.type === "body") ?? root
  return { symbols: bodySymbols(top), folds }
}

/** A `.rules` file: its top-level conditions (the operands of its outer and/or/xor), and its multi-line groups. */
const rulesOutline = (text: string): Outline => {
  const tree = check(text.replace(/\s+$/, "")).tree
  const folds: Array<Fold> = []
  const visit = (n: RulesNode) => {
    if (
      (n.kind === "group" || n.kind === "set" || n.kind === "call") &&
      text.slice(n.range.start, n.range.end).includes("\n")
    )
      folds.push({ start: n.range.start, end: n.range.end - 1 })
    for (const c of children(n)) visit(c)
  }
  visit(tree)
  const operands = tree.kind === "logical" ? tree.operands : [tree]
  const symbols = operands
    .filter((o) => o.range.end > o.range.start)
    .map((o): OutlineSymbol => ({
      name: shorten(text.slice(o.range.start, o.range.end)),
      kind: "boolean",
      range: o.range,
      selection: o.range,
      ...(tree.kind === "logical" ? { detail: tree.op } : {})
    }))
  return { symbols, folds }
}

export const outline = async (
  syntax: "rules" | "json" | "terraform",
  text: string,
  kind: DocumentKind | undefined,
  name: string,
  memo?: Memo
): Promise<Outline> => {
  if (syntax === "rules") return rulesOutline(text)
  if (kind === "kv-bulk")
    return memo !== undefined && memo.text === text ? kvOutline(text, memo.bulk) : { symbols: [], folds: [] }
  if (syntax === "terraform" && !/\.tf\.json$/i.test(name)) {
    const tree = await parseHcl(text)
    try {
      return hclOutline(text, tree.rootNode)
    } finally {
      tree.delete()
    }
  }
  const root = parseTree(text, [], { allowTrailingComma: true })
  if (root === undefined) return { symbols: [], folds: [] }
  if (syntax === "terraform") return { symbols: terraformJsonSymbols(root), folds: jsonFolds(text, root) }
  // Other JSON is the editor's JSON server's: the outline is given for the platform's documents only.
  if (kind === "json" || kind === undefined) return { symbols: [], folds: [] }
  return { symbols: jsonSymbols(root, kind), folds: jsonFolds(text, root) }
}
