/**
 * src/launcher-hooks.ts names the channels between the launcher (bin/edgectl.cjs), the build's
 * patches and the bundle: the launcher and the patches use exactly those names, and the bundle's
 * sources reach them only through that module. (The channels at work: test/cli/code-cache.test.ts
 * for `localPlatform`, the TUI's code-cache test for `writeCodeCache`, every TUI test for `yogaWasm`.)
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { LauncherHook, markLocalPlatformBuilt, writeCodeCacheNow } from "../../src/launcher-hooks.js"

const root = path.resolve(import.meta.dirname, "../..")
const names = (text: string) => [...text.matchAll(/Symbol\.for\("(edgectl\/[A-Za-z]+)"\)/g)].map((m) => m[1]!)
const filesUnder = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? filesUnder(p) : /\.(ts|tsx|mjs|cjs)$/.test(e.name) ? [p] : []
  })
const hooks = Object.values(LauncherHook) as Array<string>

describe("the launcher's hooks", () => {
  it("the launcher and the build's patches use exactly the names of src/launcher-hooks.ts", () => {
    const outside = [path.join(root, "bin/edgectl.cjs"), ...filesUnder(path.join(root, "build/patches"))]
    const used = new Set(outside.flatMap((f) => names(fs.readFileSync(f, "utf8"))))
    expect([...used].sort()).toEqual([...hooks].sort())
  })

  it("the sources reach them only through src/launcher-hooks.ts", () => {
    const sources = [...filesUnder(path.join(root, "src")), ...filesUnder(path.join(root, "tui"))].filter(
      (f) => !f.endsWith(path.join("src", "launcher-hooks.ts"))
    )
    const direct = sources.flatMap((f) =>
      names(fs.readFileSync(f, "utf8"))
        .filter((n) => hooks.includes(n))
        .map((n) => `${path.relative(root, f)}: ${n}`)
    )
    expect(direct).toEqual([])
  })

  describe("through globalThis", () => {
    const slots = hooks.map((n) => Symbol.for(n))
    afterEach(() => {
      for (const s of slots) delete (globalThis as Record<symbol, unknown>)[s]
    })

    it("markLocalPlatformBuilt sets the flag the launcher reads at exit", () => {
      markLocalPlatformBuilt()
      expect((globalThis as Record<symbol, unknown>)[Symbol.for(LauncherHook.localPlatform)]).toBe(true)
    })

    it("writeCodeCacheNow calls the launcher's writer, and does nothing without a launcher", () => {
      expect(() => writeCodeCacheNow()).not.toThrow()
      let calls = 0
      ;(globalThis as Record<symbol, unknown>)[Symbol.for(LauncherHook.writeCodeCache)] = () => calls++
      writeCodeCacheNow()
      expect(calls).toBe(1)
    })
  })
})
