/**
 * Objects: the stateful objects stored under the state directory. The list shows class, name, id
 * and size, and marks (●) those running in a host; enter opens one: its alarm, its keys and
 * values, a SQL console (enter types a query) and the bookmark timeline, where enter restores to a
 * bookmark (the undo bookmark is shown). All of it goes through the host running the object, if
 * any, and stays current as the object changes (objects-live.ts).
 * Everything an open object's view holds (SQL result, tab, cursors) belongs to that object: the
 * view is keyed by it, so it starts fresh for every object however the keys that open it arrive.
 */
import { Box, Text } from "ink"
import * as path from "node:path"
import { useContext, useState } from "react"
import { cells, flexWidth } from "../components/columns.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { TextPrompt } from "../components/text-prompt.js"
import { fromUnknown } from "../errors.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useNotify } from "../notices.js"
import { usePaneSize } from "../terminal.js"
import {
  ObjectsDirContext,
  restoreTo,
  runSql,
  type Host,
  type ObjectView,
  type SqlResult,
  type StoredObject,
  shortBookmark
} from "./objects-data.js"
import { useObjectView, useStoredObjects } from "./objects-live.js"

// The module's file name is enough beside the pid (the whole path would take the line).
const hostText = (h: Host): string =>
  `running in a host: pid ${h.pid}${h.module === "" ? "" : ` (${path.basename(h.module)})`}`

export function ObjectsScreen({ active }: { active: boolean }) {
  const dir = useContext(ObjectsDirContext)
  const pane = usePaneSize()
  const [open, setOpen] = useState<StoredObject | undefined>(undefined)
  const { objects, hosts, failure, load } = useStoredObjects(dir, active && open === undefined)
  const all = objects ?? []
  const height = Math.max(1, pane.rows - 3)
  const cursor = useListCursor(all.length, height, [dir], { items: all, key: (o) => o.dir })
  const name = Math.min(30, flexWidth(pane.columns, [1, 14, 13, 10]))

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (press.name === "enter" && all[cursor.index]) {
        setOpen(all[cursor.index])
        return true
      }
      if (press.name === "r") {
        load()
        return true
      }
      return false
    },
    {
      priority: KeyLayer.screen,
      active: active && open === undefined,
      hints: [...moveHints, { keys: "enter", label: "open" }, { keys: "r", label: "refresh" }]
    }
  )

  if (open !== undefined)
    return <ObjectDetail key={open.dir} object={open} active={active} onBack={() => (setOpen(undefined), load())} />
  if (failure !== undefined)
    return (
      <ErrorView
        what={`could not list the objects under ${dir}`}
        error={{ ...failure, hint: failure.hint ?? "r reads them again" }}
      />
    )
  if (objects === undefined) return <Loading what="objects" />
  if (all.length === 0)
    return (
      <Empty
        what={`No objects under ${dir}.`}
        next="run `edgectl objects dev MODULE`, or write with `edgectl objects kv CLASS NAME put KEY VALUE`"
      />
    )
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-start">
        {dir}
        {hosts.length > 0 ? `  ● ${hostText(hosts[0]!)}${hosts.length > 1 ? ` and ${hosts.length - 1} more` : ""}` : ""}
      </Text>
      <List
        items={all}
        index={cursor.index}
        height={height}
        header={cells([
          [" ", 1],
          ["CLASS", 14],
          ["NAME", name],
          ["ID", 13],
          ["BYTES", 10]
        ])}
        row={(o) =>
          cells([
            [o.host === undefined ? " " : "●", 1],
            [o.className, 14],
            [o.name ?? "-", name],
            [`${o.id.slice(0, 12)}…`, 13],
            [String(o.bytes), 10]
          ])
        }
        rowKey={(o) => `${o.className}/${o.id}`}
      />
      <ListStatus index={cursor.index} loaded={all.length} total={all.length} loading={false} />
    </Box>
  )
}

type Tab = "keys" | "sql" | "bookmarks"
const TABS: ReadonlyArray<Tab> = ["keys", "sql", "bookmarks"]

function ObjectDetail({ object, active, onBack }: { object: StoredObject; active: boolean; onBack: () => void }) {
  const notify = useNotify()
  const pane = usePaneSize()
  const [tab, setTab] = useState<Tab>("keys")
  const [typing, setTyping] = useState(false)
  // The queries run on this object in this session, oldest first: the SQL prompt's up/down.
  const [queries, setQueries] = useState<ReadonlyArray<string>>([])
  const [result, setResult] = useState<SqlResult | undefined>(undefined)
  const [confirm, setConfirm] = useState<string | undefined>(undefined)
  const [undo, setUndo] = useState<string | undefined>(undefined)
  // Opening fails when a process other than a host holds the object: the failure says who, whole.
  const { view, failure, reload, replace } = useObjectView(object, active)
  const height = Math.max(1, pane.rows - 6)
  const rows: ReadonlyArray<readonly [string, string]> | ObjectView["history"] =
    tab === "keys" ? (view?.entries ?? []) : tab === "bookmarks" ? (view?.history ?? []) : []
  // The cursor follows its row when the view is read again (a restore adds a commit at the top).
  const cursor = useListCursor<readonly [string, string] | ObjectView["history"][number]>(rows.length, height, [tab], {
    items: rows,
    key: (r) => ("bookmark" in r ? r.bookmark : r[0])
  })
  const stale = result !== undefined && view !== undefined && view.bookmark !== result.bookmark

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      switch (press.name) {
        case "tab":
          setTab((t) => TABS[(TABS.indexOf(t) + 1) % TABS.length]!)
          return true
        case "shift+tab":
          setTab((t) => TABS[(TABS.indexOf(t) + TABS.length - 1) % TABS.length]!)
          return true
        case "escape":
        case "backspace":
          onBack()
          return true
        case "r":
          reload()
          return true
        case "enter":
          if (tab === "sql") setTyping(true)
          else if (tab === "bookmarks" && view?.history[cursor.index]) setConfirm(view.history[cursor.index]!.bookmark)
          else return false
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.view,
      active: active && !typing && confirm === undefined,
      hints: [
        ...moveHints,
        { keys: "tab/shift+tab", label: "keys/sql/bookmarks" },
        ...(tab === "sql"
          ? [{ keys: "enter", label: "type SQL" }]
          : tab === "bookmarks"
            ? [{ keys: "enter", label: "restore" }]
            : []),
        { keys: "r", label: "refresh" },
        { keys: "esc", label: "back" }
      ]
    }
  )

  const body = () => {
    if (failure !== undefined) {
      return (
        <ErrorView
          what="could not open the object"
          error={
            failure.busy
              ? { ...failure.error, hint: "stop that process (or wait for it to end), then press r; esc goes back" }
              : failure.error
          }
        />
      )
    }
    if (view === undefined) return <Loading what="the object" />
    if (tab === "keys") {
      if (view.entries.length === 0) return <Empty what="No keys." next="tab: the SQL console and the bookmarks" />
      const k = Math.min(32, Math.floor(pane.columns / 3))
      return (
        <List
          items={view.entries}
          index={cursor.index}
          height={height}
          header={cells([
            ["KEY", k],
            ["VALUE", pane.columns - k - 4]
          ])}
          row={([key, value]) =>
            cells([
              [key, k],
              [value, pane.columns - k - 4]
            ])
          }
          rowKey={([key]) => key}
        />
      )
    }
    if (tab === "sql") {
      if (result === undefined)
        return (
          <Text dimColor>enter: type a query (several statements allowed); the last statement's rows show here</Text>
        )
      const w = Math.max(6, Math.floor((pane.columns - 2) / Math.max(1, result.columns.length)) - 2)
      return (
        <Box flexDirection="column">
          {result.columns.length > 0 ? <Text bold>{cells(result.columns.map((c) => [c, w] as const))}</Text> : null}
          {result.rows.slice(0, height - 2).map((r, i) => (
            <Text key={i}>{cells(r.map((v) => [v, w] as const))}</Text>
          ))}
          <Text dimColor>
            {result.rows.length} row(s); rows read {result.rowsRead}, rows written {result.rowsWritten}
          </Text>
          {stale ? (
            <Text color="yellow">out of date: the object changed since this query ran (enter runs one again)</Text>
          ) : null}
        </Box>
      )
    }
    if (view.history.length === 0)
      return <Empty what="No changes in the last 30 days." next="writes appear here as bookmarks" />
    return (
      <List
        items={view.history}
        index={cursor.index}
        height={height}
        header={cells([
          ["BOOKMARK", 27],
          ["TIME (UTC)", 20],
          ["KIND", 7]
        ])}
        // Seconds are enough beside the bookmark (it orders commits of the same second), and the row fits 80
        // columns: the bookmark's time and sequence, without its check part (enter shows it whole).
        row={(c) =>
          cells([
            [shortBookmark(c.bookmark), 27],
            [new Date(c.time).toISOString().replace(/\.\d{3}Z$/, "Z"), 20],
            [c.restore ? "restore" : "write", 7]
          ])
        }
        rowKey={(c) => c.bookmark}
      />
    )
  }

  return (
    <Box flexDirection="column">
      <Text>
        {view?.host !== undefined ? <Text color="green">● </Text> : null}
        <Text bold>{object.className}</Text> {object.name ?? object.id}
        {view?.host !== undefined ? <Text color="green">{`  live in pid ${view.host.pid}`}</Text> : null}
        <Text dimColor>
          {"  "}alarm {view?.alarm == null ? "none" : new Date(view.alarm).toISOString()}
          {"  "}size {view?.bytes ?? "…"} bytes
        </Text>
      </Text>
      <Text>
        {TABS.map((t) => (
          <Text key={t} inverse={t === tab}>
            {` ${t} `}
          </Text>
        ))}
        {undo !== undefined ? <Text color="yellow">{`  undo: ${shortBookmark(undo)}`}</Text> : null}
      </Text>
      {typing ? (
        <TextPrompt
          title="SQL"
          help="runs in the object's database; _cf_ tables are reserved"
          submitLabel="run"
          newlines="keep"
          check={(t) => (t.trim() === "" ? "type a query" : undefined)}
          onCancel={() => setTyping(false)}
          history={queries}
          onSubmit={(q) => {
            setTyping(false)
            setQueries((h) => (h[h.length - 1] === q ? h : [...h, q]))
            // The result and the view read after it show together, so the result is never marked out of date by its own writes.
            runSql(object, q).then(
              ({ result: r, view: v }) => {
                setResult(r)
                replace(v)
                notify.done(`${r.rows.length} row(s), ${r.rowsWritten} written`)
              },
              (e: unknown) => notify.error("sql", fromUnknown(e))
            )
          }}
        />
      ) : null}
      {confirm !== undefined ? (
        <ConfirmDialog
          title={`Restore ${object.className} ${object.name ?? object.id} to this bookmark?`}
          lines={[
            confirm,
            "Keys, tables and the alarm return to that moment.",
            ...(view?.host !== undefined ? [`Running in pid ${view.host.pid}: reset, requests in flight fail.`] : []),
            "It can be undone from the bookmark it shows."
          ]}
          confirmLabel="restore"
          onCancel={() => setConfirm(undefined)}
          onConfirm={() => {
            const b = confirm
            setConfirm(undefined)
            restoreTo(object, b).then(
              (u) => {
                setUndo(u)
                notify.done(`restored; undo bookmark ${u}`)
                reload()
              },
              (e: unknown) => notify.error("restore", fromUnknown(e))
            )
          }}
        />
      ) : null}
      {!typing && confirm === undefined ? body() : null}
    </Box>
  )
}
