// fast-check replaced by a stub in the bundle, for effect 3.22.4's Schema and Arbitrary only.
// build/patch.mjs stops the build on another effect, or on another importer of fast-check.
import { packageStub } from "../patch.mjs"

/**
 * effect's Schema imports fast-check (through effect/FastCheck) for `Arbitrary`, property-based test
 * data, which edgectl never builds at run time; the tests import the real package from the sources.
 * Evaluating fast-check and pure-rand at every start costs a few milliseconds. The stub exports the
 * one name effect's modules read from it (Schema's `fastCheck_.array`); a name read from it that the
 * stub lacks is a build error (build.mjs turns esbuild's import-is-undefined into one).
 */
export const fastCheckStub = packageStub({
  patch: "fast-check-stub",
  stubbed: "fast-check",
  importers: { effect: ["3.22.4", ["dist/esm/FastCheck.js"]] },
  contents: () =>
    "const unsupported = () => { throw new Error('property-based test data (fast-check) is not part of the edgectl bundle') }\n" +
    "export const array = unsupported\n"
})
