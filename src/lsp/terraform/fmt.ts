/**
 * The layout rules of `terraform fmt` (hclwrite's format.go) that generated HCL must follow:
 * two spaces per open bracket, a line that starts with a closing bracket one level less, no
 * trailing spaces, and `=` aligned only within a run of consecutive lines that each hold a whole
 * single-line attribute (a line opening a multi-line value, a comment, a blank line or a bracket
 * line ends the run; a heredoc's body belongs to the line that opens it). Heredoc bodies are
 * left as written. Spacing inside a line is not rewritten:
 * the generator writes it canonically (`{ a = 1, b = 2 }`).
 */

interface Line {
  /** Bracket depth before the line. */
  readonly depth: number
  readonly body: string
  /** Where the attribute's `=` is in `body` when the line holds a whole single-line attribute. */
  readonly assign: number | undefined
  /** The first top-level `=` of a line that opens a multi-line value (`rules = [`): one space each side. */
  readonly opensValue: number | undefined
  readonly verbatim: boolean
}

const OPEN = "{[("
const CLOSE = "}])"

/** Scans one line outside heredocs: its net bracket change, its first top-level `=` and the net brackets after it. */
const scan = (
  s: string
): {
  net: number
  assign: number | undefined
  afterAssign: number
  heredoc: string | undefined
  closesFirst: boolean
} => {
  let net = 0
  let assign: number | undefined
  let afterAssign = 0
  let heredoc: string | undefined
  let inString = false
  let interp = 0
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    if (inString) {
      if (c === "\\") i++
      else if (c === '"' && interp === 0) inString = false
      else if ((c === "$" || c === "%") && s[i + 1] === "{" && s[i - 1] !== c) {
        interp++
        i++
      } else if (c === "}" && interp > 0) interp--
      continue
    }
    if (c === "#" || (c === "/" && (s[i + 1] === "/" || s[i + 1] === "*"))) break
    if (c === '"') inString = true
    else if (c === "<" && s[i + 1] === "<") {
      const m = /^<<-?([A-Za-z_][\w-]*)\s*$/.exec(s.slice(i))
      if (m) {
        heredoc = m[1]!
        break
      }
    } else if (OPEN.includes(c)) {
      net++
      if (assign !== undefined) afterAssign++
    } else if (CLOSE.includes(c)) {
      net--
      if (assign !== undefined) afterAssign--
    } else if (
      c === "=" &&
      assign === undefined &&
      i > 0 &&
      s[i + 1] !== "=" &&
      s[i + 1] !== ">" &&
      !"=!<>".includes(s[i - 1]!)
    )
      assign = i
  }
  return { net, assign, afterAssign, heredoc, closesFirst: CLOSE.includes(s[0] ?? "") }
}

const lines = (text: string): Array<Line> => {
  const out: Array<Line> = []
  let depth = 0
  let heredoc: string | undefined
  for (const raw of text.split("\n")) {
    if (heredoc !== undefined) {
      out.push({ depth, body: raw, assign: undefined, opensValue: undefined, verbatim: true })
      if (raw.trim() === heredoc) heredoc = undefined
      continue
    }
    const body = raw.trim()
    const s = scan(body)
    out.push({
      depth: s.closesFirst ? Math.max(0, depth - 1) : depth,
      body,
      assign: s.assign !== undefined && s.afterAssign === 0 ? s.assign : undefined,
      opensValue: s.assign !== undefined && s.afterAssign !== 0 ? s.assign : undefined,
      verbatim: false
    })
    depth = Math.max(0, depth + s.net)
    heredoc = s.heredoc
  }
  return out
}

/** `text` laid out as `terraform fmt` lays it out (for the rules above). */
export const formatHcl = (text: string): string => {
  const ls = lines(text)
  const out: Array<string> = []
  let i = 0
  while (i < ls.length) {
    const l = ls[i]!
    if (l.verbatim || l.assign === undefined) {
      const body =
        l.opensValue === undefined
          ? l.body
          : `${l.body.slice(0, l.opensValue).trimEnd()} = ${l.body.slice(l.opensValue + 1).trimStart()}`
      out.push(l.verbatim ? l.body : l.body === "" ? "" : `${"  ".repeat(l.depth)}${body}`)
      i++
      continue
    }
    // A heredoc belongs to the line that opens it: its body does not end the run.
    let j = i
    while (j < ls.length && (ls[j]!.verbatim || ls[j]!.assign !== undefined)) j++
    const run = ls.slice(i, j).map((r) =>
      r.verbatim
        ? { verbatim: r.body }
        : {
            lead: `${"  ".repeat(r.depth)}${r.body.slice(0, r.assign).trimEnd()}`,
            rest: r.body.slice(r.assign! + 1).trimStart()
          }
    )
    const width = Math.max(...run.map((r) => r.lead?.length ?? 0))
    for (const r of run)
      out.push(r.verbatim !== undefined ? r.verbatim : `${r.lead!.padEnd(width)} = ${r.rest}`.trimEnd())
    i = j
  }
  return out.join("\n")
}

/** Whether `terraform fmt -check` would leave the text as it is (for the rules above). */
export const isFmtCanonical = (text: string): boolean => formatHcl(text) === text
