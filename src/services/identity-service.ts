/** Accounts, memberships, invites and token checks. */
import type { PlannedRequest } from "../domain/request-text.js"
import { call, collectPages } from "../api/client.js"
import { Endpoints } from "../api/contract-core.js"

/** One page of the accounts the credentials can see. */
export const accountsPage = (page: number) => call(Endpoints.listAccounts, { urlParams: { page, per_page: 50 } })

/** Every account the credentials can see. */
export const allAccounts = () => collectPages(accountsPage)

export const listInvites = () => call(Endpoints.listInvites)

/** The request `respondInvite` sends, as the TUI's `v` shows it. */
export const respondInviteRequest = (id: string, status: "accepted" | "rejected"): PlannedRequest => ({
  method: "PATCH",
  path: `/user/invites/${encodeURIComponent(id)}`,
  body: { status }
})

export const respondInvite = (id: string, status: "accepted" | "rejected") =>
  call(Endpoints.respondInvite, { path: { id }, payload: { status } })
