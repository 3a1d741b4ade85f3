/**
 * The demo traffic file shipped in the package (package.json "files" has fixtures/), found from this
 * module's own location so that it works from any working directory: the sources (src/waf/), the
 * ESM chunks and the launcher's script (dist/) sit at different depths below the package root, so
 * the directories above are tried in turn.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

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
