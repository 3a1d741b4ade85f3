// What every patch of a third-party package (build/patches/) rests on: each names the version of the
// package it was written against, and the build stops on any other installed version, or when a
// patch no longer takes hold (a replaced text that is not there, a patched file or a stubbed import
// that the bundle no longer goes through). An update then fails `node build.mjs`, not a user.
import { readFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { join, sep } from "node:path"

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
/** A regex source matching `node_modules/<name>/<file>` with either path separator. */
const pathPattern = (name, file) =>
  `node_modules[\\\\/]${[...name.split("/"), ...file.split("/")].map(escape).join("[\\\\/]")}$`

/** `name`'s version from its package.json: in the package that holds `file`, else installed under `cwd`. */
const versionOf = (name, file, cwd = process.cwd()) => {
  let root = join(cwd, "node_modules", name)
  if (file !== undefined) {
    const marker = `${sep}node_modules${sep}${name.split("/").join(sep)}${sep}`
    const at = file.lastIndexOf(marker)
    if (at >= 0) root = file.slice(0, at + marker.length)
  }
  try {
    return JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version
  } catch {
    return undefined
  }
}

/** Stops the build unless `name` is at `version` (where `file` is, or installed under `cwd`). */
const requireVersion = (patch, name, version, file, cwd) => {
  const found = versionOf(name, file, cwd)
  if (found === version) return
  throw new Error(
    `build: ${patch} (build/patches/) was written for ${name} ${version}, but ${name} ${found ?? "(not found)"} is installed` +
      `${file !== undefined ? ` (${file})` : ""}: check that the patch is still needed and still right, then update the version it names`
  )
}

/**
 * A package file with some of its text replaced, for an onLoad callback: each `[from, to, times]`
 * must occur exactly `times` times (default 1), or the build stops (the package changed under us).
 */
const replaced = async (patch, file, replacements) => {
  let contents = await readFile(file, "utf8")
  for (const [from, to, times = 1] of replacements) {
    const found = contents.split(from).length - 1
    if (found !== times)
      throw new Error(`build: ${patch}: ${file} has ${JSON.stringify(from)} ${found} times, expected ${times}`)
    contents = contents.replaceAll(from, to)
  }
  return { contents, loader: "js" }
}

/** The bundle's input paths (the metafile's) that lie in package `name`. */
const inputsOf = (metafile, name) => {
  const marker = `node_modules/${name}/`
  return Object.keys(metafile?.inputs ?? {}).filter((p) => p.includes(marker))
}

/**
 * An esbuild plugin that rewrites files of package `name` at `version`: `files` maps a path inside
 * the package to its `[from, to, times]` replacements. When the bundle holds any file of the package,
 * every patched file must have gone through the patch (a file the package moved would otherwise
 * ship unpatched). The build needs `metafile: true`.
 */
export const sourcePatch = ({ patch, name, version, files }) => ({
  name: patch,
  setup(b) {
    requireVersion(patch, name, version, undefined, b.initialOptions.absWorkingDir)
    const loaded = new Set()
    for (const [file, replacements] of Object.entries(files)) {
      b.onLoad({ filter: new RegExp(pathPattern(name, file)) }, (a) => {
        requireVersion(patch, name, version, a.path)
        loaded.add(file)
        return replaced(patch, a.path, replacements)
      })
    }
    b.onEnd((result) => {
      if (result.errors.length > 0 || inputsOf(result.metafile, name).length === 0) return
      const missed = Object.keys(files).filter((f) => !loaded.has(f))
      if (missed.length > 0)
        throw new Error(
          `build: ${patch}: the bundle has ${name} but not through ${missed.map((f) => `${name}/${f}`).join(", ")}: the patch no longer applies`
        )
    })
  }
})

/**
 * An esbuild plugin that replaces the package `stubbed` with `contents`, for exactly the importing
 * files `importers` lists (`{ package: [version, [files inside it]] }`). Another importer stops the
 * build (it may need the real package), and so does a listed importer in the bundle that did not get
 * the stub (its import changed).
 */
export const packageStub = ({ patch, stubbed, importers, contents }) => ({
  name: patch,
  setup(b) {
    const allowed = new Map()
    for (const [name, [version, files]] of Object.entries(importers)) {
      requireVersion(patch, name, version, undefined, b.initialOptions.absWorkingDir)
      for (const file of files) allowed.set(`node_modules/${name}/${file}`, name)
    }
    const seen = new Set()
    const filter = new RegExp(`^(${[].concat(stubbed).map(escape).join("|")})$`)
    b.onResolve({ filter }, (a) => {
      const importer = a.importer.split(sep).join("/")
      const key = [...allowed.keys()].find((k) => importer.endsWith(k))
      if (key === undefined)
        return {
          errors: [
            {
              text: `build: ${patch} (build/patches/) stubs "${a.path}" for ${[...allowed.keys()].join(", ")} only, and ${a.importer} imports it too: it may need the real package`
            }
          ]
        }
      requireVersion(patch, allowed.get(key), importers[allowed.get(key)][0], a.importer)
      seen.add(key)
      return { path: a.path, namespace: patch }
    })
    b.onLoad({ filter: /.*/, namespace: patch }, (a) => ({ contents: contents(a.path), loader: "js" }))
    b.onEnd((result) => {
      if (result.errors.length > 0) return
      const inputs = Object.keys(result.metafile?.inputs ?? {})
      const missed = [...allowed.keys()].filter((k) => !seen.has(k) && inputs.some((i) => i.endsWith(k)))
      if (missed.length > 0)
        throw new Error(
          `build: ${patch}: ${missed.join(", ")} no longer import ${[].concat(stubbed).join(" or ")}: the stub no longer applies`
        )
    })
  }
})
