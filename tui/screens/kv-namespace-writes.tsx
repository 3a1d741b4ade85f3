/**
 * The KV screen's namespace writes: `n` creates one (its title typed, then a confirmation), `R`
 * renames the one under the cursor, `D` deletes it (a red confirmation: its keys go with it). Each
 * confirmation shows on `v` the exact request, each write goes to the session log (`L`); sent by the
 * KV service's functions, as `edgectl kv namespace create|rename|delete` sends them.
 */
import { useState } from "react"
import { TitleMaxLength } from "../../src/domain/kv-limits.js"
import * as Kv from "../../src/services/kv-service.js"
import { useActions } from "../actions.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { TextPrompt } from "../components/text-prompt.js"
import { useNotify } from "../notices.js"

interface Ns {
  readonly accountId: string
  readonly accountName: string
  readonly id: string
  readonly title: string
}

export type NamespaceWrite =
  | { readonly _tag: "create"; readonly accountId: string; readonly accountName: string }
  | { readonly _tag: "rename"; readonly ns: Ns }
  | { readonly _tag: "delete"; readonly ns: Ns }

/** The platform's limit on a title (src/domain/kv-limits.ts); the platform checks the rest (a title in use). */
const checkTitle = (t: string) =>
  t.trim() === ""
    ? "title: required, got nothing"
    : t.trim().length > TitleMaxLength
      ? `title: at most ${TitleMaxLength} characters, got ${t.trim().length}`
      : undefined

export function NamespaceWriteFlow(props: {
  readonly write: NamespaceWrite
  readonly onClose: (changed: boolean) => void
}) {
  const { write } = props
  const { run, busy } = useActions()
  const notify = useNotify()
  const [title, setTitle] = useState<string | undefined>(undefined)
  const accountId = write._tag === "create" ? write.accountId : write.ns.accountId
  const accountName = write._tag === "create" ? write.accountName : write.ns.accountName
  const send = <A, E>(effect: Parameters<typeof run<A, E>>[0], done: string, what: string) => {
    if (busy !== undefined) return
    run(
      effect,
      () => {
        notify.done(done)
        props.onClose(true)
      },
      what,
      { where: `account ${accountName}`, what: done.charAt(0).toLowerCase() + done.slice(1) }
    )
  }

  if (write._tag === "delete") {
    const ns = write.ns
    return (
      <ConfirmDialog
        title={`Delete namespace ${ns.title}?`}
        lines={[
          `id ${ns.id} · account ${ns.accountName}`,
          "Every key in it is deleted with it; this cannot be undone."
        ]}
        confirmLabel="delete the namespace"
        destructive
        requests={[Kv.namespaceRequest(accountId, { id: ns.id, delete: true })]}
        onConfirm={() =>
          send(Kv.deleteNamespace(accountId, ns.id), `Deleted namespace ${ns.title}`, "delete the namespace")
        }
        onCancel={() => props.onClose(false)}
      />
    )
  }
  if (title === undefined) {
    return (
      <TextPrompt
        title={write._tag === "create" ? `New KV namespace in ${accountName}` : `Rename namespace ${write.ns.title}`}
        help="its title, unique in the account"
        {...(write._tag === "rename" ? { initial: write.ns.title } : {})}
        check={checkTitle}
        submitLabel="next"
        onSubmit={(t) => setTitle(t.trim())}
        onCancel={() => props.onClose(false)}
      />
    )
  }
  if (write._tag === "create") {
    return (
      <ConfirmDialog
        title={`Create namespace ${title}?`}
        lines={[`in account ${accountName}`]}
        confirmLabel="create it"
        requests={[Kv.namespaceRequest(accountId, { create: title })]}
        onConfirm={() =>
          send(Kv.createNamespace(accountId, title), `Created namespace ${title}`, "create the namespace")
        }
        onCancel={() => setTitle(undefined)}
      />
    )
  }
  const ns = write.ns
  return (
    <ConfirmDialog
      title={`Rename namespace ${ns.title} to ${title}?`}
      lines={[`id ${ns.id} stays; its keys stay`]}
      confirmLabel="rename it"
      requests={[Kv.namespaceRequest(accountId, { id: ns.id, rename: title })]}
      onConfirm={() =>
        send(
          Kv.renameNamespace(accountId, ns.id, title),
          `Renamed namespace ${ns.title} to ${title}`,
          "rename the namespace"
        )
      }
      onCancel={() => setTitle(undefined)}
    />
  )
}
