/** Accounts, memberships, invites and token checks. */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { PlannedRequest } from "../domain/request-text.js"
import { call } from "../api/client.js"
import { collectPages, findInPages } from "../api/pages.js"
import { Endpoints } from "../api/contract-core.js"
import { NotFound } from "../domain/errors.js"

/** One page of the accounts the credentials can see. */
const accountsPage = (page: number) => call(Endpoints.listAccounts, { urlParams: { page, per_page: 50 } })

/** Every account the credentials can see. */
export const allAccounts = () => collectPages(accountsPage)

const HEX32 = /^[0-9a-f]{32}$/

/**
 * An account by id (asked for: an id no account has is not found, not an empty answer) or by
 * name, in any case, among those the credentials see; `esc --account` and `zones list
 * --account-id` take both.
 */
export const accountByRef = (ref: string) =>
  HEX32.test(ref)
    ? Effect.map(call(Endpoints.getAccount, { path: { account_id: ref } }), (a) => ({ id: a.id, name: a.name }))
    : Effect.flatMap(
        findInPages(accountsPage, (a) => a.name.toLowerCase() === ref.trim().toLowerCase()),
        Option.match({
          onNone: () =>
            Effect.fail(
              new NotFound({
                message: `no account named ${JSON.stringify(ref)} is visible to these credentials`,
                clientSide: true
              })
            ),
          onSome: (a) => Effect.succeed({ id: a.id, name: a.name })
        })
      )

export const listInvites = () => call(Endpoints.listInvites)

/** The request `respondInvite` sends, as the TUI's `v` shows it. */
export const respondInviteRequest = (id: string, status: "accepted" | "rejected"): PlannedRequest => ({
  method: "PATCH",
  path: `/user/invites/${encodeURIComponent(id)}`,
  body: { status }
})

export const respondInvite = (id: string, status: "accepted" | "rejected") =>
  call(Endpoints.respondInvite, { path: { id }, payload: { status } })
