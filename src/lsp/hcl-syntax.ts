/**
 * HCL syntax errors where they are. Tree-sitter's error recovery tends to put a missing `}` at
 * the end of the file and to swallow the next line into an attribute whose value is missing, so
 * the errors a person makes most (an unclosed brace, bracket or string, `name =` with nothing
 * after it) are found first by a scan of the text that knows HCL's strings, templates, heredocs
 * and comments; the tree's errors are reported when that scan finds nothing.
 */
import { finding, type Finding } from "./findings.js"
import type { HclNode } from "./hcl.js"

const CLOSER: Readonly<Record<string, string>> = { "{": "}", "[": "]", "(": ")", "${": "}", "%{": "}" }

interface Open {
  readonly text: string
  readonly at: number
}

const lineOf = (text: string, at: number) => text.slice(0, at).split("\n").length

/** The errors a scan of the text finds: unclosed or unmatched brackets, unclosed strings, heredocs and comments, `=` without a value. */
const scanHclText = (text: string): Array<Finding> => {
  const out: Array<Finding> = []
  const stack: Array<Open> = []
  const error = (message: string, start: number, end = start + 1, hint?: string) =>
    out.push(
      finding(
        "error",
        "hcl-syntax",
        `invalid HCL: ${message}`,
        { start, end: Math.max(end, start + 1) },
        hint !== undefined ? { hint } : {}
      )
    )
  let string: number | undefined // the offset of the open string's quote, when in a string (not in its interpolation)
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text[i]!
    if (string !== undefined) {
      if (c === "\\") i += 2
      else if ((c === "$" || c === "%") && text[i + 1] === c && text[i + 2] === "{") i += 3
      else if ((c === "$" || c === "%") && text[i + 1] === "{") {
        // The interpolation's code runs until its `}`; the string (kept below it) resumes after it.
        stack.push({ text: '"', at: string }, { text: `${c}{`, at: i })
        string = undefined
        i += 2
      } else if (c === '"') {
        string = undefined
        i++
      } else if (c === "\n") {
        error("this string is not closed on its line", string, i, 'add the closing "')
        string = undefined
        i++
      } else i++
      continue
    }
    if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      const nl = text.indexOf("\n", i)
      i = nl < 0 ? n : nl
      continue
    }
    if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2)
      if (close < 0) {
        error("this comment is never closed", i, i + 2, "add */")
        return out
      }
      i = close + 2
      continue
    }
    if (c === "<" && text[i + 1] === "<") {
      const m = /^<<-?([A-Za-z_][\w-]*)[ \t]*\r?\n/.exec(text.slice(i, i + 200))
      if (m !== null) {
        const endLine = new RegExp(`^[ \\t]*${m[1]}[ \\t]*\\r?$`, "m")
        const bodyStart = i + m[0].length
        const found = endLine.exec(text.slice(bodyStart))
        if (found === null) {
          error(
            `this heredoc is never closed: no line ${m[1]} follows`,
            i,
            i + m[0].trimEnd().length,
            `end it with a line holding only ${m[1]}`
          )
          return out
        }
        i = bodyStart + found.index + found[0].length
        continue
      }
    }
    if (c === '"') {
      string = i
      i++
      continue
    }
    if (c === "{" || c === "[" || c === "(") {
      stack.push({ text: c, at: i })
      i++
      continue
    }
    if (c === "}" || c === "]" || c === ")") {
      const top = stack[stack.length - 1]
      if (top !== undefined && CLOSER[top.text] === c) {
        stack.pop()
        // The end of an interpolation: back in its string.
        if (top.text === "${" || top.text === "%{") {
          const s = stack.pop()
          string = s?.at
        }
      } else if (top === undefined) {
        error(`this ${c} closes nothing`, i, i + 1, "remove it, or add the opening bracket it closes")
      } else {
        error(
          `expected ${CLOSER[top.text]} to close the ${top.text} on line ${lineOf(text, top.at)}, got ${c}`,
          i,
          i + 1
        )
        // Recover: if an outer opener matches, the inner ones were left open.
        const k = stack.map((o) => CLOSER[o.text]).lastIndexOf(c)
        if (k >= 0) stack.length = k
      }
      i++
      continue
    }
    if (c === "=" && text[i + 1] !== "=" && text[i + 1] !== ">" && !"=!<>".includes(text[i - 1] ?? "")) {
      const top = stack[stack.length - 1]
      if (top === undefined || top.text === "{") {
        const rest = /^[ \t]*(?:(?:#|\/\/).*)?(?:\r?\n|$)/.exec(text.slice(i + 1))
        if (rest !== null) {
          const name = /([A-Za-z_][\w-]*)\s*$/.exec(text.slice(Math.max(0, i - 80), i))?.[1]
          error(
            `expected a value after ${name !== undefined ? `${name} =` : "="} on the same line`,
            i,
            i + 1,
            "an attribute's value starts on the line of its ="
          )
        }
      }
    }
    i++
  }
  if (string !== undefined) error("this string is never closed", string, string + 1, 'add the closing "')
  for (const o of stack) {
    if (o.text === '"') error("this string is never closed", o.at, o.at + 1, 'add the closing "')
    else error(`this ${o.text} is never closed`, o.at, o.at + o.text.length, `add the ${CLOSER[o.text]} that closes it`)
  }
  return out
}

/** The tree's own errors: an ERROR node where it is, a missing token where the parser expected it. */
const treeErrors = (root: HclNode): Array<Finding> => {
  const out: Array<Finding> = []
  const visit = (n: HclNode) => {
    if (n.isMissing)
      out.push(
        finding("error", "hcl-syntax", `invalid HCL: missing ${n.type}`, { start: n.startIndex, end: n.startIndex + 1 })
      )
    else if (n.type === "ERROR")
      out.push(
        finding("error", "hcl-syntax", `invalid HCL: unexpected ${JSON.stringify(n.text.slice(0, 30))}`, {
          start: n.startIndex,
          end: n.endIndex
        })
      )
    else if (n.hasError) for (const c of n.children) if (c !== null) visit(c)
  }
  visit(root)
  return out
}

/** The syntax errors of an HCL file, at their place (`root`: the parsed tree's root, whose text is the file's). */
export const hclSyntaxErrors = (root: HclNode): Array<Finding> => {
  if (!root.hasError) return []
  const text = " ".repeat(root.startIndex) + root.text
  const scanned = scanHclText(text)
  return scanned.length > 0 ? scanned : treeErrors(root)
}
