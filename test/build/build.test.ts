/**
 * What `node build.mjs` ships and the checks it makes: the `edgectl/objects` export (dist/objects.js,
 * the one ES module bundle) run by a program that imports it; the launcher without its script; and
 * the guards of build/ (a patch on another version of its package, a patched file or a stubbed
 * import the bundle no longer goes through, the import() rewrite miscounting), on small packages
 * made in a temp dir and bundled with esbuild as build.mjs does.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { root, tempDir } from "../helpers/cli.js"

const node = (args: ReadonlyArray<string>, cwd: string) => {
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8", timeout: 60_000 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe("what the build ships", () => {
  it("edgectl/objects (dist/objects.js) runs an object for a program that imports it", () => {
    const state = tempDir("edgectl-export-")
    const module = path.join(root, "test", "fixtures", "objects", "counter.ts")
    // The package's own name resolves through its "exports" from inside the package (a self-reference).
    const program = `
      import { ObjectHost } from "edgectl/objects"
      const host = await ObjectHost.start({ module: ${JSON.stringify(module)}, persistTo: ${JSON.stringify(state)} })
      const ns = host.namespace("Counter")
      const stub = ns.get(ns.idFromName("a"))
      const seen = []
      for (let i = 0; i < 3; i++) seen.push(await (await stub.fetch("/inc")).text())
      await host.close()
      console.log(seen.join(","))
    `
    const r = node(["--input-type=module", "-e", program], root)
    expect(r.stderr).toBe("")
    expect(r.stdout).toBe("1,2,3\n")
  })

  it("the launcher without dist/edgectl.cjs says so and how to build it", () => {
    const copy = tempDir("edgectl-unbuilt-")
    fs.mkdirSync(path.join(copy, "bin"))
    fs.copyFileSync(path.join(root, "bin", "edgectl.cjs"), path.join(copy, "bin", "edgectl.cjs"))
    const r = node([path.join(copy, "bin", "edgectl.cjs"), "--version"], copy)
    expect(r).toEqual({
      status: 1,
      stdout: "",
      stderr:
        `error: cannot read ${path.join(copy, "dist", "edgectl.cjs")}: ENOENT\n` +
        "hint: build it with `npm run build` (npm ci does it too)\n"
    })
  })
})

// build/*.mjs are plain JavaScript modules without types.
type Plugin = { name: string; setup: (b: unknown) => void }
type PatchModule = {
  sourcePatch: (o: {
    patch: string
    name: string
    version: string
    files: Record<string, Array<[string, string]>>
  }) => Plugin
  packageStub: (o: {
    patch: string
    stubbed: string
    importers: Record<string, [string, Array<string>]>
    contents: (name: string) => string
  }) => Plugin
}
type ScriptModule = {
  rewriteDynamicImports: (code: string, output: { imports: Array<{ path: string; kind: string }> }) => string
  NON_LITERAL_IMPORTS: number
}
type Esbuild = { build: (o: Record<string, unknown>) => Promise<unknown> }
const load = <T>(file: string) => import(pathToFileURL(path.join(root, file)).href) as Promise<T>

describe("the build's guards on what it changes in packages", () => {
  /** A project in a temp dir: node_modules/<name> at `version` with `files`, and an entry importing `entry`. */
  const project = (name: string, version: string, files: Record<string, string>, entry: string) => {
    const dir = tempDir("edgectl-build-guard-")
    const pkg = path.join(dir, "node_modules", name)
    fs.mkdirSync(pkg, { recursive: true })
    fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name, version, main: "index.js" }))
    for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(pkg, f), text)
    fs.writeFileSync(path.join(dir, "entry.js"), entry)
    return dir
  }
  const bundle = async (dir: string, plugin: Plugin) => {
    const esbuild = await load<Esbuild>("node_modules/esbuild/lib/main.js")
    return esbuild
      .build({
        absWorkingDir: dir,
        entryPoints: ["entry.js"],
        bundle: true,
        write: false,
        metafile: true,
        platform: "node",
        logLevel: "silent",
        plugins: [plugin]
      })
      .then(
        () => "built",
        (e: Error) => e.message
      )
  }
  const lib = { "index.js": 'export { f } from "./lib.js"\n', "lib.js": "export const f = () => 'old'\n" }
  const entry = 'import { f } from "pkg"\nconsole.log(f())\n'

  it("a source patch: its version, its text and its file", async () => {
    const { sourcePatch } = await load<PatchModule>("build/patch.mjs")
    const patch = (file: string, from: string) =>
      sourcePatch({ patch: "pkg-patch", name: "pkg", version: "1.0.0", files: { [file]: [[from, "'new'"]] } })
    expect(await bundle(project("pkg", "1.0.0", lib, entry), patch("lib.js", "'old'"))).toBe("built")
    expect(await bundle(project("pkg", "1.0.1", lib, entry), patch("lib.js", "'old'"))).toContain(
      "build: pkg-patch (build/patches/) was written for pkg 1.0.0, but pkg 1.0.1 is installed"
    )
    expect(await bundle(project("pkg", "1.0.0", lib, entry), patch("lib.js", "'older'"))).toContain(
      `has "'older'" 0 times, expected 1`
    )
    expect(await bundle(project("pkg", "1.0.0", lib, entry), patch("moved.js", "'old'"))).toContain(
      "build: pkg-patch: the bundle has pkg but not through pkg/moved.js: the patch no longer applies"
    )
  })

  it("a stub: only for the importers it names, and each of them must still import it", async () => {
    const { packageStub } = await load<PatchModule>("build/patch.mjs")
    const stub = (files: Array<string>) =>
      packageStub({
        patch: "gone-stub",
        stubbed: "gone",
        importers: { pkg: ["1.0.0", files] },
        contents: () => "export default false\n"
      })
    const importing = { ...lib, "lib.js": "import gone from 'gone'\nexport const f = () => gone\n" }
    expect(await bundle(project("pkg", "1.0.0", importing, entry), stub(["lib.js"]))).toBe("built")
    expect(await bundle(project("pkg", "1.0.0", importing, entry), stub(["index.js"]))).toContain(
      'build: gone-stub (build/patches/) stubs "gone" for node_modules/pkg/index.js only'
    )
    expect(await bundle(project("pkg", "1.0.0", lib, entry), stub(["index.js", "lib.js"]))).toContain(
      "build: gone-stub: node_modules/pkg/index.js, node_modules/pkg/lib.js no longer import gone"
    )
  })

  it("the import() rewrite counts its matches against the metafile's dynamic imports", async () => {
    const { rewriteDynamicImports, NON_LITERAL_IMPORTS } = await load<ScriptModule>("build/script.mjs")
    const output = { imports: [{ path: "esbuild", kind: "dynamic-import" }] }
    const others = Array.from({ length: NON_LITERAL_IMPORTS }, (_, i) => `import(u${i});`).join("")
    expect(rewriteDynamicImports(`a.import(1);import("esbuild");${others}`, output)).toBe(
      `a.import(1);__edgectl_import("esbuild");${others.replaceAll("import(", "__edgectl_import(")}`
    )
    // The unminified build keeps comments: a comment line is no call.
    expect(rewriteDynamicImports(`import("esbuild");${others}\n  // import() in a comment\n`, output)).toBe(
      `__edgectl_import("esbuild");${others.replaceAll("import(", "__edgectl_import(")}\n  // import() in a comment\n`
    )
    expect(() => rewriteDynamicImports(`import("esbuild");${others}const s = "import(x"`, output)).toThrow(
      /does not match esbuild's metafile/
    )
    expect(() => rewriteDynamicImports(`import("msgpackr");${others}`, output)).toThrow(
      /esbuild's dynamic imports: \["esbuild"\]\n {2}literal import\( found: {5}\["msgpackr"\]/
    )
  })
})
