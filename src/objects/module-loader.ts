// Loads a user's module of object classes: JavaScript as it is, TypeScript transpiled (and its
// relative imports bundled) with esbuild into a cache under the state directory. Its classes (and
// the packages it imports) may import `cloudflare:workers` (./workers-module.ts).
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import type { ObjectState } from "./object-state.js"
import { installWorkersModule, isObjectClass, isWorkerEntrypointClass } from "./workers-module.js"

/** What the host itself calls on an object (the rest of its methods are reached over RPC). */
export interface ObjectInstance {
  fetch?: (request: Request) => Response | Promise<Response>
  alarm?: (info: { retryCount: number; isRetry: boolean; scheduledTime: number }) => unknown
}

// Any class: one with RPC methods only has none of ObjectInstance's. (`env: never`: a class may
// declare the type of its env.)
export type ObjectClass = new (ctx: ObjectState, env: never) => object

/**
 * The module's default export when it is a worker: a class extending WorkerEntrypoint, or an
 * object with `fetch(request, env, ctx)`. `objects dev` sends it every HTTP request.
 */
export type WorkerHandler =
  | { readonly kind: "entrypoint"; readonly cls: new (ctx: unknown, env: unknown) => Record<string, unknown> }
  | { readonly kind: "handler"; readonly handler: Record<string, unknown> }

export interface LoadedModule {
  readonly classes: Record<string, ObjectClass>
  readonly worker: WorkerHandler | undefined
  readonly inputs: Array<string>
}

export class ModuleError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "ModuleError"
  }
}

let loads = 0

/**
 * The classes, and the files they came from (the module and, for TypeScript, every local file it
 * imports): what `objects dev` watches. Each call evaluates the module anew.
 */
export const loadModuleFiles = async (file: string, cacheDir: string): Promise<LoadedModule> => {
  const abs = path.resolve(file)
  if (!fs.existsSync(abs)) throw new ModuleError(`module not found: ${file}`)
  installWorkersModule()
  const n = ++loads
  // A new URL each time: Node's module cache would otherwise hand back the first evaluation.
  let url = `${pathToFileURL(abs).href}${n > 1 ? `?load=${n}` : ""}`
  let inputs = [abs]
  if (/\.(c|m)?tsx?$/.test(abs)) {
    const { build } = await import("esbuild")
    fs.mkdirSync(cacheDir, { recursive: true })
    const out = path.join(cacheDir, `${path.basename(abs).replace(/\.[^.]+$/, "")}-${Date.now()}-${n}.mjs`)
    try {
      const result = await build({
        entryPoints: [abs],
        outfile: out,
        bundle: true,
        packages: "external",
        external: ["cloudflare:*"],
        platform: "node",
        format: "esm",
        target: "node20",
        logLevel: "silent",
        metafile: true
      })
      inputs = Object.keys(result.metafile.inputs).map((f) => path.resolve(f))
    } catch (e) {
      const errors =
        (e as { errors?: Array<{ text: string; location?: { file: string; line: number; column: number } }> }).errors ??
        []
      const first = errors[0]
      throw new ModuleError(
        first === undefined
          ? `cannot compile ${file}: ${String(e)}`
          : `cannot compile ${file}: ${first.location ? `${first.location.file}:${first.location.line}:${first.location.column}: ` : ""}${first.text}`
      )
    }
    url = pathToFileURL(out).href
  }
  const mod = (await import(url)) as Record<string, unknown>
  const worker = workerOf(mod.default)
  const classes: Record<string, ObjectClass> = {}
  for (const [name, value] of Object.entries(mod)) {
    if (name === "default" && worker !== undefined) continue
    if (isObjectClass(value)) classes[name] = value as ObjectClass
  }
  if (Object.keys(classes).length === 0)
    throw new ModuleError(
      `${file} exports no object class (a class extending DurableObject from "cloudflare:workers", or with a fetch() or alarm() method)`
    )
  return { classes, worker, inputs }
}

const workerOf = (value: unknown): WorkerHandler | undefined => {
  if (isWorkerEntrypointClass(value))
    return { kind: "entrypoint", cls: value as new (ctx: unknown, env: unknown) => Record<string, unknown> }
  if (typeof value === "object" && value !== null && typeof (value as { fetch?: unknown }).fetch === "function")
    return { kind: "handler", handler: value as Record<string, unknown> }
  return undefined
}
