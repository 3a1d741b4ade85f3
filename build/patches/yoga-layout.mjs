// yoga-layout 3.2.1 (Ink's layout engine), patched for the bundle: its wasm decoded without `fetch`,
// and (in the CommonJS script only) loaded without top-level await. build/patch.mjs stops the build
// on another version.
import { dirname } from "node:path"
import { sourcePatch } from "../patch.mjs"

const YOGA = "3.2.1"

/**
 * yoga-layout embeds its wasm as a data: URI and, finding `fetch`, fetches it: on Node 20 the first
 * call of `fetch` loads undici, 20-30 ms of every TUI start. Its loader decodes the data: URI itself
 * when it takes the other branch, which this makes it take (two places choose: reading the binary,
 * and instantiating it).
 */
export const yogaWithoutFetch = sourcePatch({
  patch: "yoga-without-fetch",
  name: "yoga-layout",
  version: YOGA,
  files: { "dist/binaries/yoga-wasm-base64-esm.js": [['||"function"!=typeof fetch?', "||true?", 2]] }
})

const yogaLoader = sourcePatch({
  patch: "yoga-without-top-level-await",
  name: "yoga-layout",
  version: YOGA,
  files: {
    "dist/src/index.js": [
      [
        "const Yoga = wrapAssembly(await loadYoga());\nexport default Yoga;",
        // The launcher (bin/edgectl.cjs) may have compiled the wasm already: Emscripten's
        // `instantiateWasm` hook then instantiates that module (and skips its own base64 decoding).
        [
          "let Yoga;",
          'const early = globalThis[Symbol.for("edgectl/yogaWasm")];',
          "export const yogaReady = new Promise((resolve, reject) => {",
          "  const options = early === undefined ? {} : {",
          "    instantiateWasm(imports, receive) {",
          "      receive(new WebAssembly.Instance(early, imports));",
          "      return {};",
          "    }",
          "  };",
          "  loadYoga(options).then((m) => { Yoga = wrapAssembly(m); resolve() }, reject);",
          "});",
          "export { Yoga as default };"
        ].join("\n")
      ]
    ]
  }
})

/**
 * yoga-layout without top-level await, for the CommonJS script: the wasm loads into a promise that
 * tui/yoga-ready.ts exports (the TUI awaits it before its first render; Ink uses Yoga only when it
 * renders). In the ESM sources tui/yoga-ready.ts resolves at once (the module awaited already).
 * When the launcher saw a TUI start it compiled the same bytes before the CLI loaded and put the
 * WebAssembly.Module in `globalThis[Symbol.for("edgectl/yogaWasm")]`; yoga instantiates that.
 */
export const yogaWithoutTopLevelAwait = {
  name: "yoga-without-top-level-await",
  setup(b) {
    yogaLoader.setup(b)
    let exported = false
    b.onLoad({ filter: /[\\/]tui[\\/]yoga-ready\.ts$/ }, (a) => {
      exported = true
      return { contents: 'export { yogaReady } from "yoga-layout"\n', loader: "ts", resolveDir: dirname(a.path) }
    })
    b.onEnd((result) => {
      const hasYoga = Object.keys(result.metafile?.inputs ?? {}).some((p) => p.includes("node_modules/yoga-layout/"))
      if (result.errors.length === 0 && hasYoga && !exported)
        throw new Error(
          "build: yoga-without-top-level-await: the bundle has yoga-layout but not tui/yoga-ready.ts, which awaits it"
        )
    })
  }
}
