/**
 * The demo traffic file shipped in the package (package.json "files" has fixtures/), found from this
 * module's own location so that it works from any working directory: the sources (src/waf/), the
 * ESM chunks and the launcher's script (dist/) sit at different depths below the package root, so
 * the directories above are tried in turn.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { isMissing } from "../domain/file-errors.js"

const SAMPLE = path.join("fixtures", "waf", "traffic-sample.jsonl")

/** The shipped sample's absolute path, or undefined when the package has none (a broken install). */
export const shippedTrafficSample = (from: string = import.meta.url): string | undefined => {
  let dir = path.dirname(fileURLToPath(from))
  for (let i = 0; i < 4; i++) {
    const candidate = path.join(dir, SAMPLE)
    if (fs.existsSync(candidate)) return candidate
    dir = path.dirname(dir)
  }
  return undefined
}

/** The one-line reason a traffic file cannot be replayed, or undefined when it can be read. */
export const trafficFileProblem = (file: string): string | undefined => {
  try {
    // A FIFO, /dev/stdin and a process substitution (`<(…)`, a /dev/fd path) are read as they
    // come, as a file is; only a directory is no traffic file.
    const st = fs.statSync(file)
    if (st.isDirectory()) return `traffic file ${file} is a directory, not a file`
    fs.accessSync(file, fs.constants.R_OK)
    return undefined
  } catch (e) {
    if (isMissing(e))
      return `traffic file ${file} does not exist${path.isAbsolute(file) ? "" : ` (looked for ${path.resolve(file)})`}`
    if ((e as NodeJS.ErrnoException).code === "EACCES") return `traffic file ${file} cannot be read: permission denied`
    return `traffic file ${file} cannot be read: ${(e as Error).message}`
  }
}
