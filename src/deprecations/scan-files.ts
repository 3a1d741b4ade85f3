/**
 * The scanner over a code base: the files of the named paths (directories walked in name order;
 * hidden directories but CI ones, node_modules and vendor not entered) that have a language the
 * scanner reads, each scanned with its Terraform module's provider pin (any *.tf or *.tf.json of
 * its directory may hold it, as Terraform reads a directory as one module).
 */
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { languageOf, scanText, type Hit, type Language } from "./scan-text.js"
import { pinIn } from "./terraform.js"

interface ScannedFile {
  readonly path: string
  readonly text: string
  readonly language: Language
  readonly hits: ReadonlyArray<Hit>
}

export interface ScanRun {
  readonly files: ReadonlyArray<ScannedFile>
  /** How many files were read (with findings or not). */
  readonly scanned: number
  /** One line each: a path that does not exist or cannot be read. */
  readonly problems: ReadonlyArray<string>
}

const SKIP_DIRS = new Set(["node_modules", "vendor"])
// Hidden directories are tools' state (.git, .terraform, .venv), but for the CI configurations.
const CI_DIRS = new Set([".github", ".gitlab", ".circleci", ".buildkite"])
// Files larger than this are generated or data (lock files, bundles): not read.
const MAX_BYTES = 4 * 1024 * 1024

const filesIn = (dir: string, out: Array<string>) => {
  const entries = fs.readdirSync(dir, { withFileTypes: true })
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const e of entries) {
    const full = nodePath.join(dir, e.name)
    if (e.isDirectory()) {
      if ((!e.name.startsWith(".") || CI_DIRS.has(e.name)) && !SKIP_DIRS.has(e.name)) filesIn(full, out)
    } else if (e.isFile() && languageOf(e.name) !== undefined) out.push(full)
  }
}

/** The provider constraint of a module directory: the first *.tf / *.tf.json in it that pins one. */
export const modulePinOf = (dir: string, cache: Map<string, string | undefined>): string | undefined => {
  if (cache.has(dir)) return cache.get(dir)
  let pin: string | undefined
  try {
    const names = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith(".tf") || n.endsWith(".tf.json"))
      .sort()
    for (const n of names) {
      pin = pinIn(fs.readFileSync(nodePath.join(dir, n), "utf8"), n.endsWith(".json"))
      if (pin !== undefined) break
    }
  } catch {
    pin = undefined
  }
  cache.set(dir, pin)
  return pin
}

export const scanPaths = (paths: ReadonlyArray<string>, now: Date): ScanRun => {
  const problems: Array<string> = []
  const files: Array<string> = []
  for (const p of paths) {
    const st = fs.statSync(p, { throwIfNoEntry: false })
    if (st === undefined) problems.push(`scan ${p}: no such file or directory`)
    else if (st.isDirectory()) filesIn(p, files)
    else if (languageOf(p) === undefined)
      problems.push(
        `scan ${p}: unknown kind of file: expected shell, TypeScript/JavaScript, Python, Go, Terraform, JSON, *.rules or wrangler/YAML/TOML configuration`
      )
    else files.push(p)
  }
  const pins = new Map<string, string | undefined>()
  const out: Array<ScannedFile> = []
  let scanned = 0
  for (const path of files) {
    const language = languageOf(path)!
    let text: string
    try {
      if (fs.statSync(path).size > MAX_BYTES) continue
      text = fs.readFileSync(path, "utf8")
    } catch (e) {
      problems.push(`scan ${path}: cannot read it: ${(e as Error).message}`)
      continue
    }
    scanned++
    const terraform = language === "terraform" || language === "terraform-json"
    const pin = terraform ? modulePinOf(nodePath.dirname(path), pins) : undefined
    const hits = scanText(text, language, { now, pin })
    if (hits.length > 0) out.push({ path, text, language, hits })
  }
  return { files: out, scanned, problems }
}
