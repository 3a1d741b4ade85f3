// effect 3.22.4, patched for the bundle: a schema's parser compiled on its first use, and the clock's
// origin read on its first use. build/patch.mjs stops the build on another version.
import { sourcePatch } from "../patch.mjs"

const EFFECT = "3.22.4"

/**
 * `Schema.decodeUnknown(schema)`, `encode`, `is`, ... compile the schema's parser when they are
 * called, not when the function they return first runs. @effect/platform's HttpApiBuilder calls them
 * for every endpoint of an API as it builds its routes (path, query, payload, headers, success and
 * error schemas), and modules call them at their top level: a command that calls one endpoint
 * compiled the parsers of all of them (the core part's twelve, the firewall part's, ...). The
 * parser is the same (`goMemo` memoizes it per AST), only built later; a schema that cannot be
 * compiled fails at its first use instead of at definition (edgectl's tests decode every contract
 * schema).
 */
export const effectLazyParsers = sourcePatch({
  patch: "effect-lazy-parsers",
  name: "effect",
  version: EFFECT,
  files: {
    "dist/esm/ParseResult.js": [
      [
        "const getEither = (ast, isDecoding, options) => {\n  const parser = goMemo(ast, isDecoding);\n  return (u, overrideOptions) => parser(u, mergeInternalOptions(options, overrideOptions));",
        "const getEither = (ast, isDecoding, options) => {\n  let parser;\n  return (u, overrideOptions) => (parser ??= goMemo(ast, isDecoding))(u, mergeInternalOptions(options, overrideOptions));"
      ],
      [
        "const getEffect = (ast, isDecoding, options) => {\n  const parser = goMemo(ast, isDecoding);\n  return (input, overrideOptions) => parser(input, {",
        "const getEffect = (ast, isDecoding, options) => {\n  let parser;\n  return (input, overrideOptions) => (parser ??= goMemo(ast, isDecoding))(input, {"
      ],
      [
        "export const is = (schema, options) => {\n  const parser = goMemo(AST.typeAST(schema.ast), true);\n  return (u, overrideOptions) => Either.isRight(parser(u, {",
        "export const is = (schema, options) => {\n  let parser;\n  return (u, overrideOptions) => Either.isRight((parser ??= goMemo(AST.typeAST(schema.ast), true))(u, {"
      ],
      [
        "export const asserts = (schema, options) => {\n  const parser = goMemo(AST.typeAST(schema.ast), true);\n  return (u, overrideOptions) => {\n    const result = parser(u, {",
        "export const asserts = (schema, options) => {\n  let parser;\n  return (u, overrideOptions) => {\n    const result = (parser ??= goMemo(AST.typeAST(schema.ast), true))(u, {"
      ]
    ]
  }
})

/**
 * effect's clock reads its origin (`performance.now()` against `process.hrtime`) when its module is
 * evaluated, which every command does: Node 20 loads `performance` (perf_hooks and its eight internal
 * modules) on the first touch of the global, ~10 M instructions (callgrind), 1% of a cold command
 * that never reads the clock. Both
 * are read on the clock's first use instead; the origin is the same kind of value (nanoseconds since
 * the epoch, taken once), only taken later.
 */
export const effectLazyClockOrigin = sourcePatch({
  patch: "effect-lazy-clock-origin",
  name: "effect",
  version: EFFECT,
  files: {
    "dist/esm/internal/clock.js": [
      ["const performanceNowNanos = /*#__PURE__*/function () {", "const makePerformanceNowNanos = function () {"],
      [
        "    return origin + BigInt(Math.round(performance.now() * 1000000));\n  };\n}();\nconst processOrPerformanceNow = /*#__PURE__*/function () {",
        "    return origin + BigInt(Math.round(performance.now() * 1000000));\n  };\n};\n" +
          "let performanceNowNanosImpl;\nconst performanceNowNanos = () => (performanceNowNanosImpl ??= makePerformanceNowNanos())();\n" +
          "const makeProcessOrPerformanceNow = function () {"
      ],
      [
        "  return () => origin + processHrtime.bigint();\n}();",
        "  return () => origin + processHrtime.bigint();\n};\n" +
          "let processOrPerformanceNowImpl;\nconst processOrPerformanceNow = () => (processOrPerformanceNowImpl ??= makeProcessOrPerformanceNow())();"
      ]
    ]
  }
})

/**
 * effect's Utils probes, when its module is evaluated, whether the engine keeps a function's name in
 * a stack trace (`new Error().stack` of a call through `effect_internal_function`). Reading `.stack`
 * makes V8 compute the line ends of the whole script it runs from: ~25 M instructions (callgrind,
 * 2.7% of a cold `zones list`) for the 2 MB bundle, at every start. V8 names an arrow function after
 * the property key it is written under, and the key survives minification (a quoted name is never
 * renamed), so in the bundle the probe is always true: the answer written in.
 */
export const effectNoStackProbe = sourcePatch({
  patch: "effect-no-stack-probe",
  name: "effect",
  version: EFFECT,
  files: {
    "dist/esm/Utils.js": [
      [
        'const isNotOptimizedAway = /*#__PURE__*/standard.effect_internal_function(() => new Error().stack)?.includes("effect_internal_function") === true;',
        "const isNotOptimizedAway = true;"
      ]
    ]
  }
})

/**
 * effect's logger asks, when its module is evaluated, whether `process.stdout` exists and is a
 * terminal: the first touch of `process.stdout` makes Node build the stream (node:stream, and for a
 * pipe node:net: ~3 ms of a cold start), which a command that prints through edgectl's own writer
 * (src/cli/stdio.ts) never needs. Asked when a pretty logger is first made instead (edgectl makes
 * none); the answers are the same.
 */
export const effectLazyStdoutCheck = sourcePatch({
  patch: "effect-lazy-stdout-check",
  name: "effect",
  version: EFFECT,
  files: {
    "dist/esm/internal/logger.js": [
      [
        'const hasProcessStdout = typeof process === "object" && process !== null && typeof process.stdout === "object" && process.stdout !== null;\n' +
          "const processStdoutIsTTY = hasProcessStdout && process.stdout.isTTY === true;\n" +
          'const hasProcessStdoutOrDeno = hasProcessStdout || "Deno" in globalThis;\n',
        'const hasProcessStdout = () => typeof process === "object" && process !== null && typeof process.stdout === "object" && process.stdout !== null;\n' +
          "const processStdoutIsTTY = () => hasProcessStdout() && process.stdout.isTTY === true;\n" +
          'const hasProcessStdoutOrDeno = () => hasProcessStdout() || "Deno" in globalThis;\n'
      ],
      [
        'const mode = mode_ === "auto" ? hasProcessStdoutOrDeno ? "tty" : "browser" : mode_;',
        'const mode = mode_ === "auto" ? hasProcessStdoutOrDeno() ? "tty" : "browser" : mode_;'
      ],
      [
        'const showColors = typeof options?.colors === "boolean" ? options.colors : processStdoutIsTTY || isBrowser;',
        'const showColors = typeof options?.colors === "boolean" ? options.colors : processStdoutIsTTY() || isBrowser;'
      ]
    ]
  }
})
