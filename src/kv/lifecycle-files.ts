/**
 * The files of `kv export` and `kv import`: the writer of an export (a JSON array, the bulk put
 * format, or JSON Lines), the reader that turns an import's JSON Lines into that array (so one
 * checker, ./bulk-file.ts, validates both), and the checkpoints that make a remote export or import
 * resumable (`$XDG_STATE_HOME/edgectl/kv`, as migration journals are kept for `--remote`).
 */
import * as Either from "effect/Either"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { KvKey } from "../domain/kv.js"
import { nodeCrypto } from "../lazy-builtins.js"

/**
 * The path, under a namespace, of a page of its entries read straight from the in-process local
 * store (src/server/door/kv-entries-route.ts answers it, `readEntries` asks it); not a platform path.
 */
export const EntriesSegment = "entries"

/** One key as an entry of the bulk put format, its properties in the order they are written. */
export interface ExportEntry {
  readonly key: string
  readonly value: string
  readonly expiration?: number
  readonly metadata?: unknown
  readonly base64?: true
}

/**
 * A value as the bulk format writes it: as text when its bytes are UTF-8 that decodes back to the
 * same bytes, else base64 (`"base64": true`), so an import writes the very same bytes. `value` as a
 * string: text the store already found to be its bytes exactly (src/store/kv-repo.ts `listEntries`).
 */
export const entryOf = (key: KvKey, value: Uint8Array | string): ExportEntry => {
  let text: string
  let binary = false
  if (typeof value === "string") text = value
  else {
    const buf = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    text = buf.toString("utf8")
    binary = !Buffer.from(text, "utf8").equals(buf)
    if (binary) text = buf.toString("base64")
  }
  return {
    key: key.name,
    value: text,
    ...(key.expiration !== undefined ? { expiration: key.expiration } : {}),
    ...(key.metadata !== undefined && key.metadata !== null ? { metadata: key.metadata } : {}),
    ...(binary ? { base64: true as const } : {})
  }
}

export type ExportFormat = "json" | "jsonl"

/** Entries as the export writes them: each one's JSON on a line of its own (JSON Lines, no last newline). */
export const entriesText = (entries: ReadonlyArray<unknown>): string => {
  let text = ""
  for (let i = 0; i < entries.length; i++)
    text += i === 0 ? JSON.stringify(entries[i]) : `\n${JSON.stringify(entries[i])}`
  return text
}

/**
 * Writes entries to an open descriptor as they come. The JSON array puts one entry per line (`[`,
 * entries separated by `,` and a newline, `]`), so an export of an export is the same bytes.
 */
export class EntryWriter {
  private written: number
  constructor(
    /** Writes text where the export goes (a file's descriptor, or stdout, which handles a reader gone). */
    private readonly out: (text: string) => void,
    private readonly format: ExportFormat,
    /** Entries already in the file (a resumed export). */
    count = 0
  ) {
    this.written = count
  }

  get count() {
    return this.written
  }

  begin() {
    if (this.format === "json" && this.written === 0) this.out("[")
  }

  /** `count` entries as `entriesText` wrote them, one a line: written in one piece. */
  writeLines(lines: string, count: number) {
    if (count === 0) return
    this.out(
      this.format === "jsonl"
        ? `${lines}\n`
        : // An entry's JSON has no line break of its own (JSON.stringify escapes them in strings).
          `${this.written === 0 ? "\n" : ",\n"}${count === 1 ? lines : lines.replaceAll("\n", ",\n")}`
    )
    this.written += count
  }

  end() {
    if (this.format === "json") this.out(this.written === 0 ? "]\n" : "\n]\n")
  }
}

/** A directory of the run's own for the files an import makes (a copy of stdin, JSON Lines as an array). */
export const scratchDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-kv-"))

/** Whether a file's first character that is not white space opens a JSON array (else: JSON Lines). */
export const isJsonArray = (file: string): boolean => {
  const fd = fs.openSync(file, "r")
  try {
    const buf = Buffer.alloc(4096)
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null)
      if (n === 0) return true
      const text = buf
        .subarray(0, n)
        .toString("latin1")
        .replace(/^\uFEFF|^\xEF\xBB\xBF/, "")
      const m = /\S/.exec(text)
      if (m) return m[0] === "["
    }
  } finally {
    fs.closeSync(fd)
  }
}

/** A JSON Lines file that is not: the line and why. */
export class JsonLinesError {
  readonly _tag = "JsonLinesError"
  constructor(readonly message: string) {}
}

/**
 * JSON Lines (one entry per line, blank lines ignored) as the bulk format's JSON array, written to
 * `out` line by line: entry N of the array is the Nth entry line. Each line must be JSON.
 */
export const jsonLinesToArray = (
  label: string,
  file: string,
  out: string
): Either.Either<{ readonly lines: Array<number> }, JsonLinesError> => {
  const fd = fs.openSync(out, "w")
  const lines: Array<number> = []
  try {
    fs.writeSync(fd, "[")
    let rest = ""
    let lineNo = 0
    let first = true
    const take = (line: string) => {
      lineNo++
      if (line.trim() === "") return undefined
      try {
        JSON.parse(line)
      } catch (e) {
        return new JsonLinesError(`${label}:${lineNo}: not a JSON value: ${(e as Error).message}`)
      }
      fs.writeSync(fd, `${first ? "\n" : ",\n"}${line}`)
      lines.push(lineNo)
      first = false
      return undefined
    }
    const input = fs.openSync(file, "r")
    try {
      const buf = Buffer.alloc(1 << 20)
      for (;;) {
        const n = fs.readSync(input, buf, 0, buf.length, null)
        if (n === 0) break
        const text = rest + buf.subarray(0, n).toString("utf8")
        const parts = text.split("\n")
        rest = parts.pop()!
        for (const p of parts) {
          const e = take(p)
          if (e) return Either.left(e)
        }
      }
      const e = take(rest)
      if (e) return Either.left(e)
    } finally {
      fs.closeSync(input)
    }
    fs.writeSync(fd, first ? "]" : "\n]")
    return Either.right({ lines })
  } finally {
    fs.closeSync(fd)
  }
}

/** SHA-256 of a file's bytes (what an import's journal is keyed by, with the namespace). */
export const fileDigest = (file: string): string => {
  const hash = nodeCrypto().createHash("sha256")
  const fd = fs.openSync(file, "r")
  try {
    const buf = Buffer.alloc(1 << 20)
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null)
      if (n === 0) break
      hash.update(buf.subarray(0, n))
    }
  } finally {
    fs.closeSync(fd)
  }
  return hash.digest("hex")
}

/** `--remote` checkpoints: `$XDG_STATE_HOME/edgectl/kv`, or `~/.local/state/edgectl/kv`. */
const checkpointDir = (env: Readonly<Record<string, string | undefined>> = process.env) =>
  path.join(
    env.XDG_STATE_HOME !== undefined && path.isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : path.join(env.HOME ?? os.homedir(), ".local", "state"),
    "edgectl",
    "kv"
  )

/** A checkpoint file named for what it is about (a hash of the parts). */
export const checkpointPath = (kind: "import" | "export", ...parts: ReadonlyArray<string>) =>
  path.join(
    checkpointDir(),
    `${kind}-${nodeCrypto().createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 32)}.json`
  )

export const readCheckpoint = <A>(file: string): A | undefined => {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as A
  } catch {
    return undefined
  }
}

/** Written whole to a temp name, then renamed: a stop never leaves half a checkpoint. */
export const writeCheckpoint = (file: string, value: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(value))
  fs.renameSync(`${file}.tmp`, file)
}

export const removeCheckpoint = (file: string) => fs.rmSync(file, { force: true })
