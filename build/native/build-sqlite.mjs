// Builds the SQLite binding that objects' databases open (package.json "postinstall"; by hand:
// `npm run build:sqlite`). It is better-sqlite3 12.11.1's own addon with a few methods added to
// its Database (build/native/sqlite-guard.cpp): the platform's authorizer, limits and
// double-quoted strings need sqlite3_set_authorizer, sqlite3_limit and sqlite3_db_config, which
// better-sqlite3 does not expose. The copy is built beside the package, in
// node_modules/.edgectl-sqlite/, and links the SQLite library better-sqlite3's own install left
// in its build/ directory (the amalgamation is compiled only when that library is missing).
// Another better-sqlite3 version stops here: the patch below was written against 12.11.1's files.
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const VERSION = "12.11.1"
const here = dirname(fileURLToPath(import.meta.url))
const projectRequire = createRequire(join(here, "..", "..", "package.json"))
const root = dirname(projectRequire.resolve("better-sqlite3/package.json"))
const fail = (message) => {
  console.error(`edgectl: cannot build the SQLite binding for objects: ${message}`)
  process.exit(1)
}

const installed = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version
if (installed !== VERSION)
  fail(
    `build/native/build-sqlite.mjs patches better-sqlite3 ${VERSION}, but ${installed} is installed (${root}); update the patch for it`
  )

const OUT = join(dirname(root), ".edgectl-sqlite")
const addon = join(OUT, "build", "Release", "better_sqlite3.node")
const guard = readFileSync(join(here, "sqlite-guard.cpp"), "utf8")
const staticLib = join(root, "build", "Release", "sqlite3.a")
const header = join(root, "build", "Release", "obj", "gen", "sqlite3")
const linkPrebuilt = existsSync(staticLib) && existsSync(join(header, "sqlite3.h"))
const stamp = createHash("sha256")
  .update(
    [VERSION, process.version, process.arch, guard, readFileSync(fileURLToPath(import.meta.url), "utf8")].join("\0")
  )
  .update(linkPrebuilt ? readFileSync(staticLib) : "amalgamation")
  .digest("hex")
const stampFile = join(OUT, "stamp")
if (existsSync(addon) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) process.exit(0)

/** Replaces `from` by `to` in a copied file; a missing `from` means the file is not 12.11.1's. */
const patch = (file, from, to) => {
  const path = join(OUT, file)
  const text = readFileSync(path, "utf8")
  if (!text.includes(from)) fail(`${file} does not hold the text the patch expects (${JSON.stringify(from)})`)
  writeFileSync(path, text.replace(from, to))
}

rmSync(OUT, { recursive: true, force: true })
mkdirSync(OUT, { recursive: true })
cpSync(join(root, "src"), join(OUT, "src"), { recursive: true })
cpSync(join(root, "deps"), join(OUT, "deps"), {
  recursive: true,
  filter: (src) => !(linkPrebuilt && src.startsWith(join(root, "deps", "sqlite3")))
})
writeFileSync(join(OUT, "src", "objects", "edgectl-guard.cpp"), guard)
patch(
  "src/objects/database.hpp",
  "\tstatic NODE_GETTER(JS_open);",
  [
    "\tstatic NODE_METHOD(JS_edgectlGuardConfigure);",
    "\tstatic NODE_METHOD(JS_edgectlGuard);",
    "\tstatic NODE_METHOD(JS_edgectlDoubleQuotedStrings);",
    "\tstatic NODE_METHOD(JS_edgectlErrorOffset);",
    "\tstatic int EdgectlAuthorize(void* self, int action, const char* a, const char* b, const char* db_name, const char* trigger);",
    "\tstatic NODE_GETTER(JS_open);"
  ].join("\n")
)
patch(
  "src/objects/database.hpp",
  "\tstd::set<Backup*, CompareBackup> backups;\n};",
  [
    "\tstd::set<Backup*, CompareBackup> backups;",
    "\tv8::Global<v8::Function> edgectl_authorizer;",
    "\tstd::vector<int> edgectl_limits;",
    "\tstd::vector<int> edgectl_saved;",
    "\tbool edgectl_guarded = false;",
    "};"
  ].join("\n")
)
patch(
  "src/objects/database.cpp",
  '\tSetPrototypeGetter(isolate, data, t, "open", JS_open);',
  [
    '\tSetPrototypeMethod(isolate, data, t, "edgectlGuardConfigure", JS_edgectlGuardConfigure);',
    '\tSetPrototypeMethod(isolate, data, t, "edgectlGuard", JS_edgectlGuard);',
    '\tSetPrototypeMethod(isolate, data, t, "edgectlDoubleQuotedStrings", JS_edgectlDoubleQuotedStrings);',
    '\tSetPrototypeMethod(isolate, data, t, "edgectlErrorOffset", JS_edgectlErrorOffset);',
    '\tSetPrototypeGetter(isolate, data, t, "open", JS_open);'
  ].join("\n")
)
const cpp = join(OUT, "src", "objects", "database.cpp")
writeFileSync(cpp, `${readFileSync(cpp, "utf8")}\n#include "edgectl-guard.cpp"\n`)

// Only the addon: better-sqlite3's test extension is not needed.
const flags = {
  cflags_cc: ["-std=c++20"],
  ldflags: ["-Wl,-Bsymbolic", "-Wl,--exclude-libs,ALL"]
}
const target = linkPrebuilt
  ? {
      target_name: "better_sqlite3",
      sources: ["src/better_sqlite3.cpp"],
      include_dirs: [header],
      libraries: [staticLib],
      ...flags
    }
  : {
      target_name: "better_sqlite3",
      dependencies: ["deps/sqlite3.gyp:sqlite3"],
      sources: ["src/better_sqlite3.cpp"],
      ...flags
    }
writeFileSync(join(OUT, "binding.gyp"), JSON.stringify({ includes: ["deps/common.gypi"], targets: [target] }, null, 2))

// node-gyp as npm ships it: npm passes its path to lifecycle scripts; by hand, beside npm itself.
const nodeGyp = () => {
  const candidates = []
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp)
  if (process.env.npm_execpath)
    candidates.push(join(dirname(process.env.npm_execpath), "..", "node_modules", "node-gyp", "bin", "node-gyp.js"))
  try {
    const npm = realpathSync(execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim())
    candidates.push(join(dirname(npm), "..", "node_modules", "node-gyp", "bin", "node-gyp.js"))
  } catch {
    // no npm on PATH: the candidates above only
  }
  candidates.push(
    join(
      dirname(process.execPath),
      "..",
      "lib",
      "node_modules",
      "npm",
      "node_modules",
      "node-gyp",
      "bin",
      "node-gyp.js"
    )
  )
  const found = candidates.find((c) => existsSync(c))
  if (found === undefined) fail(`node-gyp not found (looked at ${candidates.join(", ")})`)
  return found
}
// Node's headers: npm's nodedir setting (Debian's nodejs keeps them in /usr/include/node), so
// node-gyp never downloads them.
const nodedir = () => {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir
  try {
    const dir = execFileSync("npm", ["config", "get", "nodedir"], { encoding: "utf8" }).trim()
    if (dir !== "" && dir !== "undefined" && dir !== "null") return dir
  } catch {
    // npm not runnable: node-gyp's own default
  }
  return undefined
}
const dir = nodedir()
const args = [nodeGyp(), "rebuild", "--release", "-j", "max", ...(dir === undefined ? [] : [`--nodedir=${dir}`])]
console.error(`edgectl: building the SQLite binding for objects in ${OUT}${linkPrebuilt ? "" : " (compiling SQLite)"}`)
try {
  execFileSync(process.execPath, args, { cwd: OUT, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 })
} catch (e) {
  console.error(String(e.stdout ?? ""), String(e.stderr ?? ""))
  fail(`node-gyp failed in ${OUT} (output above); rebuild with \`npm run build:sqlite\``)
}
try {
  const loaded = createRequire(import.meta.url)(addon)
  if (typeof loaded.Database?.prototype?.edgectlGuard !== "function") fail(`${addon} lacks edgectl's methods`)
} catch (e) {
  fail(`${addon} does not load: ${e.message}`)
}
writeFileSync(stampFile, stamp)
