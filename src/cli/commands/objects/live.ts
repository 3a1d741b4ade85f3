/**
 * Routing of `edgectl objects kv|sql|bookmark|restore` to a running host: when a host runs the
 * object (its lock names the host) or its class (the host's registration in `<state>/.host/`),
 * the request goes through the host's control channel, as one event of the object; otherwise the
 * command opens the storage itself (`direct`). Anything that must fail before the object is
 * touched (a bad class name, an object that does not exist) is left to `direct`, which says it
 * the same way with or without a host.
 *
 * Another of these commands holding the object (scripts run them side by side) is waited for, up
 * to LOCK_WAIT_MS: it holds the storage for milliseconds. Any other process holding it (the TUI,
 * a program of the user's) is named in the refusal at once.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { callHost, findHost, HostUnreachable } from "../../../objects/control-client.js"
import type { ObjectRequest, ResultOf } from "../../../objects/control-ops.js"
import { CLASS_NAME, objectDir, resolveId } from "../../../objects/ids.js"
import { busyPrefix, lockHolder } from "../../../objects/owner-lock.js"
import { CliFailure } from "../../run.js"

const LOCK_WAIT_MS = 5000

export interface LiveTarget {
  readonly what: string
  readonly state: string
  readonly className: string
  readonly name: string
  readonly mustExist: boolean
}

// The object's lock is held by one of these commands (or was released meanwhile).
const shortLived = (dir: string): boolean => {
  const holder = lockHolder(dir)
  return holder === undefined || /^edgectl objects (kv|sql|bookmark|restore) /.test(holder.command)
}

export const throughHostOr = <R extends ObjectRequest>(
  t: LiveTarget,
  request: R,
  direct: Effect.Effect<ResultOf<R>, CliFailure>
): Effect.Effect<ResultOf<R>, CliFailure> =>
  Effect.suspend(() => {
    if (!CLASS_NAME.test(t.className)) return direct
    const id = resolveId(t.className, t.name)
    const dir = objectDir(t.state, t.className, id)
    const deadline = Date.now() + LOCK_WAIT_MS
    const refused = `error: ${t.what}: ${busyPrefix(dir)}`
    const attempt = (): Effect.Effect<ResultOf<R>, CliFailure> => {
      if (t.mustExist && !fs.existsSync(dir)) return direct
      const host = findHost(t.state, t.className, dir)
      // The refusal happens when the lock is taken, before anything is read or written: trying
      // again cannot do a write twice.
      const directOrWait = Effect.catchAll(direct, (e) =>
        e.text.startsWith(refused) && Date.now() < deadline && shortLived(dir)
          ? Effect.flatMap(Effect.sleep(`${20 + Math.floor(Math.random() * 30)} millis`), attempt)
          : Effect.fail(e)
      )
      if (host === undefined) return directOrWait
      return Effect.tryPromise({
        try: () =>
          callHost(
            host,
            { className: t.className, id: id.hex, ...(id.name !== undefined ? { name: id.name } : {}) },
            request
          ),
        catch: (e) => e
      }).pipe(
        Effect.catchAll((e) =>
          // The host stopped between finding it and calling it: nothing was sent, the storage is free.
          e instanceof HostUnreachable
            ? directOrWait
            : Effect.fail(
                new CliFailure({ text: `error: ${t.what}: ${e instanceof Error ? e.message : String(e)}`, exitCode: 1 })
              )
        )
      )
    }
    return attempt()
  })
