// Builds what bin/edgectl.cjs runs, and the package's `edgectl/objects` export.
//
// - dist/edgectl.cjs: the CLI and the TUI as one CommonJS script. The launcher compiles it through
//   vm.Script with a V8 code cache (Node 20 has no compile cache of its own, and compiling the
//   bundle is most of a cold start). It is made from a tree-shaken ESM build (step 1 below):
//   bundling the sources straight to CommonJS would wrap every module reached by a dynamic import()
//   in a lazy initialiser, which defeats tree shaking and evaluates whole packages (fast-check,
//   msgpackr, ...) at start-up. serve, the TUI and the SQL migrations are in the script but
//   evaluated only when used.
// - dist/objects.js (ESM): `import { ObjectHost } from "edgectl/objects"` (package.json "exports").
//
// Settings from the stack notes: minified, production React, better-sqlite3 external in the ESM
// builds (native addon), deep platform-node imports in the entry. What the bundle changes in
// third-party packages is in build/patches/, one file per package, each naming the version it was
// written for: another installed version stops the build (build/patch.mjs).
import { build } from "esbuild"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { modulesNotIndexes } from "./build/modules-not-indexes.mjs"
import { sqliteAddon } from "./build/patches/better-sqlite3.mjs"
import { configFileStub } from "./build/patches/config-files.mjs"
import {
  effectLazyClockOrigin,
  effectLazyParsers,
  effectLazyStdoutCheck,
  effectNoStackProbe
} from "./build/patches/effect.mjs"
import { fastCheckStub } from "./build/patches/fast-check.mjs"
import {
  inkIncrementalFrames,
  inkOnTerminalInCi,
  inkOutputGrid,
  inkReconcilerWithoutTopLevelAwait
} from "./build/patches/ink.mjs"
import { yogaWithoutFetch, yogaWithoutTopLevelAwait } from "./build/patches/yoga-layout.mjs"
import { rewriteDynamicImports, scriptCreateRequire, scriptText } from "./build/script.mjs"

// Chunk names carry hashes: start clean so stale chunks never ship.
rmSync("dist", { recursive: true, force: true })

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  minify: process.env.EDGECTL_NO_MINIFY !== "1",
  sourcemap: false,
  jsx: "automatic",
  legalComments: "none",
  define: {
    "process.env.NODE_ENV": '"production"',
    EDGECTL_VERSION: JSON.stringify(JSON.parse(readFileSync("package.json", "utf8")).version)
  },
  // jsonc-parser's main (UMD) build loads its parts with a require() esbuild cannot follow; its ESM build bundles.
  alias: {
    "react-devtools-core": "./src/stubs/react-devtools-core.js",
    "jsonc-parser": "./node_modules/jsonc-parser/lib/esm/main.js"
  },
  // The patches' checks (build/patch.mjs) read which files the bundle holds.
  metafile: true,
  // A name read from a module that lacks it (a stub missing a name a package update started to use).
  logOverride: { "import-is-undefined": "error" },
  logLevel: "warning"
}
/** What every ESM build of the sources applies (the CommonJS script adds the top-level-await patches). */
const sourcePlugins = [
  modulesNotIndexes,
  configFileStub,
  fastCheckStub,
  yogaWithoutFetch,
  inkOnTerminalInCi,
  inkIncrementalFrames,
  inkOutputGrid
]
const requireBanner = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);"

// The `edgectl/objects` export.
await build({
  ...common,
  entryPoints: { objects: "src/objects/index.ts" },
  outdir: "dist",
  format: "esm",
  external: ["better-sqlite3", "esbuild"],
  plugins: sourcePlugins,
  banner: { js: requireBanner }
})

// The JSON Schemas shipped in schemas/ (package.json "files"), written from src/lsp/json-schemas.ts,
// which the language server's completion reads too: one source.
{
  const built = await build({
    ...common,
    entryPoints: ["src/lsp/json-schemas.ts"],
    format: "esm",
    write: false,
    plugins: sourcePlugins,
    banner: { js: requireBanner }
  })
  mkdirSync(join("node_modules", ".cache"), { recursive: true })
  const module = join(mkdtempSync(join("node_modules", ".cache", "edgectl-schemas-")), "schemas.mjs")
  writeFileSync(module, built.outputFiles[0].text)
  const m = await import(pathToFileURL(module).href)
  rmSync(dirname(module), { recursive: true, force: true })
  mkdirSync("schemas", { recursive: true })
  for (const [file, schema] of m.JSON_SCHEMAS) writeFileSync(join("schemas", file), m.schemaText(schema))
}

// The thread that commits a large KV bulk on a connection of its own (src/store/commit-worker.ts),
// beside the script that starts it; better-sqlite3 bundled as in the script.
await build({
  ...common,
  entryPoints: { "commit-worker": "src/store/commit-worker-entry.ts" },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  external: ["bindings", "better-sqlite3/package.json", "*.node"],
  // The worker never starts a worker: where the script is (commit-worker.ts) is not asked there.
  define: { ...common.define, "import.meta.url": '""' },
  plugins: [...sourcePlugins, sqliteAddon]
})

// Step 1: an ESM build of the CLI and the TUI, tree-shaken, in a temp dir.
// The temp dir is inside node_modules: step 2 bundles from it and must resolve better-sqlite3 (a
// dir under the system temp dir has no node_modules above it).
mkdirSync(join("node_modules", ".cache"), { recursive: true })
const stage = mkdtempSync(join("node_modules", ".cache", "edgectl-build-"))
try {
  await build({
    ...common,
    entryPoints: { main: "src/cli/main.ts" },
    outdir: stage,
    format: "esm",
    splitting: true,
    minify: false,
    external: ["better-sqlite3", "esbuild"],
    plugins: [
      ...sourcePlugins,
      effectLazyParsers,
      effectLazyClockOrigin,
      effectNoStackProbe,
      effectLazyStdoutCheck,
      inkReconcilerWithoutTopLevelAwait,
      yogaWithoutTopLevelAwait
    ],
    banner: { js: requireBanner }
  })

  // Step 2: one CommonJS script from it, better-sqlite3's JavaScript included.
  const cjs = await build({
    ...common,
    entryPoints: [join(stage, "main.js")],
    outfile: "dist/edgectl.cjs",
    format: "cjs",
    write: false,
    external: ["bindings", "better-sqlite3/package.json", "*.node", "esbuild"],
    // The ESM chunks' `createRequire(import.meta.url)`: the launcher passes the script's URL.
    define: { "import.meta.url": "__edgectl_url" },
    plugins: [sqliteAddon, scriptCreateRequire]
  })
  const [output] = Object.values(cjs.metafile.outputs)
  const code = rewriteDynamicImports(cjs.outputFiles[0].text, output)
  writeFileSync("dist/edgectl.cjs", scriptText(code, { ascii: process.env.EDGECTL_NO_MINIFY !== "1" }))
} finally {
  rmSync(stage, { recursive: true, force: true })
}
