/**
 * The channels between the launcher (bin/edgectl.cjs: plain CommonJS that runs before the bundle,
 * so it cannot import this file) and the bundle. Each is a well-known symbol on `globalThis`,
 * named here once; test/build/launcher-hooks.test.ts checks that the launcher and the build patches
 * use exactly these names, and that nothing else in the bundle reaches `globalThis` for them.
 *
 * - `localPlatform` (bundle -> launcher): set when this run built the in-process platform, so the
 *   launcher's V8 code cache, written at exit, is worth rewriting at the level that includes it.
 * - `writeCodeCache` (launcher -> bundle): a function the TUI calls once its first screen is drawn,
 *   since a TUI closed with its terminal (SIGHUP) never reaches the launcher's "exit" handler.
 * - `yogaWasm` (launcher -> yoga, through build/patches/yoga-layout.mjs): the layout engine's
 *   WebAssembly module, compiled by the launcher while the bundle loads.
 */
export const LauncherHook = {
  localPlatform: "edgectl/localPlatform",
  writeCodeCache: "edgectl/writeCodeCache",
  yogaWasm: "edgectl/yogaWasm"
} as const

const slot = (name: keyof typeof LauncherHook) => Symbol.for(LauncherHook[name])
const hooks = globalThis as Record<symbol, unknown>

/** Tells the launcher that this run compiled the in-process platform. */
export const markLocalPlatformBuilt = (): void => {
  hooks[slot("localPlatform")] = true
}

/** Asks the launcher to write its code cache now (a no-op when not started by the launcher). */
export const writeCodeCacheNow = (): void => {
  const write = hooks[slot("writeCodeCache")]
  if (typeof write === "function") (write as () => void)()
}
