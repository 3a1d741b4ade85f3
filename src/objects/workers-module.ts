// `cloudflare:workers` for object modules, as the platform's documentation imports it:
// `DurableObject` and `WorkerEntrypoint` (base classes keeping `ctx` and `env`), `RpcTarget`, and
// `env` (the bindings of the running host).
//
// Node's ESM loader refuses the `cloudflare:` scheme, in the user's module and in any package it
// imports (libraries built on DurableObject import it too). So a resolve hook, registered once per
// process before the first module loads, maps the specifier to a small data: module re-exporting
// what this module put on globalThis: the same classes whether the host runs from
// dist/edgectl.cjs, dist/objects.js or the sources (each bundle has its own copy of this file).
import type { ObjectState } from "./object-state.js"
const KEY = "edgectl.cloudflare:workers"

export class DurableObject<Env = unknown> {
  protected readonly ctx: ObjectState
  protected readonly env: Env
  constructor(ctx: ObjectState, env: Env) {
    this.ctx = ctx
    this.env = env
  }
}

export class WorkerEntrypoint<Env = unknown> {
  protected readonly ctx: unknown
  protected readonly env: Env
  constructor(ctx: unknown, env: Env) {
    this.ctx = ctx
    this.env = env
  }
}

/** Marks a class whose instances the platform passes by reference over RPC (not supported here). */
export class RpcTarget {}

type AnyClass = abstract new (...args: Array<never>) => unknown

interface Shared {
  readonly DurableObject: AnyClass
  readonly WorkerEntrypoint: AnyClass
  readonly RpcTarget: AnyClass
  // `import { env } from "cloudflare:workers"`: the bindings of the host started last.
  readonly env: Record<string, unknown>
}

// What the data: module re-exports; the first bundle of edgectl to run in this process makes it.
const shared = (): Shared => {
  const g = globalThis as Record<symbol, Shared | undefined>
  return (g[Symbol.for(KEY)] ??= { DurableObject, WorkerEntrypoint, RpcTarget, env: {} })
}

export const setWorkersEnv = (bindings: Record<string, unknown>): void => {
  const env = shared().env
  for (const k of Object.keys(env)) delete env[k]
  Object.assign(env, bindings)
}

const bridge = `const m = globalThis[Symbol.for(${JSON.stringify(KEY)})];
if (m === undefined) throw new Error("cloudflare:workers is provided by edgectl's object host only");
export const DurableObject = m.DurableObject, WorkerEntrypoint = m.WorkerEntrypoint, RpcTarget = m.RpcTarget, env = m.env;
export default m;`
const hooks = `const target = ${JSON.stringify(`data:text/javascript,${encodeURIComponent(bridge)}`)};
export async function resolve(specifier, context, next) {
  if (specifier === "cloudflare:workers") return { url: target, shortCircuit: true };
  return next(specifier, context);
}`

let installed = false

/** Makes `cloudflare:workers` importable in this process (idempotent). */
export const installWorkersModule = (): void => {
  if (installed) return
  installed = true
  shared()
  // Through getBuiltinModule: the CLI script's node:module is a stand-in (build/script.mjs).
  process.getBuiltinModule("node:module").register(`data:text/javascript,${encodeURIComponent(hooks)}`)
}

const extendsClass = (value: unknown, base: AnyClass): boolean =>
  typeof value === "function" && value.prototype instanceof base

/** A class the host runs as an object: extends DurableObject, or has fetch() or alarm(). */
export const isObjectClass = (value: unknown): boolean => {
  if (typeof value !== "function" || value.prototype === undefined) return false
  const { DurableObject: DO, WorkerEntrypoint: WE } = shared()
  if (extendsClass(value, WE)) return false
  return (
    extendsClass(value, DO) ||
    typeof value.prototype.fetch === "function" ||
    typeof value.prototype.alarm === "function"
  )
}

export const isWorkerEntrypointClass = (value: unknown): boolean => extendsClass(value, shared().WorkerEntrypoint)
