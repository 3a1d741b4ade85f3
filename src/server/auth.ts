/**
 * Authentication of every v4 request, as the platform does it: `Authorization: Bearer <token>` or
 * `X-Auth-Email` + `X-Auth-Key`, checked against the store. Missing, malformed and unknown
 * credentials get the platform's codes (9106, 6003 with its chain, 9109/9103, 1000 on verify).
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { Authentication, type Principal } from "../api/contract-core.js"
import { InvalidCredentials, MalformedCredentials, MissingCredentials } from "../domain/errors.js"
import { ApiError } from "../domain/errors.js"
import { stateDirGone } from "../domain/native-module.js"
import { Db } from "../store/db.js"
import { findKeyUser, findToken } from "../store/identity-repo.js"

const TOKEN = /^[A-Za-z0-9\-._~+/]{1,256}=*$/
const KEY = /^[A-Za-z0-9\-_]{1,128}$/
const EMAIL = /^[^@\s]{1,200}@[^@\s]{1,200}$/

const malformed = (code: number, header: string) =>
  new MalformedCredentials({
    message: "Invalid request headers",
    chain: [{ code, message: `Invalid format for ${header} header` }]
  })

/**
 * Synchronous (an Either is also an Effect): the fast routes (door/fast-routes.ts) check credentials
 * outside any fiber, with this same function.
 */
export const authenticate = (
  headers: Readonly<Record<string, string | undefined>>,
  path: string,
  db: Db["db"]
): Either.Either<Principal, MissingCredentials | MalformedCredentials | InvalidCredentials> => {
  const authorization = headers["authorization"]
  const key = headers["x-auth-key"]
  const email = headers["x-auth-email"]
  // `path` is the request URL: the query string and a trailing slash do not change the route.
  const verifying = /\/user\/tokens\/verify\/?$/.test(path.split("?")[0] ?? "")
  if (authorization !== undefined) {
    const m = /^Bearer (.*)$/i.exec(authorization.trim())
    const token = m?.[1]?.trim() ?? ""
    if (!m || !TOKEN.test(token)) return Either.left(malformed(6111, "Authorization"))
    const t = findToken(db, token)
    if (!t || t.status !== "active") {
      return Either.left(
        verifying
          ? new InvalidCredentials({ code: 1000, message: "Invalid API Token" })
          : new InvalidCredentials({ code: 9109, message: "Invalid access token" })
      )
    }
    return Either.right({
      kind: "token",
      userId: t.userId,
      tokenId: t.id,
      accountIds: t.accountIds,
      userScope: t.userScope
    })
  }
  if (key === undefined && email === undefined) {
    return Either.left(new MissingCredentials({ message: "Missing X-Auth-Key, X-Auth-Email or Authorization headers" }))
  }
  if (email === undefined)
    return Either.left(new MissingCredentials({ code: 9106, message: "Missing X-Auth-Email header" }))
  if (key === undefined)
    return Either.left(new MissingCredentials({ code: 9107, message: "Missing X-Auth-Key header" }))
  if (!EMAIL.test(email.trim())) return Either.left(malformed(6102, "X-Auth-Email"))
  if (!KEY.test(key.trim())) return Either.left(malformed(6103, "X-Auth-Key"))
  const user = findKeyUser(db, email.trim(), key.trim())
  if (!user) return Either.left(new InvalidCredentials({ code: 9103, message: "Unknown X-Auth-Key or X-Auth-Email" }))
  return Either.right({
    kind: "key",
    userId: user.userId,
    tokenId: null,
    accountIds: user.accountIds,
    userScope: true
  })
}

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Db, ({ db, gate, file, gone }) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (req) => {
      const reading = req.method === "GET" || req.method === "HEAD"
      // The state directory deleted under the running platform: SQLite would write to the unlinked
      // file and answer success for writes no one reads again. Refused, saying why (a defect: the
      // middleware declares only credential failures; envelopeErrors answers it as this error).
      if (!reading && gone())
        return Effect.die(new ApiError({ status: 410, message: stateDirGone(path.dirname(file)) }))
      // A write waits on a promise while a bulk commits on a connection of its own
      // (store/commit-worker.ts), not in SQLite's busy handler, which would hold the event loop.
      const idle = reading ? undefined : gate.idle()
      const principal = authenticate(req.headers, req.url, db)
      return idle === undefined
        ? principal
        : Effect.zipRight(
            Effect.promise(() => idle),
            principal
          )
    })
  )
)
