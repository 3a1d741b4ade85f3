/**
 * A native SQLite module built for another Node: the message names the Node it was built for and
 * this one, and the hint is `npm rebuild better-sqlite3`. Node's own error texts, from real loads
 * where one can be produced here (a shared object that registers no Node module).
 */
import Database from "better-sqlite3"
import { createRequire } from "node:module"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { RebuildHint } from "../../src/domain/native-module.js"
import { abiOfAddon, nativeModuleProblem } from "../../src/store/native.js"

const release = path.join(
  path.dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json")),
  "build",
  "Release"
)
const addon = path.join(release, "better_sqlite3.node")
const here = `this is Node ${process.versions.node} (NODE_MODULE_VERSION ${process.versions.modules})`

describe("the native module built for another Node", () => {
  it("reads the ABI the installed module was built for from its registration symbol", () => {
    expect(abiOfAddon(addon)).toBe(Number(process.versions.modules))
  })

  it("'Module did not self-register' from a real load names both Nodes when the file says its ABI", () => {
    // better-sqlite3's SQLite test extension is a shared object that registers no Node module.
    let thrown: unknown
    try {
      new Database(":memory:", { nativeBinding: path.join(release, "test_extension.node") })
    } catch (e) {
      thrown = e
    }
    expect(String(thrown)).toMatch(/Module did not self-register/)
    expect(nativeModuleProblem(thrown)).toBe(
      `the native SQLite module (better-sqlite3) was built for another Node, ${here}`
    )
    // Node's text for the real addon, as after switching Node: the file says Node 20 (ABI 115).
    const text = new Error(`Module did not self-register: '${addon}'.`)
    expect(nativeModuleProblem(text, () => 115)).toBe(
      `the native SQLite module (better-sqlite3) was built for Node 20 (NODE_MODULE_VERSION 115), ${here}`
    )
    expect(nativeModuleProblem(text)).toContain(`(NODE_MODULE_VERSION ${process.versions.modules})`)
  })

  it("a NODE_MODULE_VERSION mismatch names the Node the module was built for", () => {
    const text = new Error(
      `The module '${addon}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 127. This version of Node.js requires\nNODE_MODULE_VERSION ${process.versions.modules}. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`
    )
    expect(nativeModuleProblem(text)).toBe(
      `the native SQLite module (better-sqlite3) was built for Node 22 (NODE_MODULE_VERSION 127), ${here}`
    )
    expect(RebuildHint).toContain("npm rebuild better-sqlite3")
  })

  it("leaves other failures alone", () => {
    expect(nativeModuleProblem(new Error("SQLITE_CANTOPEN: unable to open database file"))).toBeUndefined()
  })
})
