/**
 * Each command's options are declared once (issue 32, item 3): in every command folder of
 * src/cli/commands, `options.ts` declares each command's options as one object of @effect/cli
 * `Options` and `Args`, and each handler takes `Parsed<"name">`, the type @effect/cli's
 * `Command.ParseConfig` derives from that object. No parsed shape is written again by hand (as the
 * `inputs.ts` interfaces and the inline `o: Flags & { ... }` types did), so adding an option is one
 * edit. Read from the sources: what a tool can check of their text.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const root = path.resolve("src/cli/commands")
const folders = fs
  .readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort()

const read = (folder: string, file: string) => fs.readFileSync(path.join(root, folder, file), "utf8")
const sources = (folder: string) =>
  fs
    .readdirSync(path.join(root, folder))
    .filter((f) => /\.tsx?$/.test(f))
    .sort()

/** `const h = lazyHandlers(() => import("./m.js"))` in a tree: handler helper -> module file. */
const handlerModules = (index: string): Map<string, string> =>
  new Map(
    [...index.matchAll(/const (\w+) = lazyHandlers\(\(\) => import\("\.\/([\w-]+)\.js"\)\)/g)].map(
      (m) => [m[1]!, `${m[2]!}.ts`] as const
    )
  )

/** The text of `export const name = ...` in `file`, following one `export { name } from "./x.js"`. */
const handlerSource = (folder: string, file: string, name: string): string | undefined => {
  const text = read(folder, file)
  const at = text.search(new RegExp(`export const ${name} =`))
  if (at >= 0) return text.slice(at, at + 400)
  const from = new RegExp(`export \\{[^}]*\\b${name}\\b[^}]*\\} from "\\./([\\w-]+)\\.js"`).exec(text)
  return from === null ? undefined : handlerSource(folder, `${from[1]!}.ts`, name)
}

/** Every .ts file under src/cli/commands, relative to it. */
const allSources = (dir = ""): ReadonlyArray<string> =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory() ? allSources(path.join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [path.join(dir, d.name)] : []
    )

/** The body (`{ ... }`) of each interface and object type alias of `text`, with its name. */
const objectTypes = (text: string) =>
  [...text.matchAll(/\b(?:interface (\w+)[^{=]*|type (\w+)(?:<[^>]*>)? = [^{;\n]*)\{/g)].map((m) => {
    let depth = 0
    let end = m.index + m[0].length - 1
    for (; end < text.length; end++) {
      if (text[end] === "{") depth++
      else if (text[end] === "}" && --depth === 0) break
    }
    return { name: m[1] ?? m[2]!, body: text.slice(m.index + m[0].length - 1, end + 1) }
  })

describe("options declared once", () => {
  it("finds the command folders", () => {
    expect(folders).toEqual(expect.arrayContaining(["custom-rules", "firewall", "kv", "objects", "waf"]))
  })

  it("no interface or object type of src/cli/commands writes an option's parsed type by hand", () => {
    const found = allSources().flatMap((f) =>
      objectTypes(fs.readFileSync(path.join(root, f), "utf8"))
        .filter((t) => t.body.includes("Option.Option<"))
        .map((t) => `${f}: ${t.name}`)
    )
    expect(found).toEqual([])
  })

  for (const folder of folders) {
    describe(`commands/${folder}`, () => {
      it("declares its options in options.ts and derives Parsed from them; no inputs.ts", () => {
        const files = sources(folder)
        expect(files).toContain("options.ts")
        expect(files).not.toContain("inputs.ts")
        expect(read(folder, "options.ts")).toMatch(
          /export type Parsed<K extends keyof typeof (\w+)> = Command\.Command\.ParseConfig<\s*\(typeof \1\)\[K\]\s*>/
        )
      })

      it("writes no parsed option type by hand outside options.ts", () => {
        const found = sources(folder)
          .filter((f) => f !== "options.ts")
          .flatMap((f) =>
            read(folder, f)
              .split("\n")
              .map((line, i) => ({ where: `${f}:${i + 1}`, line }))
              .filter(
                ({ line }) =>
                  // An option's parsed type (Option.Option<...>) is written where it is declared;
                  // elsewhere it is a Parsed<...>, or a Pick of one.
                  line.includes("Option.Option<") ||
                  /^\s*(export )?(interface|type) \w*(Options|Flags|Inputs)\b(?! = Parsed<)/.test(line)
              )
              .map(({ where, line }) => `${where}: ${line.trim()}`)
          )
        expect(found).toEqual([])
      })

      it("gives each command of the tree its entry of the options object, and each handler takes Parsed<...>", () => {
        const index = read(folder, "index.ts")
        const given = [...index.matchAll(/Command\.make\(\s*"[^"]+",\s*([^,)]+),/g)].map((m) => m[1]!.trim())
        expect(given.length).toBeGreaterThan(0)
        expect(given.filter((o) => !/^\w+Options\.\w+$/.test(o))).toEqual([])

        const modules = handlerModules(index)
        const handlers = [...index.matchAll(/(\w+)\(\(m\) => m\.(\w+)\)/g)].map((m) => ({
          module: modules.get(m[1]!),
          name: m[2]!
        }))
        expect(handlers.length).toBeGreaterThan(0)
        const untyped = handlers
          .filter(({ module, name }) => {
            const source = module === undefined ? undefined : handlerSource(folder, module, name)
            return source === undefined || !/^export const \w+ =\s*\(\s*o: Parsed<"\w+">\s*\)/.test(source)
          })
          .map(({ module, name }) => `${module ?? "?"} ${name}`)
        expect(untyped).toEqual([])
      })
    })
  }
})
