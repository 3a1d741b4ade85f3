/**
 * The README is the first screen; the rest is under docs/ (issue 32 item 7). Every link between
 * them, and every section the language server's diagnostics point at, must lead somewhere: a page
 * that exists and, for an anchor, a heading of that page (GitHub's anchor of it).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { helpLinks } from "../src/lsp/report.js"

const root = path.resolve(import.meta.dirname, "..")
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8")

/** The lines outside code blocks (a `#` in a shell or JSONL block is no heading). */
const prose = (text: string): Array<string> => {
  let fenced = false
  return text.split("\n").filter((l) => {
    if (l.startsWith("```")) fenced = !fenced
    return !fenced && !l.startsWith("```")
  })
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-")

const anchorsOf = (file: string): ReadonlySet<string> =>
  new Set(
    prose(read(file))
      .map((l) => /^#{1,6} (.*)$/.exec(l)?.[1])
      .filter((h) => h !== undefined)
      .map(anchorOf)
  )

const pages = ["README.md", ...fs.readdirSync(path.join(root, "docs")).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith(".md")
)

/** What `link` (relative to `from`) leads to that is not there, or undefined. */
const broken = (from: string, link: string): string | undefined => {
  const [target = "", anchor] = link.split("#")
  const file = target === "" ? from : path.posix.join(path.posix.dirname(from), target)
  if (!fs.existsSync(path.join(root, file))) return `${from}: ${link}: no file ${file}`
  if (anchor === undefined || !file.endsWith(".md")) return undefined
  return anchorsOf(file).has(anchor) ? undefined : `${from}: ${link}: no heading of ${file} has the anchor #${anchor}`
}

describe("the README and docs/", () => {
  it("every relative link leads to a page that exists and to a heading of it", () => {
    const links = pages.flatMap((from) =>
      prose(read(from)).flatMap((l) =>
        [...l.matchAll(/\]\(([^)\s]+)\)/g)]
          .map((m) => m[1]!)
          .filter((t) => !/^[a-z]+:/.test(t))
          .map((t) => [from, t])
      )
    )
    expect(links.length).toBeGreaterThan(20)
    expect(links.map(([from, t]) => broken(from!, t!)).filter((b) => b !== undefined)).toEqual([])
  })

  it("the README links every page of docs/", () => {
    const readme = read("README.md")
    const unlinked = pages.filter((p) => p.startsWith("docs/") && !readme.includes(`](${p})`))
    expect(unlinked).toEqual([])
  })

  it("the sections the diagnostics' help points at are there", () => {
    expect(helpLinks().length).toBeGreaterThan(3)
    expect(
      helpLinks()
        .map((l) => broken("README.md", l))
        .filter((b) => b !== undefined)
    ).toEqual([])
  })

  it("CI runs the README's test command, and the README's first commands are the fresh machine's", () => {
    const readme = read("README.md")
    const ci = read(".ci/run")
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    expect(ci.slice(-2)).toEqual(["npm ci", "npm test"])
    const blocks = [...readme.matchAll(/```sh\n([^`]*)```/g)].map((m) => m[1]!.trim())
    expect(blocks.slice(0, 2)).toEqual(["npm ci && npm start", "npm test"])
  })
})
