/**
 * `edgectl check` output: text (file:line:col, the line and a caret, as `rules check` prints),
 * JSON, and SARIF 2.1.0 for code scanning in CI.
 */
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import type { Finding, Fix } from "./findings.js"
import { LineIndex } from "./position.js"

export interface FileResult {
  readonly path: string
  readonly text: string
  readonly kind: string | undefined
  readonly findings: ReadonlyArray<Finding>
}

const WINDOW = 100
const paint = (on: boolean, code: string, s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s)
const COLOR = { error: "31;1", warning: "33;1", information: "36;1" } as const

const renderOne = (file: FileResult, lines: LineIndex, f: Finding, color: boolean): string => {
  const start = lines.position(f.range.start)
  const text = lines.line(start.line)
  const endPos = lines.position(f.range.end)
  const endCol = endPos.line === start.line ? endPos.character : text.length
  let from = 0
  if (text.length > WINDOW) from = Math.max(0, Math.min(start.character - 30, text.length - WINDOW))
  const to = Math.min(text.length, from + WINDOW)
  const lead = from > 0 ? "…" : ""
  const shown = `${lead}${text.slice(from, to).replace(/\t/g, " ")}${to < text.length ? "…" : ""}`
  const width = Math.max(1, Math.min(endCol, to) - start.character)
  const caret = " ".repeat(start.character - from + lead.length) + "^".repeat(width)
  const num = String(start.line + 1)
  const gutter = " ".repeat(num.length)
  const out = [
    `${paint(color, COLOR[f.severity], `${f.severity}[${f.code}]`)}: ${f.message}`,
    `${gutter}--> ${file.path}:${start.line + 1}:${start.character + 1}`,
    `${gutter} |`,
    `${num} | ${shown}`,
    `${gutter} | ${paint(color, COLOR[f.severity], caret)}`
  ]
  if (f.hint) out.push(`${gutter} = hint: ${f.hint}`)
  for (const r of f.related ?? []) {
    const p = lines.position(r.range.start)
    out.push(`${gutter} = note: ${file.path}:${p.line + 1}:${p.character + 1}: ${r.message}`)
  }
  return out.join("\n")
}

export const renderText = (files: ReadonlyArray<FileResult>, color: boolean): string => {
  const blocks: Array<string> = []
  for (const file of files) {
    const lines = new LineIndex(file.text)
    for (const f of file.findings) blocks.push(renderOne(file, lines, f, color))
  }
  return blocks.length ? `${blocks.join("\n\n")}\n` : ""
}

export const counts = (files: ReadonlyArray<FileResult>) => {
  const all = files.flatMap((f) => f.findings)
  return {
    errors: all.filter((f) => f.severity === "error").length,
    warnings: all.filter((f) => f.severity === "warning").length,
    notes: all.filter((f) => f.severity === "information").length
  }
}

const jsonRange = (lines: LineIndex, r: { start: number; end: number }) => {
  const s = lines.position(r.start)
  const e = lines.position(r.end)
  return {
    start: { line: s.line + 1, column: s.character + 1, offset: r.start },
    end: { line: e.line + 1, column: e.character + 1, offset: r.end }
  }
}

export const renderJson = (files: ReadonlyArray<FileResult>) => ({
  ...counts(files),
  files: files.map((file) => {
    const lines = new LineIndex(file.text)
    return {
      path: file.path,
      kind: file.kind ?? null,
      diagnostics: file.findings.map((f) => ({
        severity: f.severity,
        code: f.code,
        message: f.message,
        ...(f.hint ? { hint: f.hint } : {}),
        range: jsonRange(lines, f.range),
        ...(f.related
          ? { related: f.related.map((r) => ({ message: r.message, range: jsonRange(lines, r.range) })) }
          : {}),
        fixes: (f.fixes ?? []).map((x) => x.title)
      }))
    }
  })
})

const SARIF_LEVEL = { error: "error", warning: "warning", information: "note" } as const

/**
 * Where each kind of diagnostic code is explained: a section of the package's `docs/` pages (the
 * project has no web pages), by page and anchor (test/docs-links.test.ts checks each is there).
 */
const HELP: ReadonlyArray<readonly [RegExp, string, string]> = [
  [
    /^DEP-/,
    "Find what is going away: `edgectl scan`",
    "docs/legacy-migrations.md#find-what-is-going-away-edgectl-scan"
  ],
  [/^kv-|^json-syntax$/, "Key-value store: `edgectl kv` (bulk files)", "docs/kv.md#key-value-store-edgectl-kv"],
  [/^waf-/, "WAF migration: `edgectl waf`", "docs/waf.md#waf-migration-edgectl-waf"],
  [
    /^firewall-/,
    "Firewall filters and rules: `edgectl firewall`",
    "docs/firewall.md#firewall-filters-and-rules-edgectl-firewall"
  ],
  [
    /^(terraform|hcl)-/,
    "Migration assistant: `edgectl lsp` and `edgectl check`",
    "docs/editor.md#migration-assistant-edgectl-lsp-and-edgectl-check"
  ],
  [/./, "Rules language", "docs/rules.md#rules-language"]
]

/** The pages and anchors the diagnostics' help links to, for the test that each is there. */
export const helpLinks = (): ReadonlyArray<string> => HELP.map(([, , link]) => link)

const ruleHelp = (id: string) => {
  const [, section, link] = HELP.find(([re]) => re.test(id))!
  const page = link.slice(0, link.indexOf("#"))
  return {
    text: `${id.replace(/-/g, " ")}: see "${section}" in edgectl's ${page} (\`edgectl --help\` lists the commands)`,
    markdown: `\`${id}\`: see [${section}](${link}) in edgectl's documentation`
  }
}

/** A file's SARIF artifact location: relative paths against %SRCROOT% (the directory `check` ran in), absolute ones as file URIs. */
const artifact = (path: string) => {
  const p = path.replace(/\\/g, "/")
  if (p.startsWith("/") || /^[A-Za-z]:\//.test(p)) return { uri: pathToFileURL(path).href }
  return { uri: p.split("/").map(encodeURIComponent).join("/"), uriBaseId: "%SRCROOT%" }
}

const region = (lines: LineIndex, r: { start: number; end: number }) => {
  const s = lines.position(r.start)
  const e = lines.position(r.end)
  return {
    startLine: s.line + 1,
    startColumn: s.character + 1,
    endLine: e.line + 1,
    endColumn: e.character + 1,
    charOffset: r.start,
    charLength: r.end - r.start
  }
}

/**
 * A code action as a SARIF fix (§3.55): the same edits the editor applies, as replacements of the
 * checked file; a written file (the equivalent custom rules) as an insertion at the start of that
 * new file, which SARIF has no other way to say. A fix that only names a command has no change.
 */
const sarifFix = (file: FileResult, lines: LineIndex, fix: Fix) => {
  // A file written with CRLF line ends gets its inserted lines with CRLF too (a CI tool applies them as they are).
  const crlf = file.text.includes("\r\n")
  const eol = (t: string) => (crlf ? t.replace(/\r?\n/g, "\r\n") : t)
  const changes: Array<object> = []
  if (fix.edits !== undefined && fix.edits.length > 0)
    changes.push({
      artifactLocation: artifact(file.path),
      replacements: fix.edits.map((e) => ({
        deletedRegion: region(lines, e.range),
        insertedContent: { text: eol(e.newText) }
      }))
    })
  if (fix.create !== undefined)
    changes.push({
      artifactLocation: artifact(path.join(path.dirname(file.path), fix.create.name)),
      replacements: [
        {
          deletedRegion: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1, charOffset: 0, charLength: 0 },
          insertedContent: { text: fix.create.text }
        }
      ]
    })
  if (changes.length === 0) return undefined
  return {
    description: { text: fix.message !== undefined ? `${fix.title}\n${fix.message}` : fix.title },
    artifactChanges: changes
  }
}

/** SARIF 2.1.0: one run, one rule per diagnostic code; regions are 1-based lines and UTF-16 columns. */
export const renderSarif = (files: ReadonlyArray<FileResult>, version: string, cwd = process.cwd()) => {
  const ruleIds = [...new Set(files.flatMap((f) => f.findings.map((x) => x.code)))].sort()
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "edgectl",
            version,
            rules: ruleIds.map((id) => ({
              id,
              name: id,
              shortDescription: { text: id.replace(/-/g, " ") },
              help: ruleHelp(id)
            }))
          }
        },
        originalUriBaseIds: { "%SRCROOT%": { uri: pathToFileURL(cwd.endsWith("/") ? cwd : `${cwd}/`).href } },
        columnKind: "utf16CodeUnits",
        results: files.flatMap((file) => {
          const lines = new LineIndex(file.text)
          const location = artifact(file.path)
          // A fix several findings share (a zone's ruleset, offered on each of its resources) is
          // written once, on the first of them; the others point there. Written on each, a file of
          // n rules carried n copies of an n-rule ruleset (500 pairs gave a 337 MB log).
          const firstOf = new Map<Fix, Finding>()
          return file.findings.map((f) => {
            const shared: Array<Finding> = []
            const fixes = (f.fixes ?? []).flatMap((x) => {
              const first = firstOf.get(x)
              if (first !== undefined) {
                shared.push(first)
                return []
              }
              firstOf.set(x, f)
              return sarifFix(file, lines, x) ?? []
            })
            const related = [
              ...(f.related ?? []),
              ...shared.map((first) => ({
                range: first.range,
                message: `the fix for this finding is offered once, on the ${first.code} finding here, for every finding it fixes`
              }))
            ]
            return {
              ruleId: f.code,
              ruleIndex: ruleIds.indexOf(f.code),
              level: SARIF_LEVEL[f.severity],
              message: { text: f.hint ? `${f.message} (hint: ${f.hint})` : f.message },
              locations: [{ physicalLocation: { artifactLocation: location, region: region(lines, f.range) } }],
              ...(related.length > 0
                ? {
                    relatedLocations: related.map((r, id) => ({
                      id,
                      message: { text: r.message },
                      physicalLocation: { artifactLocation: location, region: region(lines, r.range) }
                    }))
                  }
                : {}),
              ...(fixes.length > 0 ? { fixes } : {})
            }
          })
        })
      }
    ]
  }
}
