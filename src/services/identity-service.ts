/** Accounts, memberships, invites and token checks. */
import { call, paginate } from "../api/client.js"
import { Endpoints } from "../api/contract-core.js"

export const allAccounts = () => paginate((page) => call(Endpoints.listAccounts, { urlParams: { page, per_page: 50 } }))

export const listInvites = () => call(Endpoints.listInvites)

export const respondInvite = (id: string, status: "accepted" | "rejected") =>
  call(Endpoints.respondInvite, { path: { id }, payload: { status } })
