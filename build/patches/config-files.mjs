// yaml, toml and ini replaced by a stub in the bundle, for @effect/cli 0.77.2's config-file options
// only. build/patch.mjs stops the build on another @effect/cli, or on another importer of them.
import { packageStub } from "../patch.mjs"

/**
 * Only @effect/cli's config-file options use these parsers, edgectl has none, and parsing those
 * packages at every start costs ~5 ms. The stub fails if anything ever parses a file with it.
 */
export const configFileStub = packageStub({
  patch: "config-file-stub",
  stubbed: ["yaml", "toml", "ini"],
  importers: { "@effect/cli": ["0.77.2", ["dist/esm/internal/files.js"]] },
  contents: (name) =>
    `const unsupported = () => { throw new Error(${JSON.stringify(`${name} configuration files are not supported by edgectl`)}) }\n` +
    "export const parse = unsupported, stringify = unsupported, decode = unsupported, encode = unsupported\n" +
    "export default { parse, stringify, decode, encode }\n"
})
