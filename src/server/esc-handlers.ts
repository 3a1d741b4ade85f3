/**
 * Handlers of the ESC disable settings (area B). A zone or account the caller cannot see answers
 * as not found, as every other endpoint does. Every answer is the setting after the call (GET: as
 * it is; POST: with the change; DELETE: nothing set) and carries the platform's clock in `Date`.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { Principal } from "../api/contract-core.js"
import { EscApi } from "../api/contract-esc.js"
import type { EscSetting } from "../domain/esc.js"
import { Db } from "../store/db.js"
import { changeEsc, clearEsc, getEsc } from "../store/esc-repo.js"
import { getAccount } from "../store/identity-repo.js"
import type { StoreError } from "../store/store-error.js"
import { PlatformClock } from "./clock.js"
import { noRoute, visibleZone } from "./core-handlers.js"

const Suffix = "/disable_esc"

const visibleAccount = (accountId: string) =>
  Effect.gen(function* () {
    const { db } = yield* Db
    const principal = yield* Principal
    const account = getAccount(db, accountId, principal.accountIds)
    if (!account) return yield* Effect.fail(noRoute(`/accounts/${accountId}${Suffix}`))
    return account
  })

/** The `Date` header from the platform's clock (Node's server only adds its own when none is set). */
const dated = Effect.flatMap(PlatformClock, (clock) =>
  HttpApp.appendPreResponseHandler((_, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "date", clock.now().toUTCString()))
  )
)

/** What a handler does in the store; a store that fails it is the platform's fault (500), as before. */
type Act = (sql: Db["sql"]) => Effect.Effect<EscSetting, StoreError>

const withScope = <E, R>(visible: Effect.Effect<unknown, E, R>, act: Act) =>
  Effect.gen(function* () {
    yield* dated
    yield* visible
    const { sql } = yield* Db
    return yield* Effect.orDie(act(sql))
  })

const zone = (id: string, act: Act) => withScope(visibleZone(id, Suffix), act)
const account = (id: string, act: Act) => withScope(visibleAccount(id), act)

export const EscLive = HttpApiBuilder.group(EscApi(), "esc", (handlers) =>
  handlers
    .handle("getZone", ({ path }) => zone(path.zone_id, (sql) => getEsc(sql, "zone", path.zone_id)))
    .handle("setZone", ({ path, payload }) =>
      zone(path.zone_id, (sql) => changeEsc(sql, "zone", path.zone_id, payload))
    )
    .handle("deleteZone", ({ path }) => zone(path.zone_id, (sql) => clearEsc(sql, "zone", path.zone_id)))
    .handle("getAccount", ({ path }) => account(path.account_id, (sql) => getEsc(sql, "account", path.account_id)))
    .handle("setAccount", ({ path, payload }) =>
      account(path.account_id, (sql) => changeEsc(sql, "account", path.account_id, payload))
    )
    .handle("deleteAccount", ({ path }) => account(path.account_id, (sql) => clearEsc(sql, "account", path.account_id)))
)
