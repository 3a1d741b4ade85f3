/**
 * The keys of one namespace: paged by cursor (100 at a time as the cursor moves), `/` filters by
 * prefix on the server, enter shows the value, n puts a new key, d deletes the key under the cursor
 * after a confirmation; each action's result is one line under the list.
 */
import { Box, Text } from "ink"
import { useEffect, useRef, useState } from "react"
import type { KvKey } from "../../src/domain/kv.js"
import * as Kv from "../../src/services/kv-service.js"
import { cells, flexWidth } from "../components/columns.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { useNotify } from "../notices.js"
import { useSessionLog } from "../session-log.js"
import { FilterBar, useFilterInput } from "../components/filter-bar.js"
import { List, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { useCursorList } from "../paged-list.js"
import { KeyLayer, useKeys } from "../keys.js"
import { expiresCell } from "./kv-format.js"
import { runEffect, useRuntime } from "../runtime.js"
import { usePaneSize } from "../terminal.js"
import { KvPutForm, type OpenNamespace, type PutValues } from "./kv-put.js"
import { KvValueView } from "./kv-value.js"

const KeysPerPage = 100
/** Title, filter, column titles and status lines. */
const Chrome = 4

type Mode =
  | { readonly _tag: "list" }
  | { readonly _tag: "value"; readonly name: string }
  | { readonly _tag: "put"; readonly initial: PutValues | undefined; readonly back: "list" | string }
  | { readonly _tag: "delete"; readonly name: string; readonly back: "list" | string }

const keyTable = (columns: number) => {
  const flex = flexWidth(columns, [12]) - 2
  const name = Math.max(16, Math.ceil(flex * 0.6))
  const meta = Math.max(8, flex - name)
  return {
    header: cells([
      ["NAME", name],
      ["EXPIRES", 12],
      ["METADATA", meta]
    ]),
    row: (k: KvKey, now: number) =>
      cells([
        [k.name, name],
        [expiresCell(k.expiration, now), 12],
        [k.metadata === undefined ? "" : JSON.stringify(k.metadata), meta]
      ])
  }
}

export function KvKeys({ ns, active, onBack }: { ns: OpenNamespace; active: boolean; onBack: () => void }) {
  const runtime = useRuntime()
  const pane = usePaneSize()
  const rows = Math.max(1, pane.rows - Chrome)
  const table = keyTable(pane.columns)
  const [mode, setMode] = useState<Mode>({ _tag: "list" })
  const notify = useNotify()
  const log = useSessionLog()
  const listing = active && mode._tag === "list"
  const filter = useFilterInput({ active: listing, onMove: (press) => cursor.move(press), what: "prefix" })
  const prefix = filter.text === "" ? undefined : filter.text
  const list = useCursorList(
    (cursor) => Kv.listKeysPage(ns.accountId, ns.id, { prefix, cursor, limit: KeysPerPage }),
    [ns.id, prefix]
  )
  const cursor = useListCursor(list.items.length, rows, [ns.id, prefix])
  const controller = useRef<AbortController | undefined>(undefined)
  useEffect(() => () => controller.current?.abort(), [])

  const nearEnd = cursor.index >= list.items.length - Math.max(20, rows)
  useEffect(() => {
    if (nearEnd && list.hasMore && !list.loading && list.error === undefined) list.loadMore()
  }, [nearEnd, list])

  const remove = (name: string) => {
    const c = new AbortController()
    controller.current = c
    void runEffect(runtime, Kv.deleteValue(ns.accountId, ns.id, name), c.signal).then((r) => {
      if (r === undefined) return
      log.record({
        where: ns.title,
        what: `deleted key ${JSON.stringify(name)}`,
        result: r.ok ? "ok" : { error: r.error.message }
      })
      if (r.ok) {
        notify.done(`Deleted key ${JSON.stringify(name)}.`)
        list.refresh()
      } else notify.error(`could not delete ${JSON.stringify(name)}`, r.error)
    })
  }

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      const current = list.items[cursor.index]
      switch (press.name) {
        case "enter":
          if (current !== undefined) setMode({ _tag: "value", name: current.name })
          return current !== undefined
        case "n":
          setMode({ _tag: "put", initial: undefined, back: "list" })
          return true
        case "d":
          if (current !== undefined) setMode({ _tag: "delete", name: current.name, back: "list" })
          return current !== undefined
        case "/":
          filter.start()
          return true
        case "r":
          list.refresh()
          return true
        case "escape":
        case "backspace":
          if (filter.text !== "") filter.clear()
          else onBack()
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.view,
      active: listing && !filter.editing,
      hints: [
        ...moveHints,
        { keys: "enter", label: "value" },
        { keys: "n", label: "new key" },
        { keys: "d", label: "delete" },
        { keys: "/", label: "prefix" },
        { keys: "r", label: "refresh" },
        { keys: "esc", label: filter.text !== "" ? "clear filter" : "namespaces" }
      ]
    }
  )

  const back = (to: "list" | string) => setMode(to === "list" ? { _tag: "list" } : { _tag: "value", name: to })
  const now = Math.floor(Date.now() / 1000)

  const body = () => {
    if (list.items.length === 0) {
      if (list.error) return <ErrorView what="could not list keys" error={list.error} />
      if (list.loading) return <Loading what="keys" />
      return prefix !== undefined ? (
        <Empty what={`No keys start with "${prefix}".`} next="esc clears the filter; n puts a key" />
      ) : (
        <Empty what="No keys in this namespace." next="n puts a key; esc goes back to the namespaces" />
      )
    }
    return (
      <>
        <List
          items={list.items}
          index={cursor.index}
          height={rows}
          row={(k) => table.row(k, now)}
          rowKey={(k) => k.name}
          header={table.header}
          focused={listing}
        />
        {list.error ? <ErrorView what="could not load more keys" error={list.error} /> : null}
        <Text dimColor>
          {cursor.index + 1}/{list.items.length}
          {list.hasMore ? "+" : ""}
          {list.refreshing
            ? " · refreshing…"
            : list.loading
              ? " · loading more…"
              : list.hasMore
                ? " · more as you scroll"
                : ""}
        </Text>
      </>
    )
  }

  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{ns.title}</Text>
        <Text dimColor>
          {"  "}
          {ns.id} · {ns.accountName}
        </Text>
      </Text>
      {mode._tag === "value" ? (
        <KvValueView
          ns={ns}
          name={mode.name}
          active={active}
          height={pane.rows - 2}
          onBack={() => setMode({ _tag: "list" })}
          onEdit={(initial) => setMode({ _tag: "put", initial, back: mode.name })}
          onDelete={() => setMode({ _tag: "delete", name: mode.name, back: mode.name })}
        />
      ) : null}
      {mode._tag === "put" ? (
        <KvPutForm
          ns={ns}
          {...(mode.initial !== undefined ? { initial: mode.initial } : {})}
          onCancel={() => back(mode.back)}
          onDone={(key) => {
            notify.done(`Saved key ${JSON.stringify(key)}.`)
            list.refresh()
            setMode({ _tag: "value", name: key })
          }}
        />
      ) : null}
      {mode._tag === "delete" ? (
        <ConfirmDialog
          title="Delete key"
          lines={[`Delete key ${JSON.stringify(mode.name)} from ${ns.title}? Its value and metadata are lost.`]}
          confirmLabel="delete the key"
          destructive
          requests={[Kv.deleteValueRequest(ns.accountId, ns.id, mode.name)]}
          onConfirm={() => {
            remove(mode.name)
            setMode({ _tag: "list" })
          }}
          onCancel={() => back(mode.back)}
        />
      ) : null}
      <Box flexDirection="column" display={mode._tag === "list" || mode._tag === "delete" ? "flex" : "none"}>
        <FilterBar filter={filter} what="prefix" />
        {body()}
      </Box>
    </Box>
  )
}
