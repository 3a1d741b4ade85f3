/**
 * Routing of `edgectl objects kv|sql|bookmark|restore` to a running host: when a host runs the
 * object (its lock names the host) or its class (the host's registration in `<state>/.host/`),
 * the request goes through the host's control channel, as one event of the object; otherwise the
 * command opens the storage itself (`direct`). Anything that must fail before the object is
 * touched (a bad class name, an object that does not exist) is left to `direct`, which says it
 * the same way with or without a host.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { callHost, findHost, HostUnreachable } from "../../objects/control-client.js"
import type { ObjectRequest, ResultOf } from "../../objects/control-ops.js"
import { CLASS_NAME, objectDir, resolveId } from "../../objects/ids.js"
import { CliFailure } from "../run.js"

export interface LiveTarget {
  readonly what: string
  readonly state: string
  readonly className: string
  readonly name: string
  readonly mustExist: boolean
}

export const throughHostOr = <R extends ObjectRequest>(t: LiveTarget, request: R, direct: Effect.Effect<ResultOf<R>, CliFailure>): Effect.Effect<ResultOf<R>, CliFailure> =>
  Effect.suspend(() => {
    if (!CLASS_NAME.test(t.className)) return direct
    const id = resolveId(t.className, t.name)
    const dir = objectDir(t.state, t.className, id)
    if (t.mustExist && !fs.existsSync(dir)) return direct
    const host = findHost(t.state, t.className, dir)
    if (host === undefined) return direct
    return Effect.tryPromise({
      try: () => callHost(host, { className: t.className, id: id.hex, ...(id.name !== undefined ? { name: id.name } : {}) }, request),
      catch: (e) => e
    }).pipe(
      Effect.catchAll((e) =>
        // The host stopped between finding it and calling it: nothing was sent, the storage is free.
        e instanceof HostUnreachable
          ? direct
          : Effect.fail(new CliFailure({ text: `error: ${t.what}: ${e instanceof Error ? e.message : String(e)}`, exitCode: 1 }))
      )
    )
  })
