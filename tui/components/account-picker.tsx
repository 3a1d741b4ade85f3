/**
 * `a` on the Zones screen: choose the account whose zones are listed, or all accounts; `i` shows the
 * invitations to join others (invites.tsx).
 */
import { Box, Text } from "ink"
import { useState } from "react"
import type { Account } from "../../src/domain/account.js"
import { allAccounts } from "../../src/services/identity-service.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useEffectQuery } from "../runtime.js"
import { List, moveHints, useListCursor } from "./list.js"
import { InvitesPanel } from "./invites.js"
import { ErrorView, Loading } from "./states.js"

type Choice = { readonly id: string; readonly name: string; readonly account: Account | undefined }

const AllAccounts: Choice = { id: "", name: "All accounts", account: undefined }

export function AccountPicker(props: {
  readonly height: number
  readonly onPick: (account: Account | undefined) => void
  readonly onCancel: () => void
}) {
  const { query, refresh } = useEffectQuery(() => allAccounts(), [])
  const choices: ReadonlyArray<Choice> =
    query._tag === "Success" ? [AllAccounts, ...query.value.map((a) => ({ id: a.id, name: a.name, account: a }))] : []
  const cursor = useListCursor(choices.length, props.height, [])
  const [invites, setInvites] = useState(false)
  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      switch (press.name) {
        case "enter": {
          const choice = choices[cursor.index]
          if (choice) props.onPick(choice.account)
          return true
        }
        case "escape":
        case "backspace":
          props.onCancel()
          return true
        case "r":
          refresh()
          return true
        case "i":
          setInvites(true)
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.dialog,
      modal: true,
      hints: [
        ...moveHints,
        { keys: "enter", label: "choose account" },
        { keys: "esc", label: "cancel" },
        { keys: "r", label: "refresh" },
        { keys: "i", label: "invites" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      {invites ? (
        <InvitesPanel height={props.height} onAnswered={refresh} onBack={() => setInvites(false)} />
      ) : (
        <>
          <Text bold>Choose an account</Text>
          {query._tag === "Loading" ? <Loading what="accounts" /> : null}
          {query._tag === "Failure" ? <ErrorView what="could not list accounts" error={query.error} /> : null}
          {query._tag === "Success" ? (
            <List
              items={choices}
              index={cursor.index}
              height={props.height}
              row={(c) => c.name}
              rowKey={(c) => c.id || "all"}
            />
          ) : null}
        </>
      )}
    </Box>
  )
}
