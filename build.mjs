// Builds what bin/edgectl.cjs runs: two bundles of the same sources.
//
// - dist/main.js + chunks (ESM, splitting): the CLI with the TUI in its own lazily loaded chunk, and
//   dist/objects.js (the `edgectl/objects` export). The launcher runs it only when the CommonJS
//   script is missing.
// - dist/edgectl.cjs: the CLI and the TUI as one CommonJS script. The launcher compiles it through
//   vm.Script with a V8 code cache (Node 20 has no compile cache of its own, and compiling the
//   bundle is most of a cold start). It is made from a tree-shaken ESM build (step 1 below):
//   bundling the sources straight to CommonJS would wrap every module reached by a dynamic import()
//   in a lazy initialiser, which defeats tree shaking and evaluates whole packages (fast-check,
//   msgpackr, ...) at start-up. serve, the TUI and the SQL migrations are in the script but
//   evaluated only when used. Ink's two top-level awaits are rewritten for it
//   (inkWithoutTopLevelAwait).
//
// Settings from the stack notes: minified, production React, better-sqlite3 external in the ESM
// build (native addon), deep platform-node imports in the entry, and yaml/toml/ini replaced by a
// stub: only @effect/cli's config-file options use them, edgectl has none, and parsing those
// packages at every start costs ~5 ms.
import { build } from "esbuild"
import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"

// Chunk names carry hashes: start clean so stale chunks never ship.
rmSync("dist", { recursive: true, force: true })

/** yaml, toml and ini as a stub module that fails if anything ever parses a config file with it. */
const configFileStub = {
  name: "config-file-stub",
  setup(b) {
    b.onResolve({ filter: /^(yaml|toml|ini)$/ }, (a) => ({ path: a.path, namespace: "config-file-stub" }))
    b.onLoad({ filter: /.*/, namespace: "config-file-stub" }, (a) => ({
      contents:
        `const unsupported = () => { throw new Error(${JSON.stringify(`${a.path} configuration files are not supported by edgectl`)}) }\n` +
        "export const parse = unsupported, stringify = unsupported, decode = unsupported, encode = unsupported\n" +
        "export default { parse, stringify, decode, encode }\n",
      loader: "js"
    }))
  }
}
/**
 * A package file with some of its text replaced, for an onLoad callback: each `[from, to, times]`
 * must occur exactly `times` times (default 1), or the build stops (the package changed under us).
 */
const patched = async (file, replacements) => {
  const { readFile } = await import("node:fs/promises")
  let contents = await readFile(file, "utf8")
  for (const [from, to, times = 1] of replacements) {
    const found = contents.split(from).length - 1
    if (found !== times) throw new Error(`build: ${file} has ${JSON.stringify(from)} ${found} times, expected ${times}`)
    contents = contents.replaceAll(from, to)
  }
  return { contents, loader: "js" }
}
/**
 * Ink without top-level await, for the CommonJS script (a script cannot await at its top level):
 * yoga-layout loads its WebAssembly into a promise that tui/yoga-ready.ts exports (the TUI awaits
 * it before its first render; Ink uses Yoga only when it renders), and Ink's reconciler neither
 * waits for React devtools (stubbed in this build; DEV=true) nor reads the package.json they show.
 */
const inkWithoutTopLevelAwait = {
  name: "ink-without-top-level-await",
  setup(b) {
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, (a) =>
      patched(a.path, [
        [
          "const Yoga = wrapAssembly(await loadYoga());\nexport default Yoga;",
          "let Yoga;\nexport const yogaReady = loadYoga().then((m) => { Yoga = wrapAssembly(m) });\nexport { Yoga as default };"
        ]
      ])
    )
    b.onLoad({ filter: /ink[\\/]build[\\/]reconciler\.js$/ }, (a) =>
      patched(a.path, [
        [
          "const packageJson = isDev()\n    ? await loadPackageJson()\n    : { name: undefined, version: undefined };",
          "const packageJson = { name: undefined, version: undefined };"
        ],
        ["        await import('./devtools.js');", "        import('./devtools.js').catch(() => {});"]
      ])
    )
    b.onLoad({ filter: /[\\/]tui[\\/]yoga-ready\.ts$/ }, (a) => ({
      contents: 'export { yogaReady } from "yoga-layout"\n',
      loader: "ts",
      resolveDir: dirname(a.path)
    }))
  }
}
/**
 * fast-check as a stub: effect's Schema imports it for `Arbitrary` (property-based test data), which
 * edgectl never builds at run time; the tests import the real package from the sources. Evaluating
 * fast-check and pure-rand at every start costs a few milliseconds.
 */
const fastCheckStub = {
  name: "fast-check-stub",
  setup(b) {
    b.onResolve({ filter: /^fast-check$/ }, (a) => ({ path: a.path, namespace: "fast-check-stub" }))
    b.onLoad({ filter: /.*/, namespace: "fast-check-stub" }, () => ({
      contents:
        "const unsupported = () => { throw new Error('property-based test data (fast-check) is not part of the edgectl bundle') }\n" +
        "export const array = unsupported\n",
      loader: "js"
    }))
  }
}
/**
 * yoga-layout (Ink's layout engine) embeds its wasm as a data: URI and, finding `fetch`, fetches
 * it: on Node 20 the first call of `fetch` loads undici, 20-30 ms of every TUI start. Its loader
 * decodes the data: URI itself when it takes the other branch, which this makes it take.
 */
const yogaWithoutFetch = {
  name: "yoga-without-fetch",
  setup(b) {
    // Two places choose: reading the binary, and instantiating it.
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (a) =>
      patched(a.path, [['||"function"!=typeof fetch?', "||true?", 2]])
    )
  }
}
/**
 * Ink drawn on the terminal even where `CI` is set. Ink reads is-in-ci once at load and, in CI,
 * writes nothing until the app exits (the last frame only): a TUI opened in a terminal of a CI
 * runner, or by a user whose shell exports CI=true, stayed blank. edgectl opens the TUI only when
 * stdin and stdout are terminals (src/cli/commands/tui.ts), so the question is answered already.
 */
const inkOnTerminalInCi = {
  name: "ink-on-terminal-in-ci",
  setup(b) {
    b.onResolve({ filter: /^is-in-ci$/ }, (a) => ({ path: a.path, namespace: "ink-on-terminal-in-ci" }))
    b.onLoad({ filter: /.*/, namespace: "ink-on-terminal-in-ci" }, () => ({
      contents: "export default false\n",
      loader: "js"
    }))
  }
}
/**
 * Ink's incremental rendering (the TUI's default: only changed lines are written) moved the cursor
 * up one line too few when the last frame ended with a newline, which Ink adds to every frame
 * shorter than the terminal (the TUI's frame is one row short): each frame was drawn one line
 * lower. The cursor then sits below the frame's last line, so it goes up the frame's full height.
 */
const inkIncrementalAfterNewline = {
  name: "ink-incremental-after-newline",
  setup(b) {
    b.onLoad({ filter: /ink[\\/]build[\\/]log-update\.js$/ }, (a) =>
      patched(a.path, [
        [
          "buffer.push(ansiEscapes.cursorUp(previousVisible - 1));",
          "buffer.push(ansiEscapes.cursorUp(previousVisible - (previousOutput.endsWith('\\n') ? 0 : 1)));"
        ]
      ])
    )
  }
}
/**
 * Effect's packages by module, never by index, in edgectl's own sources: `import * as Effect from
 * "effect/Effect"`, not `import { Effect } from "effect"`. esbuild splits chunks by file: a chunk
 * that imports a package's index reaches every module of it that any other chunk uses, so one
 * index import at start-up evaluated most of effect, @effect/platform (HttpApiBuilder, its router,
 * OpenApi) and @effect/cli for every command, and made the script 60% larger.
 */
const modulesNotIndexes = {
  name: "modules-not-indexes",
  setup(b) {
    b.onResolve({ filter: /^(effect|@effect\/[a-z-]+)$/ }, (a) => {
      if (
        a.importer.includes("node_modules") ||
        !/[\\/](src|tui)[\\/]/.test(a.importer) ||
        /\.test\.tsx?$/.test(a.importer)
      )
        return undefined
      return {
        errors: [
          { text: `import from "${a.path}/<Module>" instead of "${a.path}" (see modulesNotIndexes in build.mjs)` }
        ]
      }
    })
  }
}
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
  logLevel: "warning"
}
/** What both ESM builds of the sources apply (the CommonJS script adds inkWithoutTopLevelAwait). */
const sourcePlugins = [
  modulesNotIndexes,
  configFileStub,
  fastCheckStub,
  yogaWithoutFetch,
  inkOnTerminalInCi,
  inkIncrementalAfterNewline
]
const requireBanner = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);"

// The ESM build that ships (TUI path).
await build({
  ...common,
  entryPoints: { main: "src/cli/main.ts", tui: "tui/app.tsx", objects: "src/objects/index.ts" },
  outdir: "dist",
  format: "esm",
  splitting: true,
  external: ["better-sqlite3", "esbuild"],
  plugins: sourcePlugins,
  banner: { js: requireBanner }
})

// Step 1: the same ESM build of the CLI and the TUI, tree-shaken, in a temp dir.
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
    plugins: [...sourcePlugins, inkWithoutTopLevelAwait],
    banner: { js: requireBanner }
  })

  // Step 2: one CommonJS script from it. better-sqlite3's JavaScript is bundled too (it is then in
  // the code cache); its native addon is loaded from the installed package, without `bindings`'
  // search of the file system unless the usual path is missing.
  const sqliteAddon = {
    name: "sqlite-addon",
    setup(b) {
      const direct =
        "(() => { const p = require('node:path'); const root = p.dirname(require.resolve('better-sqlite3/package.json'));" +
        " try { return require(p.join(root, 'build', 'Release', 'better_sqlite3.node')) }" +
        " catch { return require('bindings')({ bindings: 'better_sqlite3.node', module_root: root }) } })()"
      b.onLoad({ filter: /better-sqlite3[\\/]lib[\\/]database\.js$/ }, (a) =>
        patched(a.path, [["require('bindings')('better_sqlite3.node')", direct]])
      )
    }
  }
  const cjs = await build({
    ...common,
    entryPoints: [join(stage, "main.js")],
    outfile: "dist/edgectl.cjs",
    format: "cjs",
    write: false,
    external: ["bindings", "better-sqlite3/package.json", "*.node", "esbuild"],
    // The ESM chunks' `createRequire(import.meta.url)`: the launcher passes the script's URL.
    define: { "import.meta.url": "__edgectl_url" },
    plugins: [sqliteAddon]
  })
  let code = cjs.outputFiles[0].text
  // A script compiled by vm.Script has no module loader of its own: dynamic import() goes through the
  // launcher's importer (relative specifiers resolve against dist/), passed in as `__edgectl_import`.
  code = code.replace(/(?<![\w$.])import\(/g, "__edgectl_import(")
  // Line 1 names the build (the launcher keys its code cache on it); the rest evaluates to a
  // function, strict as the ESM sources are.
  const body = `(function (exports, require, module, __filename, __dirname, __edgectl_import, __edgectl_url) {"use strict";${code}\n})`
  // The launcher reads the script as latin1, which Node keeps off the V8 heap for a file this size
  // (an external string): that only gives the right text for ASCII, esbuild's default charset.
  if (process.env.EDGECTL_NO_MINIFY !== "1" && /[^\x00-\x7f]/.test(body))
    throw new Error("build: dist/edgectl.cjs must be ASCII (esbuild charset)")
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16)
  writeFileSync("dist/edgectl.cjs", `//edgectl-build:${hash}\n${body}`)
} finally {
  rmSync(stage, { recursive: true, force: true })
}
