/**
 * The one reader of replay traffic files: every replay (`waf replay`, `firewall migrate --replay`,
 * `firewall lockdowns migrate --replay`, `firewall rate-limits migrate --replay`, the TUI's) reads its
 * file, or stdin (`-`), or a pipe or FIFO as it comes, through here, and each line through
 * `trafficReader`: the line format is ./traffic-line.ts, the counts and the lines not read are
 * kept here once, and a replay only says what it does with a request.
 *
 * Time: a line's `at` (an ISO time, ms since 1970, or `"+ms"` after the previous request), else its
 * `http.request.timestamp.sec`/`.msec`. A relative time counts from the previous request's time (0
 * before the first). With `ordered` (the rate limit replay, which counts requests per period), a
 * request earlier than the one before it is a line not read, named.
 */
import * as Either from "effect/Either"
import * as fs from "node:fs"
import * as path from "node:path"
import { nodeReadline } from "../lazy-builtins.js"
import type { Request } from "./context.js"
import { parseTrafficLine, timestampOf, type LineProblem } from "./traffic-line.js"

/** A request of a traffic file: its 1-based line, its name and its time (ms since 1970, or since the first relative one) when the line gives one. */
export interface TrafficEntry {
  readonly request: Request
  readonly line: number
  readonly id?: string
  readonly at?: number
}

/** What a traffic file held: its lines (blank ones and comments included), its requests and the lines not read. */
export interface TrafficTally {
  readonly lines: number
  readonly requests: number
  readonly problems: ReadonlyArray<LineProblem>
}

export interface TrafficReader {
  /** One line of the file (1-based `line`): a request goes to the reader's callback, a bad line to its problems. */
  line(text: string, line: number): void
  tally(): TrafficTally
}

const timeText = (ms: number) => (ms >= 1e11 ? new Date(ms).toISOString() : `${ms} ms`)

/** Reads lines, hands each request to `onEntry` (`ordered`: requests must come in time order). */
export const trafficReader = (
  onEntry: (e: TrafficEntry) => void,
  options: { readonly ordered?: boolean } = {}
): TrafficReader => {
  const problems: Array<LineProblem> = []
  let lines = 0
  let requests = 0
  let last: { at: number; line: number } | undefined
  return {
    line(text, line) {
      lines++
      const read = parseTrafficLine(text)
      if (read === undefined) return
      if (Either.isLeft(read)) {
        problems.push({ line, message: read.left })
        return
      }
      const parsed = read.right
      const t = parsed.at
      const at = t === undefined ? timestampOf(parsed.request) : "rel" in t ? (last?.at ?? 0) + t.rel : t.abs
      if (options.ordered === true && at !== undefined && last !== undefined && at < last.at) {
        problems.push({
          line,
          message: `at: ${timeText(at)} is before line ${last.line}'s ${timeText(last.at)}: requests come in time order`
        })
        return
      }
      if (at !== undefined) last = { at, line }
      requests++
      onEntry({
        request: parsed.request,
        line,
        ...(parsed.id !== undefined ? { id: parsed.id } : {}),
        ...(at !== undefined ? { at } : {})
      })
    },
    tally: () => ({ lines, requests, problems })
  }
}

/** Feeds a whole text to a reader (tests, the TUI's sample file). */
export const readTrafficText = (reader: TrafficReader, text: string): TrafficTally => {
  text.split("\n").forEach((l, i) => reader.line(l, i + 1))
  return reader.tally()
}

/** The one-line reason a traffic file cannot be read, from the error opening or reading it. */
const trafficFileProblem = (file: string, e: unknown): string => {
  const err = e as NodeJS.ErrnoException
  switch (err.code) {
    case "ENOENT":
    case "ENOTDIR":
      return `traffic file ${file} does not exist${path.isAbsolute(file) ? "" : ` (looked for ${path.resolve(file)})`}`
    case "EISDIR":
      return `traffic file ${file} is a directory, not a file`
    case "EACCES":
      return `traffic file ${file} cannot be read: permission denied`
    default:
      return `traffic file ${file} cannot be read: ${err.message}`
  }
}

/** The file's stream once it is open (a FIFO opens when its writer does; `-` is stdin), and its size when it has one. */
const openInput = (file: string): Promise<{ input: NodeJS.ReadableStream; size?: number; read: () => number }> =>
  file === "-"
    ? Promise.resolve({ input: process.stdin, read: () => 0 })
    : new Promise((resolve, reject) => {
        const s = fs.createReadStream(file)
        s.once("error", reject)
        s.once("ready", () => {
          s.off("error", reject)
          const st = fs.statSync(file)
          resolve({ input: s, ...(st.isFile() ? { size: st.size } : {}), read: () => s.bytesRead })
        })
      })

/**
 * Reads `file` (a path, `-` for stdin; pipes and FIFOs as they come) line by line into `reader`.
 * `progress(bytesRead, size)` every thousand lines and at the end, for a regular file. Rejects with
 * an Error whose message is `trafficFileProblem`'s when the file cannot be opened or read.
 */
export const readTrafficFile = async (
  file: string,
  reader: Pick<TrafficReader, "line">,
  progress?: (done: number, total: number) => void
): Promise<void> => {
  try {
    const { input, size, read } = await openInput(file)
    let failed: unknown
    const rl = nodeReadline().createInterface({ input, crlfDelay: Infinity })
    input.on("error", (e) => {
      failed = e
      rl.close()
    })
    let n = 0
    for await (const line of rl) {
      reader.line(line, ++n)
      if (progress !== undefined && size !== undefined && n % 1000 === 0) progress(read(), size)
    }
    if (failed !== undefined) throw failed
    if (progress !== undefined && size !== undefined) progress(size, size)
  } catch (e) {
    throw new Error(trafficFileProblem(file, e), { cause: e })
  }
}
