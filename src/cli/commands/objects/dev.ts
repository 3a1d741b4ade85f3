/**
 * `edgectl objects dev [MODULE]`: runs the module's object classes (ObjectHost) and serves HTTP on
 * 127.0.0.1. With the project config (wrangler.json, wrangler.jsonc or wrangler.toml here, or
 * --config), MODULE defaults to its `main`, `env` holds its durable object bindings and vars,
 * and its compatibility date and flags switch the dated behaviours. A module whose default export
 * is a worker gets every request, as under the platform's dev tools; otherwise
 * /<Class>/<name>/... goes to that object's fetch().
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as http from "node:http"
import * as path from "node:path"
import { compatibility } from "../../../objects/compat.js"
import { ObjectHost } from "../../../objects/host.js"
import { resolveId } from "../../../objects/ids.js"
import { watchModule } from "../../../objects/module-watch.js"
import { rejectionSource } from "../../../objects/storage-options.js"
import { note, printLine } from "../../output.js"
import { CliFailure, usage } from "../../run.js"
import { ConfigError, loadProjectConfig, type ProjectConfig } from "../kv/project-config.js"
import { failure, stateDir } from "./common.js"
import type { Parsed } from "./options.js"

const configFailure = (text: string) => new CliFailure({ text: `error: objects dev: ${text}`, exitCode: 1 })

/** What the host takes from the project config; every problem names the file and the field. */
const fromConfig = (config: ProjectConfig | undefined) => {
  if (config === undefined) return {}
  const bindings = config.durableObjects?.map((b, i) => {
    if (b.scriptName !== undefined)
      throw configFailure(
        `${config.file}: durable_objects.bindings[${i}] (${b.name}) names script_name ${JSON.stringify(b.scriptName)}: objects dev runs only the classes of its own module`
      )
    return { binding: b.name, className: b.className }
  })
  try {
    compatibility(config.compatibilityDate, config.compatibilityFlags)
  } catch (e) {
    throw configFailure(`${config.file}: ${(e as Error).message}`)
  }
  return {
    ...(bindings !== undefined ? { durableObjects: bindings } : {}),
    ...(config.vars !== undefined ? { env: { ...config.vars } } : {}),
    ...(config.compatibilityDate !== undefined ? { compatibilityDate: config.compatibilityDate } : {}),
    ...(config.compatibilityFlags !== undefined ? { compatibilityFlags: config.compatibilityFlags } : {})
  }
}

const moduleOf = (o: Parsed<"dev">, config: ProjectConfig | undefined): string => {
  if (Option.isSome(o.module)) return o.module.value
  if (config?.main !== undefined) return path.resolve(path.dirname(path.resolve(config.file)), config.main)
  throw usage(
    config === undefined
      ? "objects dev: no MODULE given and no project config (wrangler.json, wrangler.jsonc or wrangler.toml) here to take its main from"
      : `objects dev: no MODULE given and ${config.file} has no main`
  )
}

export const dev = (o: Parsed<"dev">): Effect.Effect<void, CliFailure> =>
  Effect.tryPromise({
    try: async () => {
      let config: ProjectConfig | undefined
      try {
        config = await loadProjectConfig(process.cwd(), Option.getOrUndefined(o.config))
      } catch (e) {
        if (e instanceof ConfigError) throw configFailure(e.message)
        throw e
      }
      const module = moduleOf(o, config)
      let host: ObjectHost
      try {
        host = await ObjectHost.start({
          module,
          persistTo: stateDir(o),
          ...fromConfig(config),
          onAlarmError: (c, id, e, n) =>
            note(
              `alarm of ${c} ${id.slice(0, 12)}… failed (attempt ${n + 1}): ${e instanceof Error ? e.message : String(e)}`
            )
        })
      } catch (e) {
        // A binding to a class the module does not export: the config is what to fix.
        if (config !== undefined && e instanceof Error && e.message.startsWith("durable object binding"))
          throw configFailure(`${config.file}: ${e.message}`)
        throw e
      }
      // As the platform does, a rejection that object code leaves unhandled (a put() never
      // awaited) is reported and everything keeps running; Node's default would end the process.
      const unhandled = (reason: unknown, promise: Promise<unknown>) =>
        note(
          `error: objects dev: ${rejectionSource(promise) ?? "object code"}: unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)} (the objects keep running)`
        )
      process.on("unhandledRejection", unhandled)
      const server = http.createServer((req, res) => void handle(host, req, res))
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject)
        server.listen(o.port, "127.0.0.1", () => resolve())
      })
      const port = (server.address() as { port: number }).port
      const url = `http://127.0.0.1:${port}`
      if (o.json)
        printLine(
          JSON.stringify({
            url,
            classes: Object.keys(host.classes),
            worker: host.worker !== undefined,
            persistTo: stateDir(o),
            control: host.controlSocket,
            compatibilityDate: host.compat.date ?? null
          })
        )
      else {
        note(`objects: ${Object.keys(host.classes).join(", ")} from ${module}; state in ${stateDir(o)}`)
        note(
          host.worker !== undefined
            ? `listening on ${url}/ (the module's worker; Ctrl-C to stop)`
            : `listening on ${url}/<Class>/<name>/... (Ctrl-C to stop)`
        )
      }
      const watch = o.noWatch
        ? undefined
        : watchModule(host, {
            reloaded: (classes, restarted) =>
              note(`reloaded ${module}: ${classes.join(", ")} (${restarted} running object(s) restarted)`),
            failed: (e) =>
              note(
                `error: objects dev: reloading ${module}: ${e instanceof Error ? e.message : String(e)}; the previous version keeps running`
              )
          })
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("unhandledRejection", unhandled)
          watch?.close()
          server.close()
          void host.close().then(resolve)
        }
        process.once("SIGINT", stop)
        process.once("SIGTERM", stop)
      })
    },
    catch: (e) => (e instanceof CliFailure ? e : failure("objects dev", e))
  })

const handle = async (host: ObjectHost, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1")
  const fail = (status: number, message: string, reset = false) => {
    res.writeHead(status, {
      "content-type": "text/plain; charset=utf-8",
      // The error reset the object (ctx.abort(), a failed write): its `durableObjectReset`.
      ...(reset ? { "x-durable-object-reset": "true" } : {})
    })
    res.end(`${message}\n`)
  }
  const [, className, name, ...rest] = url.pathname.split("/")
  const toWorker = host.worker !== undefined
  if (!toWorker) {
    if (!className || !name)
      return fail(404, `expected /<Class>/<name>/...; classes: ${Object.keys(host.classes).join(", ")}`)
    if (host.classes[className] === undefined)
      return fail(
        404,
        `no object class named ${JSON.stringify(className)}; classes: ${Object.keys(host.classes).join(", ")}`
      )
  }
  const chunks: Array<Buffer> = []
  for await (const c of req) chunks.push(c as Buffer)
  const body = chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined
  const headers = new Headers()
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v)
  const init = { method: req.method ?? "GET", headers, ...(body ? { body } : {}) }
  try {
    let response: Response
    if (toWorker) response = await host.fetchWorker(new Request(url, init))
    else {
      const target = new URL(`/${rest.map(decodeURIComponent).map(encodeURIComponent).join("/")}${url.search}`, url)
      const id = resolveId(className!, decodeURIComponent(name!))
      response = await host.namespace(className!).get(id).fetch(new Request(target, init))
    }
    const out: Record<string, string> = {}
    response.headers.forEach((v, k) => (out[k] = v))
    res.writeHead(response.status, out)
    res.end(Buffer.from(await response.arrayBuffer()))
  } catch (e) {
    const reset = (e as { durableObjectReset?: unknown } | null)?.durableObjectReset === true
    fail(500, `${toWorker ? "worker" : `${className}/${name}`}: ${e instanceof Error ? e.message : String(e)}`, reset)
  }
}
