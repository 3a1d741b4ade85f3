/**
 * Resolves once Ink's layout engine (yoga-layout, WebAssembly) can be used. The package finishes
 * loading it with a top-level await, so in the ES module build it is ready before anything imports
 * it; the CommonJS script (build/patches/yoga-layout.mjs) loads it with a promise instead and
 * exports that promise here.
 */
export const yogaReady: Promise<void> = Promise.resolve()
