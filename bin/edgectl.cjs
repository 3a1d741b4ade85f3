#!/usr/bin/env node
// The edgectl launcher: runs dist/edgectl.cjs (see build.mjs).
//
// Commands run dist/edgectl.cjs, compiled through vm.Script with a V8 code cache: compiling
// the bundle is most of a cold start, and Node 20 has no compile cache of its own. The cache lives
// in the user cache dir ($XDG_CACHE_HOME/edgectl, else ~/.cache/edgectl), keyed by Node version,
// architecture, V8 flags, bundle hash and command (below). It is written after a run, so that it holds the functions
// that run compiled; rewritten when V8 rejects it, or when a run that used the local platform follows
// one that did not (--help, --remote); and silently skipped when it cannot be read or written.
// EDGECTL_CODE_CACHE=0 turns it off.
//
// Each top-level command (zones, kv, firewall, ...) has a code cache of its own, and so has the TUI
// (`edgectl tui`, `edgectl` alone on a terminal): the first run of a build writes the functions it
// compiled, and one cache for all would hold only those of whichever command ran first (a
// `firewall rules list` after a `zones list` compiled every firewall function at each start).
//
// The launcher itself is CommonJS: an ES module entry makes Node set up its ESM loader (with
// node:fs/promises and node:readline) before anything runs, ~5 ms of every start.
const fs = require("node:fs")
const path = require("node:path")
const { pathToFileURL } = require("node:url")

const dist = path.join(__dirname, "..", "dist")
const args = process.argv.slice(2)
// Any argument spelled `tui` picks the TUI's cache: a command named so only starts a little slower.
// On a terminal, no arguments or only the TUI's options open the TUI too (src/cli/main.ts).
const tuiOptionsOnly = args.every(
  (a, i) => a === "--remote" || a === "--local" || a.startsWith("--persist-to") || args[i - 1] === "--persist-to"
)
const tui = args.includes("tui") || (tuiOptionsOnly && process.stdin.isTTY === true && process.stdout.isTTY === true)
/** Whose code cache this run reads and writes: the TUI's, the top-level command's, or the rest's (help, errors). */
const cacheName = tui ? "tui" : /^[a-z][a-z-]{0,30}$/.test(args[0] ?? "") ? args[0] : "other"

let source
try {
  // ASCII (checked by the build); latin1 gives an external string, off the V8 heap.
  source = fs.readFileSync(path.join(dist, "edgectl.cjs"), "latin1")
} catch (e) {
  // A checkout that was never built: npm ci and npm install build it (the `prepare` script).
  process.stderr.write(`error: cannot read ${path.join(dist, "edgectl.cjs")}: ${e.code ?? e.message}\n`)
  process.stderr.write("hint: build it with `npm run build` (npm ci does it too)\n")
  process.exit(1)
}
if (tui) compileYoga(source)
runScript(source)

/**
 * The TUI's layout engine (yoga) is WebAssembly, embedded in the bundle as a base64 data: URI; the
 * TUI cannot draw before it is compiled. Compiled here, synchronously: ~2-6 ms for its 70 KB, where
 * yoga's own asynchronous compile, started when the TUI's modules load, kept the first frame
 * waiting 25-50 ms (V8 finishes an asynchronous compile in tasks on the main thread, which is busy
 * loading modules until then; starting that compile here was measured and did not shorten the
 * wait). The bundle's yoga (build/patches/yoga-layout.mjs) instantiates this module. If anything is
 * odd, nothing is set and yoga compiles its own.
 */
function compileYoga(source) {
  const marker = "data:application/octet-stream;base64,AGFzbQ"
  const at = source.indexOf(marker)
  if (at < 0) return
  const from = at + marker.length - 6
  const to = source.indexOf(source[at - 1], from)
  try {
    // The launcher's channels to the bundle are named in src/launcher-hooks.ts.
    globalThis[Symbol.for("edgectl/yogaWasm")] = new globalThis.WebAssembly.Module(
      Buffer.from(source.slice(from, to), "base64")
    )
  } catch {
    // yoga's own loader reports it
  }
}

function cacheDir() {
  if (process.env.EDGECTL_CODE_CACHE === "0") return undefined
  try {
    const base =
      process.env.XDG_CACHE_HOME ||
      (process.platform === "win32" && process.env.LOCALAPPDATA) ||
      path.join(require("node:os").homedir(), ".cache")
    return path.join(base, "edgectl")
  } catch {
    return undefined
  }
}

/** The cache dir and, if missing, its parent (~/.cache); no deeper. (`mkdirSync(..., {recursive: true})`
 * never returns on some file systems, /proc for one.) */
function makeDir(dir) {
  try {
    fs.mkdirSync(dir)
  } catch (e) {
    if (e.code === "EEXIST") return
    if (e.code !== "ENOENT") throw e
    fs.mkdirSync(path.dirname(dir))
    fs.mkdirSync(dir)
  }
}

/** A short stable hash (FNV-1a) of the V8 flags, part of the cache key: V8 rejects a cache made under other flags. */
function fnv(s) {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(16)
}

function runScript(source) {
  const file = path.join(dist, "edgectl.cjs")
  const dir = cacheDir()
  const flags = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`.trim()
  // Line 1 is `//edgectl-build:<hash>`.
  const key = `v8-${process.version}-${process.arch}-${flags === "" ? "" : `${fnv(flags)}-`}${source.slice(16, source.indexOf("\n"))}-${cacheName}`
  // Level 1: written by a run that used the local platform (most of the code a command runs);
  // level 0: by any other run.
  let cachedData
  let level = -1
  if (dir !== undefined) {
    for (const l of [1, 0]) {
      try {
        cachedData = fs.readFileSync(path.join(dir, `${key}-${l}.bin`))
        level = l
        break
      } catch {
        // not there
      }
    }
  }
  const { Script } = require("node:vm")
  const script = new Script(source, { filename: file, ...(cachedData !== undefined ? { cachedData } : {}) })
  if (dir !== undefined) {
    const accepted = cachedData !== undefined && !script.cachedDataRejected
    const write = () => {
      const now = globalThis[Symbol.for("edgectl/localPlatform")] === true ? 1 : 0
      if (accepted && level >= now) return
      try {
        const data = script.createCachedData()
        makeDir(dir)
        const name = `${key}-${now}.bin`
        const tmp = path.join(dir, `${name}.${process.pid}.tmp`)
        fs.writeFileSync(tmp, data)
        fs.renameSync(tmp, path.join(dir, name))
        // Drop the other level of this build, and caches of other builds unused for a day.
        const dayAgo = Date.now() - 86_400_000
        for (const f of fs.readdirSync(dir)) {
          if (!f.startsWith("v8-") || f === name) continue
          const p = path.join(dir, f)
          if (f === `${key}-0.bin` || f === `${key}-1.bin` || fs.statSync(p).mtimeMs < dayAgo) fs.unlinkSync(p)
        }
      } catch {
        // an unwritable cache only costs speed
      }
    }
    process.once("exit", write)
    // The TUI also asks for it once its first screen is drawn: a TUI closed with its terminal
    // (SIGHUP) never reaches "exit", and would start without a cache every time. Its exit writes the
    // cache again, with the functions the session compiled since.
    if (tui) globalThis[Symbol.for("edgectl/writeCodeCache")] = write
  }
  const scriptModule = { exports: {} }
  // Module.createRequire, reached through this file's own module: require("node:module") would also
  // evaluate Node's ESM loader and source-map modules, ~1 ms of every start.
  const scriptRequire = module.constructor.createRequire(file)
  const importer = (specifier) =>
    import(specifier.startsWith(".") ? pathToFileURL(path.join(dist, specifier)).href : specifier)
  script.runInThisContext()(
    scriptModule.exports,
    scriptRequire,
    scriptModule,
    file,
    path.dirname(file),
    importer,
    pathToFileURL(file).href
  )
}
