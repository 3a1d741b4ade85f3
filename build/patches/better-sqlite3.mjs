// better-sqlite3 12.11.1, patched for the CommonJS script: its native addon loaded from the installed
// package directly. build/patch.mjs stops the build on another version.
import { sourcePatch } from "../patch.mjs"

/**
 * better-sqlite3's JavaScript is bundled into the script (it is then in the code cache); its addon is
 * required from the usual path, without `bindings`' search of the file system unless that path is
 * missing (a build of another layout).
 */
export const sqliteAddon = sourcePatch({
  patch: "sqlite-addon",
  name: "better-sqlite3",
  version: "12.11.1",
  files: {
    "lib/database.js": [
      [
        "require('bindings')('better_sqlite3.node')",
        "(() => { const p = require('node:path'); const root = p.dirname(require.resolve('better-sqlite3/package.json'));" +
          " try { return require(p.join(root, 'build', 'Release', 'better_sqlite3.node')) }" +
          " catch { return require('bindings')({ bindings: 'better_sqlite3.node', module_root: root }) } })()"
      ]
    ]
  }
})
