// ESLint for the whole repository (`npm run lint`, and `npm test` after the Prettier check).
//
// typescript-eslint's recommended rules without type information: tsc (strict) already checks the
// types, and the type-aware set took ~33 s on its own on 2 cores while mostly flagging house idioms
// (`items[i]!` without noUncheckedIndexedAccess, tagged values thrown inside parsers); its promise
// rules (no-floating-promises, no-misused-promises) found nothing. Formatting is Prettier's.
import js from "@eslint/js"
import { defineConfig, globalIgnores } from "eslint/config"
import reactHooks from "eslint-plugin-react-hooks"
import tseslint from "typescript-eslint"

/** What Node offers the untyped .mjs and .cjs scripts (bench, build, launcher) besides the language. */
const nodeGlobals = Object.fromEntries(
  [
    "AbortController",
    "Buffer",
    "URL",
    "clearImmediate",
    "clearInterval",
    "clearTimeout",
    "console",
    "fetch",
    "performance",
    "process",
    "queueMicrotask",
    "setImmediate",
    "setInterval",
    "setTimeout",
    "structuredClone",
    "TextDecoder",
    "TextEncoder"
  ].map((name) => [name, "readonly"])
)

export default defineConfig(
  globalIgnores([
    "dist/",
    "coverage/",
    "fixtures/",
    "test/fixtures/scan-repo/",
    "scratch/",
    "bench/results/",
    ".edgectl/"
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A leading underscore names what a signature or a destructuring must mention but does not use
      // (`{ _i, ...rest }` drops a field).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }
      ],
      // `cond && list.push(x)` and a ternary of two calls are statements the house writes on purpose.
      "@typescript-eslint/no-unused-expressions": ["error", { allowShortCircuit: true, allowTernary: true }],
      // Terminal escapes, NUL checks and key decoding match control characters by design.
      "no-control-regex": "off"
    }
  },
  {
    files: ["**/*.{ts,tsx}"],
    rules: {
      // tsc's noFallthroughCasesInSwitch checks this and knows a call returning `never` ends a case.
      "no-fallthrough": "off"
    }
  },
  {
    files: ["**/*.{mjs,cjs}"],
    languageOptions: { globals: nodeGlobals }
  },
  {
    files: ["**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", module: "writable", __dirname: "readonly" }
    },
    // The launcher is CommonJS so that it can compile the bundle through vm.Script with a code cache.
    rules: { "@typescript-eslint/no-require-imports": "off" }
  },
  {
    files: ["test/**", "bench/**"],
    rules: {
      // Tests and benchmarks read the platform's JSON and the SDK's objects as they come off the wire.
      "@typescript-eslint/no-explicit-any": "off",
      // A regex of a table row keeps the row's spacing, so it reads like the output it matches.
      "no-regex-spaces": "off"
    }
  },
  {
    files: ["tui/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    // The two hook rules; the plugin's React Compiler rules are left out, as the TUI does not use the
    // compiler and reads refs during render on purpose (the keypress hub, the list cursors).
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error"
    }
  }
)
