/**
 * Rule expressions inside Terraform: a `cloudflare_ruleset`'s rules' `expression` (blocks in
 * 3.x/4.x, objects in 5.x) and a `cloudflare_filter`'s `expression`, in HCL (quoted strings with
 * their escapes, heredocs with `<<-` indentation stripped) and in Terraform JSON (`*.tf.json`).
 * Each is mapped character by character onto the file, so diagnostics land on the bad characters.
 * A string with an interpolation (`${…}`, `%{…}`) is computed by Terraform: it is not checked.
 */
import type { Node } from "jsonc-parser"
import { check, type CheckOptions, type CheckResult } from "../../rules/index.js"
import type { ExpressionRegion } from "../findings.js"
import type { HclNode } from "../hcl.js"
import { decodedOffsets } from "../json-string.js"

/** Checks a rules expression (`check` of src/rules, or the same with its answers kept). */
export type ExpressionChecker = (text: string, options: CheckOptions) => CheckResult

/**
 * `check` with each distinct expression and options checked once: one per document check, shared
 * by its diagnostics and the firewall rewrite's mapping, which check the same filter expressions.
 * Options holding named lists (a Map, not a key) are checked every time.
 */
export const expressionChecker = (): ExpressionChecker => {
  const answers = new Map<string, CheckResult>()
  return (text, options) => {
    if (options.lists !== undefined) return check(text, options)
    const key = `${JSON.stringify(
      Object.entries(options)
        .filter(([, v]) => v !== undefined)
        .sort()
    )}\u0000${text}`
    let r = answers.get(key)
    if (r === undefined) answers.set(key, (r = check(text, options)))
    return r
  }
}

/** Resource types whose `expression` strings are rules expressions. */
export const EXPRESSION_RESOURCES = ["cloudflare_ruleset", "cloudflare_filter"] as const

/**
 * An expression, whether it is written in a quoted string (a fix is then written escaped; a
 * heredoc is raw text), and the ruleset phase it runs in (response phases have their own fields).
 */
export type TerraformExpression = ExpressionRegion & { readonly quoted: boolean; readonly phase?: string | undefined }

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" }

/** A quoted HCL string's decoded text and the document offset of each of its UTF-16 units (plus its end). */
const quoted = (doc: string, lit: HclNode): TerraformExpression => {
  let text = ""
  const offsets: Array<number> = []
  const end = lit.endIndex - 1
  let i = lit.startIndex + 1
  const push = (s: string, at: number) => {
    for (let k = 0; k < s.length; k++) offsets.push(at)
    text += s
  }
  while (i < end) {
    const c = doc[i]!
    if (c === "\\") {
      const e = doc[i + 1] ?? ""
      if (e in SIMPLE_ESCAPES) {
        push(SIMPLE_ESCAPES[e]!, i)
        i += 2
      } else if (e === "u" || e === "U") {
        const n = e === "u" ? 4 : 8
        push(String.fromCodePoint(parseInt(doc.slice(i + 2, i + 2 + n), 16) || 0xfffd), i)
        i += 2 + n
      } else {
        push(c, i)
        i++
      }
    } else if ((c === "$" || c === "%") && doc[i + 1] === c && doc[i + 2] === "{") {
      // `$${` is a literal `${`: its `$` is the first character, its `{` the third.
      push(c, i)
      push("{", i + 2)
      i += 3
    } else {
      push(c, i)
      i++
    }
  }
  offsets.push(Math.min(i, end))
  return { text, offsets, quoted: true }
}

/** A heredoc's body: the lines between its opening and closing markers, `<<-` indentation removed. */
const heredoc = (doc: string, h: HclNode): TerraformExpression | undefined => {
  const ids = h.namedChildren.filter((c) => c?.type === "heredoc_identifier")
  if (ids.length < 2) return undefined
  const bodyStart = doc.indexOf("\n", ids[0]!.endIndex) + 1
  const close = ids[ids.length - 1]!
  const bodyEnd = doc.lastIndexOf("\n", close.startIndex) + 1
  if (bodyStart <= 0 || bodyEnd < bodyStart) return undefined
  const lines = doc.slice(bodyStart, bodyEnd).split("\n").slice(0, -1)
  const strip =
    h.namedChildren[0]?.text === "<<-"
      ? Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)![0].length))
      : 0
  let text = ""
  const offsets: Array<number> = []
  let at = bodyStart
  for (const l of lines) {
    const cut = Math.min(strip, l.length)
    for (let k = cut; k <= l.length; k++) offsets.push(at + k) // the last one: the line's newline
    text += `${l.slice(cut)}\n`
    at += l.length + 1
  }
  offsets.push(at)
  return { text, offsets, quoted: false }
}

const hasTemplate = (n: HclNode): boolean =>
  n.type === "template_interpolation" ||
  n.type === "template_directive" ||
  n.namedChildren.some((c) => c !== null && hasTemplate(c))

/** The rules expression a value node holds, when it is a string Terraform does not compute. */
const regionOfValue = (doc: string, value: HclNode | null | undefined): TerraformExpression | undefined => {
  let n = value
  while (
    n &&
    (n.type === "expression" || n.type === "literal_value" || n.type === "template_expr") &&
    n.namedChildren.length === 1
  )
    n = n.namedChildren[0]
  if (n === null || n === undefined || hasTemplate(n)) return undefined
  if (n.type === "string_lit") return quoted(doc, n)
  if (n.type === "heredoc_template") return heredoc(doc, n)
  return undefined
}

/** Every `expression = …` (attribute or object element) inside a resource's body, at any depth. */
export const hclExpressionRegions = (doc: string, resourceBody: HclNode): Array<TerraformExpression> => {
  const out: Array<TerraformExpression> = []
  const visit = (n: HclNode) => {
    if (n.type === "attribute" && n.namedChildren[0]?.text === "expression") {
      const r = regionOfValue(doc, n.namedChildren[1])
      if (r) out.push(r)
      return
    }
    if (n.type === "object_elem" && n.namedChildren[0]?.text === "expression") {
      const r = regionOfValue(doc, n.namedChildren[1])
      if (r) out.push(r)
      return
    }
    for (const c of n.namedChildren) if (c !== null) visit(c)
  }
  visit(resourceBody)
  return out
}

const prop = (n: Node | undefined, key: string): Node | undefined =>
  n?.type === "object" ? n.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1] : undefined
const items = (n: Node | undefined): Array<Node> =>
  n === undefined ? [] : n.type === "array" ? (n.children ?? []) : [n]

/** Terraform JSON: `resource.<type>.<name>` (objects, or arrays of them), its `expression` strings. */
export const jsonExpressionRegions = (doc: string, root: Node): Array<TerraformExpression> => {
  const out: Array<TerraformExpression> = []
  const add = (n: Node | undefined, phase?: unknown) => {
    // Terraform JSON strings are templates too: one with `${` or `%{` (escaped or not) is left alone.
    if (n?.type === "string" && !/[$%]\{/.test(String(n.value)))
      out.push({
        text: String(n.value),
        offsets: decodedOffsets(doc, n.offset, n.length),
        quoted: true,
        phase: typeof phase === "string" ? phase : undefined
      })
  }
  for (const resources of items(prop(root, "resource"))) {
    for (const type of EXPRESSION_RESOURCES) {
      for (const byName of items(prop(resources, type))) {
        for (const p of byName.children ?? []) {
          for (const body of items(p.children?.[1])) {
            if (type === "cloudflare_filter") add(prop(body, "expression"))
            else
              for (const rule of items(prop(body, "rules"))) add(prop(rule, "expression"), prop(body, "phase")?.value)
          }
        }
      }
    }
  }
  return out
}
