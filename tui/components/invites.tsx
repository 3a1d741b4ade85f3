/**
 * `i` in the account picker: the invitations to join accounts, each with its account, who sent it,
 * its status and expiry; `y` accepts and `x` rejects the pending one under the cursor after a
 * confirmation (`v` shows the request), as `edgectl invites accept|reject` does. An accepted invite's
 * account joins the picker's list. Each answer goes to the session log (`L`).
 */
import { Box, Text } from "ink"
import { useState } from "react"
import type { Invite } from "../../src/domain/invite.js"
import { listInvites, respondInvite, respondInviteRequest } from "../../src/services/identity-service.js"
import { useActions } from "../actions.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useNotify } from "../notices.js"
import { useEffectQuery } from "../runtime.js"
import { ConfirmDialog } from "./confirm-dialog.js"
import { cells } from "./columns.js"
import { List, moveHints, useListCursor } from "./list.js"
import { Empty, ErrorView, Loading } from "./states.js"

type Answer = { readonly invite: Invite; readonly status: "accepted" | "rejected" }

const accountOf = (i: Invite) => i.organization_name ?? i.organization_id

export function InvitesPanel(props: {
  readonly height: number
  readonly onAnswered: () => void
  readonly onBack: () => void
}) {
  const { query, refresh } = useEffectQuery(() => listInvites(), [])
  const invites = query._tag === "Success" ? query.value : []
  const cursor = useListCursor(invites.length, Math.max(1, props.height - 2), [])
  const [answer, setAnswer] = useState<Answer | undefined>(undefined)
  const { run, busy } = useActions()
  const notify = useNotify()
  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      const current = invites[cursor.index]
      switch (press.name) {
        case "y":
        case "x":
          if (current === undefined) return false
          if (current.status !== "pending") {
            notify.warn(
              `the invite to ${accountOf(current)} is ${current.status}: only a pending invite can be answered`
            )
            return true
          }
          setAnswer({ invite: current, status: press.name === "y" ? "accepted" : "rejected" })
          return true
        case "r":
          refresh()
          return true
        case "escape":
        case "backspace":
          props.onBack()
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.dialog + 1,
      modal: true,
      active: answer === undefined,
      hints: [
        ...moveHints,
        { keys: "y", label: "accept" },
        { keys: "x", label: "reject" },
        { keys: "esc", label: "accounts" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  if (answer !== undefined) {
    const { invite, status } = answer
    const verb = status === "accepted" ? "accept" : "reject"
    return (
      <ConfirmDialog
        title={`${status === "accepted" ? "Accept" : "Reject"} the invite to ${accountOf(invite)}?`}
        lines={[
          `from ${invite.invited_by ?? "?"} · roles ${(invite.roles ?? []).map((r) => (typeof r === "object" && r !== null && "name" in r ? String(r.name) : String(r))).join(", ")}`
        ]}
        confirmLabel={`${verb} it`}
        destructive={status === "rejected"}
        requests={[respondInviteRequest(invite.id, status)]}
        onCancel={() => setAnswer(undefined)}
        onConfirm={() => {
          if (busy !== undefined) return
          setAnswer(undefined)
          run(
            respondInvite(invite.id, status),
            () => {
              notify.done(`${status === "accepted" ? "Accepted" : "Rejected"} the invite to ${accountOf(invite)}`)
              refresh()
              props.onAnswered()
            },
            `${verb} the invite`,
            { where: `account ${accountOf(invite)}`, what: `${status} the invite ${invite.id}` }
          )
        }}
      />
    )
  }
  return (
    <Box flexDirection="column">
      <Text bold>Invitations</Text>
      {query._tag === "Loading" ? <Loading what="invites" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not list invites" error={query.error} /> : null}
      {query._tag === "Success" && invites.length === 0 ? <Empty what="No invitations." next="esc goes back" /> : null}
      {invites.length > 0 ? (
        <List
          items={invites}
          index={cursor.index}
          height={Math.max(1, props.height - 2)}
          header={cells([
            ["ACCOUNT", 20],
            ["STATUS", 9],
            ["EXPIRES", 10],
            ["INVITED BY", 28]
          ])}
          row={(i) =>
            cells([
              [accountOf(i), 20],
              [i.status, 9],
              [(i.expires_on ?? "").slice(0, 10), 10],
              [i.invited_by ?? "", 28]
            ])
          }
          rowKey={(i) => i.id}
        />
      ) : null}
    </Box>
  )
}
