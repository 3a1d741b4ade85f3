// The CommonJS script's last step: dynamic import() handed to the launcher, the function wrapper,
// the build hash. The rewrite is a regex over the bundle's text, so the build counts what it
// replaced against what esbuild says the bundle imports, and stops on any difference.
import { createHash } from "node:crypto"

/**
 * Dynamic `import(` calls of a script that vm.Script compiles: such a script has no module loader of
 * its own, so they go through the launcher's importer (relative specifiers resolve against dist/),
 * passed in as `__edgectl_import`.
 */
const DynamicImport = /(?<![\w$.])import\(/g

/**
 * `import(` sites whose specifier is not a string literal, so esbuild cannot list them: the one in
 * src/objects/module-loader.ts (a user's object module, by file URL). Update with the sources.
 */
export const NON_LITERAL_IMPORTS = 1

/**
 * `code` with every dynamic import() rewritten, checked against the bundle's metafile `output`: each
 * literal site must be one of the dynamic imports esbuild kept (an external: esbuild, node builtins),
 * and the others exactly NON_LITERAL_IMPORTS (lines of comments aside). A miscount means the regex
 * hit text that is no call (a string), or missed a call: the script would fail at run time, so the
 * build stops.
 */
export const rewriteDynamicImports = (code, output) => {
  const expected = output.imports
    .filter((i) => i.kind === "dynamic-import")
    .map((i) => i.path)
    .sort()
  const literal = []
  const other = []
  const calls = []
  for (const m of code.matchAll(DynamicImport)) {
    // A comment line (kept by the unminified build, EDGECTL_NO_MINIFY=1): no call, left as it is.
    if (/^\s*(\/\/|\/\*|\*)/.test(code.slice(code.lastIndexOf("\n", m.index) + 1, m.index))) continue
    calls.push(m.index)
    const rest = code.slice(m.index + m[0].length, m.index + m[0].length + 200)
    const s = /^(["'`])([^"'`\\]*)\1\)/.exec(rest)
    if (s !== null) literal.push(s[2])
    else other.push(code.slice(Math.max(0, m.index - 40), m.index + 60))
  }
  literal.sort()
  if (JSON.stringify(literal) !== JSON.stringify(expected) || other.length !== NON_LITERAL_IMPORTS)
    throw new Error(
      "build: the CommonJS script's import() rewrite (build/script.mjs) does not match esbuild's metafile:\n" +
        `  esbuild's dynamic imports: ${JSON.stringify(expected)}\n` +
        `  literal import( found:     ${JSON.stringify(literal)}\n` +
        `  other import( found (expected ${NON_LITERAL_IMPORTS}): ${other.length}\n` +
        other.map((o) => `    …${o}…`).join("\n")
    )
  let out = ""
  let at = 0
  for (const index of calls) {
    out += `${code.slice(at, index)}__edgectl_import(`
    at = index + "import(".length
  }
  return out + code.slice(at)
}

/**
 * The script's text: line 1 names the build (the launcher keys its code cache on it); the rest
 * evaluates to a function, strict as the ESM sources are.
 */
export const scriptText = (code, { ascii }) => {
  const body = `(function (exports, require, module, __filename, __dirname, __edgectl_import, __edgectl_url) {"use strict";${code}\n})`
  // The launcher reads the script as latin1, which Node keeps off the V8 heap for a file this size
  // (an external string): that only gives the right text for ASCII, esbuild's default charset.
  if (ascii && /[^\x00-\x7f]/.test(body)) throw new Error("build: dist/edgectl.cjs must be ASCII (esbuild charset)")
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16)
  return `//edgectl-build:${hash}\n${body}`
}

/**
 * Every ESM chunk of step 1 makes its `require` with `createRequire(import.meta.url)` from node:module,
 * and in the script `import.meta.url` is the script's own URL (`__edgectl_url`), whose require the
 * launcher passes in. Loading node:module for it evaluates Node's ESM loader and source-map modules
 * (~1 ms of each start), so in the script `createRequire` of that URL is the `require` the script was
 * given, and any other URL goes to node:module.
 */
export const scriptCreateRequire = {
  name: "script-create-require",
  setup(build) {
    build.onResolve({ filter: /^(node:)?module$/ }, () => ({ path: "node:module", namespace: "edgectl-script" }))
    build.onLoad({ filter: /.*/, namespace: "edgectl-script" }, () => ({
      contents:
        "export const createRequire = (url) =>\n" +
        '  url === __edgectl_url ? require : process.getBuiltinModule("node:module").createRequire(url)\n',
      loader: "js"
    }))
  }
}
