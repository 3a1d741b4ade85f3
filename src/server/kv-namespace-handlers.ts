/**
 * The KV namespaces: list, create, get, rename, delete. A title is checked (not empty, within the
 * limit, printable) and unique within its account; the namespace object itself is never implicit.
 */
import * as Effect from "effect/Effect"
import type { KvNamespacesParams } from "../api/contract-kv.js"
import { pageInfo } from "../domain/envelope.js"
import { Conflict, InvalidInput } from "../domain/errors.js"
import { TitleMaxLength } from "../domain/kv-limits.js"
import * as Engine from "../store/kv-repo.js"
import { visibleAccount, type KvScope, type NsPath } from "./kv-scope.js"

const checkTitle = (title: string) => {
  const t = title.trim()
  if (t === "") return Effect.fail(new InvalidInput({ message: "title is empty; a namespace needs a title" }))
  if (t.length > TitleMaxLength) {
    return Effect.fail(new InvalidInput({ message: `title is ${t.length} characters, the limit is ${TitleMaxLength}` }))
  }
  // A control character would be printed as is by every list of namespaces (a terminal acts on it).
  const bad = /[\p{Cc}\p{Cs}]/u.exec(t)
  if (bad !== null) {
    const code = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`
    return Effect.fail(
      new InvalidInput({
        message: `title has a control character (${code}) at character ${bad.index + 1}; a title is printable text`
      })
    )
  }
  return Effect.succeed(t)
}

const duplicateTitle = (title: string) =>
  new Conflict({ message: `a namespace with this account ID and title already exists: ${JSON.stringify(title)}` })

const toWire = (n: Engine.NamespaceRow) => ({ id: n.id, title: n.title, supports_url_encoding: true })

export const listNamespaces = ({ db }: KvScope, accountId: string, q: ReturnType<typeof KvNamespacesParams>["Type"]) =>
  Effect.gen(function* () {
    yield* visibleAccount(accountId)
    const page = q.page ?? 1
    const perPage = q.per_page ?? 20
    const { rows, total } = Engine.listNamespaces(db, accountId, {
      page,
      perPage,
      order: q.order ?? "title",
      direction: q.direction ?? "asc"
    })
    return { items: rows.map(toWire), info: pageInfo(page, perPage, total, rows.length) }
  })

// A store that fails a query is the platform's fault: a defect, answered 500 (as when queries threw).

export const createNamespace = ({ store }: KvScope, accountId: string, payload: { readonly title: string }) =>
  Effect.gen(function* () {
    yield* visibleAccount(accountId)
    const title = yield* checkTitle(payload.title)
    const made = yield* Effect.orDie(Engine.createTitledNamespace(store.sql, accountId, title))
    return made === undefined ? yield* Effect.fail(duplicateTitle(title)) : toWire(made)
  })

export const getNamespace = ({ existing }: KvScope, path: NsPath) => Effect.map(existing(path), toWire)

export const renameNamespace = ({ store, existing }: KvScope, path: NsPath, payload: { readonly title: string }) =>
  Effect.gen(function* () {
    const ns = yield* existing(path)
    const title = yield* checkTitle(payload.title)
    if (!(yield* Effect.orDie(Engine.renameNamespace(store.sql, ns, title))))
      return yield* Effect.fail(duplicateTitle(title))
    return { ...toWire(ns), title }
  })

export const deleteNamespace = ({ store, existing }: KvScope, path: NsPath) =>
  Effect.gen(function* () {
    const ns = yield* existing(path)
    yield* Effect.orDie(Engine.deleteNamespace(store.sql, ns.seq))
    return null
  })
