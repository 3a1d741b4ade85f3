/**
 * KV: the namespaces of the chosen account (or of every account), `/` filters them by title, enter
 * opens one (its keys, values, put/edit and delete), `a` picks the account, `x` exports the
 * selected one to a file (the bulk put format, as `edgectl kv export` writes it), `i` imports such
 * a file into it, `b` deletes the keys a file lists (as `edgectl kv bulk delete`: the file checked
 * whole, then a confirmation naming the namespace and the count), `c` copies it into another
 * namespace of its account, `C` clears it (every key, after a confirmation naming it and the
 * count, as `edgectl kv clear` asks).
 */
import { Box, Text } from "ink"
import { useRef, useState } from "react"
import * as KvBulk from "../../src/services/kv-bulk-service.js"
import { copyNamespace, deleteKeys, exportToFile, keyNames } from "../../src/services/kv-lifecycle-service.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import * as Kv from "../../src/services/kv-service.js"
import { AccountPicker } from "../components/account-picker.js"
import { cells, flexWidth } from "../components/columns.js"
import { FilterBar, useFilterInput } from "../components/filter-bar.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { TextPrompt } from "../components/text-prompt.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useCommandLine } from "../command-target.js"
import { useNotify } from "../notices.js"
import { runEffect, useEffectQuery, useRuntime } from "../runtime.js"
import { useUiActions, useUiState } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { KvKeys } from "./kv-keys.js"
import { NamespaceWriteFlow, type NamespaceWrite } from "./kv-namespace-writes.js"
import type { OpenNamespace } from "./kv-put.js"

type PromptKind = "export" | "import" | "copy" | "delete"

/** What each lifecycle prompt asks. */
const Prompts: Record<PromptKind, { title: (ns: string) => string; help: string; empty: string }> = {
  export: {
    title: (ns) => `Export ${ns} to file`,
    help: "every key with its value, metadata and expiration, as `edgectl kv export` writes it",
    empty: "a file name is needed"
  },
  import: {
    title: (ns) => `Import into ${ns} from file`,
    help: "a JSON array of bulk entries (what export writes), checked whole before anything is written",
    empty: "a file name is needed"
  },
  delete: {
    title: (ns) => `Delete from ${ns} the keys listed in file`,
    help: "a JSON array of key names (what `kv bulk delete` reads), checked whole before anything is deleted",
    empty: "a file name is needed"
  },
  copy: {
    title: (ns) => `Copy every key of ${ns} to namespace (id)`,
    help: "the id of a namespace of the same account; its keys of the same names are overwritten",
    empty: "a namespace id is needed"
  }
}

/** Account line, filter line, column titles, status line. */
const Chrome = 4

/**
 * In a narrow pane (80 columns) the ACCOUNT column goes: the title and the whole id (what
 * --namespace-id takes) matter more, and the open namespace's header names its account.
 */
const namespaceTable = (columns: number) => {
  const withAccount = flexWidth(columns, [32, 12], 2, 0) >= 20
  const title = Math.min(40, flexWidth(columns, withAccount ? [32, 12] : [32], 2, 12))
  const account = (n: Kv.AccountNamespace): ReadonlyArray<readonly [string, number]> =>
    withAccount ? [[n.account.name, 12]] : []
  return {
    header: cells([["TITLE", title], ["ID", 32], ...(withAccount ? [["ACCOUNT", 12] as const] : [])]),
    row: (n: Kv.AccountNamespace) => cells([[n.namespace.title, title], [n.namespace.id, 32], ...account(n)])
  }
}

export function KvScreen({ active }: { active: boolean }) {
  const { account } = useUiState()
  const { chooseAccount } = useUiActions()
  const pane = usePaneSize()
  const height = Math.max(1, pane.rows - Chrome)
  const table = namespaceTable(pane.columns)
  const [open, setOpen] = useState<OpenNamespace | undefined>(undefined)
  const [picking, setPicking] = useState(false)
  const [write, setWrite] = useState<NamespaceWrite | undefined>(undefined)
  const [prompt, setPrompt] = useState<{ kind: PromptKind; n: Kv.AccountNamespace } | undefined>(undefined)
  const runtime = useRuntime()
  const notify = useNotify()
  const commandLine = useCommandLine()
  const running = useRef<AbortController | undefined>(undefined)
  const [clearing, setClearing] = useState<{ n: Kv.AccountNamespace; names: ReadonlyArray<string> } | undefined>(
    undefined
  )
  const [bulkDeleting, setBulkDeleting] = useState<{ n: Kv.AccountNamespace; file: string; count: number } | undefined>(
    undefined
  )
  // Nothing drawn over the list: it shows, and (when the screen is active) takes the keys.
  const uncovered =
    open === undefined &&
    !picking &&
    write === undefined &&
    prompt === undefined &&
    clearing === undefined &&
    bulkDeleting === undefined
  const listing = active && uncovered
  const run = <A,>(effect: Parameters<typeof runEffect<A, unknown>>[1], what: string, then: (a: A) => void) => {
    running.current?.abort()
    const c = new AbortController()
    running.current = c
    void runEffect(runtime, effect, c.signal).then((r) => {
      if (r === undefined) return
      if (r.ok) then(r.value)
      else notify.error(what, r.error)
    })
  }
  const askClear = (n: Kv.AccountNamespace) =>
    run(keyNames(n.account.id, n.namespace.id), `could not list the keys of ${n.namespace.title}`, (names) => {
      if (names.length === 0) notify.warn(`${n.namespace.title} has no keys: nothing to clear`)
      else setClearing({ n, names })
    })
  const clear = (n: Kv.AccountNamespace, names: ReadonlyArray<string>) => {
    setClearing(undefined)
    run(
      deleteKeys(n.account.id, n.namespace.id, names, () => {}),
      `could not clear ${n.namespace.title}`,
      (done) => notify.done(`Deleted ${done.toLocaleString("en-US")} keys of ${n.namespace.title}.`)
    )
  }
  const submit = (kind: PromptKind, n: Kv.AccountNamespace, text: string) => {
    setPrompt(undefined)
    const { id, title } = n.namespace
    if (kind === "import")
      return run(KvBulk.bulkPutFile(n.account.id, id, text), `could not import ${text}`, (r) =>
        notify.done(`Imported ${r.count.toLocaleString("en-US")} entries into ${title}.`)
      )
    if (kind === "delete")
      return run(KvBulk.keysFileCount(text), `could not read ${text}`, (count) =>
        setBulkDeleting({ n, file: text, count })
      )
    if (kind === "copy")
      return run(copyNamespace(n.account.id, id, text), `could not copy ${title}`, (count) =>
        notify.done(`Copied ${count.toLocaleString("en-US")} keys of ${title} to namespace ${text}.`)
      )
    const file = text
    run(exportToFile(n.account.id, n.namespace.id, file), `could not export ${n.namespace.title}`, (count) =>
      notify.done(`Exported ${count.toLocaleString("en-US")} keys of ${n.namespace.title} to ${file}.`)
    )
  }
  const filter = useFilterInput({ active: listing, onMove: (press) => cursor.move(press), what: "title" })
  const { query, refresh } = useEffectQuery(
    () => Kv.namespacesOf(account === undefined ? undefined : { id: account.id, name: account.name }),
    [account?.id]
  )
  const all = query._tag === "Success" ? query.value : []
  const needle = filter.text.toLowerCase()
  const shown = needle === "" ? all : all.filter((n) => n.namespace.title.toLowerCase().includes(needle))
  const cursor = useListCursor(shown.length, height, [account?.id, filter.text])

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      switch (press.name) {
        case "enter": {
          const n = shown[cursor.index]
          if (n)
            setOpen({
              accountId: n.account.id,
              accountName: n.account.name,
              id: n.namespace.id,
              title: n.namespace.title
            })
          return n !== undefined
        }
        case "/":
          filter.start()
          return true
        case "a":
          setPicking(true)
          return true
        case "n":
          // A namespace belongs to one account: with all shown, the one under the cursor's.
          if (account === undefined && shown[cursor.index] === undefined) return false
          setWrite({
            _tag: "create",
            accountId: account?.id ?? shown[cursor.index]!.account.id,
            accountName: account?.name ?? shown[cursor.index]!.account.name
          })
          return true
        case "R":
        case "D": {
          const n = shown[cursor.index]
          if (n === undefined) return false
          const ns = {
            accountId: n.account.id,
            accountName: n.account.name,
            id: n.namespace.id,
            title: n.namespace.title
          }
          setWrite(press.name === "R" ? { _tag: "rename", ns } : { _tag: "delete", ns })
          return true
        }
        case "C": {
          const n = shown[cursor.index]
          if (n) askClear(n)
          return n !== undefined
        }
        case "x": {
          const n = shown[cursor.index]
          if (n) setPrompt({ kind: "export", n })
          return n !== undefined
        }
        case "i":
        case "b":
        case "c": {
          const n = shown[cursor.index]
          if (n) setPrompt({ kind: press.name === "i" ? "import" : press.name === "b" ? "delete" : "copy", n })
          return n !== undefined
        }
        case "r":
          refresh()
          return true
        case "escape":
        case "backspace":
          if (filter.text === "") return false
          filter.clear()
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.screen,
      active: listing && !filter.editing,
      hints: [
        ...moveHints,
        { keys: "enter", label: "keys" },
        { keys: "/", label: "filter" },
        { keys: "n", label: "new" },
        ...(shown.length > 0
          ? [
              { keys: "R", label: "rename" },
              { keys: "D", label: "delete" }
            ]
          : []),
        { keys: "a", label: "account" },
        { keys: "x", label: "export" },
        { keys: "i", label: "import" },
        { keys: "b", label: "bulk delete", keep: -1 },
        { keys: "c", label: "copy" },
        { keys: "C", label: "clear" },
        { keys: "r", label: "refresh" },
        ...(filter.text !== "" ? [{ keys: "esc", label: "clear filter" }] : [])
      ]
    }
  )

  const body = () => {
    if (query._tag === "Loading") return <Loading what="namespaces" />
    if (query._tag === "Failure") return <ErrorView what="could not list namespaces" error={query.error} />
    if (shown.length === 0) {
      return filter.text !== "" ? (
        <Empty what={`No namespaces match "${filter.text}".`} next="esc clears the filter" />
      ) : (
        <Empty
          what="No KV namespaces in this account."
          next={`n creates one (or \`${commandLine("kv namespace create NAME")}\`); a picks another account`}
        />
      )
    }
    return (
      <>
        <List
          items={shown}
          index={cursor.index}
          height={height}
          row={table.row}
          rowKey={(n) => n.namespace.id}
          header={table.header}
        />
        <ListStatus index={cursor.index} loaded={shown.length} total={shown.length} loading={false} />
      </>
    )
  }

  return (
    <Box flexDirection="column">
      {open !== undefined ? <KvKeys ns={open} active={active} onBack={() => setOpen(undefined)} /> : null}
      {write !== undefined ? (
        <NamespaceWriteFlow
          write={write}
          onClose={(changed) => {
            setWrite(undefined)
            if (changed) refresh()
          }}
        />
      ) : null}
      {prompt !== undefined ? (
        <TextPrompt
          title={Prompts[prompt.kind].title(prompt.n.namespace.title)}
          help={Prompts[prompt.kind].help}
          {...(prompt.kind === "export" ? { initial: `${prompt.n.namespace.title}.json` } : {})}
          check={(t) => (t.trim() === "" ? Prompts[prompt.kind].empty : undefined)}
          submitLabel={prompt.kind}
          onSubmit={(text) => submit(prompt.kind, prompt.n, text.trim())}
          onCancel={() => setPrompt(undefined)}
        />
      ) : null}
      {clearing !== undefined ? (
        <ConfirmDialog
          title="Clear namespace"
          lines={[
            `Delete all ${clearing.names.length.toLocaleString("en-US")} keys of namespace ${clearing.n.namespace.title} (${clearing.n.namespace.id})? Their values and metadata are lost.`
          ]}
          confirmLabel="delete every key"
          destructive
          onConfirm={() => clear(clearing.n, clearing.names)}
          onCancel={() => setClearing(undefined)}
        />
      ) : null}
      {bulkDeleting !== undefined ? (
        <ConfirmDialog
          title="Delete keys listed in a file"
          lines={[
            `Delete the ${bulkDeleting.count.toLocaleString("en-US")} keys listed in ${bulkDeleting.file} from namespace ${bulkDeleting.n.namespace.title} (${bulkDeleting.n.namespace.id})? Their values and metadata are lost.`
          ]}
          confirmLabel="delete the keys"
          destructive
          onConfirm={() => {
            const { n, file } = bulkDeleting
            setBulkDeleting(undefined)
            run(
              KvBulk.bulkDeleteFile(n.account.id, n.namespace.id, file),
              `could not delete the keys of ${file}`,
              (r) =>
                notify.done(`Deleted the ${r.count.toLocaleString("en-US")} keys of ${file} from ${n.namespace.title}.`)
            )
          }}
          onCancel={() => setBulkDeleting(undefined)}
        />
      ) : null}
      {picking ? (
        <AccountPicker
          height={Math.max(1, pane.rows - 3)}
          onPick={(a) => {
            setPicking(false)
            chooseAccount(a)
          }}
          onCancel={() => setPicking(false)}
        />
      ) : null}
      <Box flexDirection="column" display={uncovered ? "flex" : "none"}>
        <Text>
          <Text dimColor>account </Text>
          {account?.name ?? "All accounts"}
          <Text dimColor> (a to change)</Text>
        </Text>
        <FilterBar filter={filter} what="title" />
        {body()}
      </Box>
    </Box>
  )
}
