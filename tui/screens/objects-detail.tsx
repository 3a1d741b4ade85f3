/**
 * One object, opened from the Objects list: its alarm and size above three tabs. keys: its keys and
 * values (enter shows a value whole, n puts a key, e edits its value, d deletes it); sql: a console
 * (enter types a query); bookmarks: the timeline, each with the time it stands for (enter restores
 * to one; the undo bookmark is shown). a sets the alarm, x deletes it (objects-writes.tsx). All of
 * it goes through the host running the object, if any, and stays current (objects-live.ts).
 */
import { Box, Text } from "ink"
import { useContext, useState } from "react"
import { alarmText } from "../../src/objects/alarm-time.js"
import { cells } from "../components/columns.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { List, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { TextPrompt } from "../components/text-prompt.js"
import { fromUnknown } from "../errors.js"
import { KeyLayer, useHoldKeys, useKeys } from "../keys.js"
import { useNotify } from "../notices.js"
import { usePaneSize } from "../terminal.js"
import {
  ObjectsDirContext,
  putJsonHint,
  readValue,
  restoreTo,
  runSql,
  type ObjectView,
  type SqlResult,
  type StoredObject,
  shortBookmark
} from "./objects-data.js"
import { useObjectView } from "./objects-live.js"
import { ObjectValueView } from "./objects-value.js"
import { ObjectWriteDialog, type ObjectWrite } from "./objects-writes.js"

type Tab = "keys" | "sql" | "bookmarks"
const TABS: ReadonlyArray<Tab> = ["keys", "sql", "bookmarks"]

// A row is one line: a line break shows as ⏎ and a tab as a space (enter shows the value whole).
const oneLine = (text: string): string => text.replace(/\r?\n/g, "⏎").replace(/[\t\r]/g, " ")

export function ObjectDetail({
  object,
  active,
  onBack
}: {
  object: StoredObject
  active: boolean
  onBack: () => void
}) {
  const notify = useNotify()
  const dir = useContext(ObjectsDirContext)
  const pane = usePaneSize()
  const [tab, setTab] = useState<Tab>("keys")
  const [typing, setTyping] = useState(false)
  // The queries run on this object in this session, oldest first: the SQL prompt's up/down.
  const [queries, setQueries] = useState<ReadonlyArray<string>>([])
  const [result, setResult] = useState<SqlResult | undefined>(undefined)
  const [confirm, setConfirm] = useState<string | undefined>(undefined)
  const [undo, setUndo] = useState<string | undefined>(undefined)
  // The key whose value is shown whole, the write dialog open, and a count of writes (a shown value reads again).
  const [shownKey, setShownKey] = useState<string | undefined>(undefined)
  const [write, setWrite] = useState<ObjectWrite | undefined>(undefined)
  const [writes, setWrites] = useState(0)
  // Opening fails when a process other than a host holds the object: the failure says who, whole.
  const { view, failure, reload, replace } = useObjectView(object, active)
  // Keys pressed while the object is first read wait for it (enter, e, d act on its first key).
  // And while a write is in flight (then they act on what it left).
  const [writing, setWriting] = useState(false)
  useHoldKeys((view === undefined && failure === undefined) || writing)
  // The header names the object, then its alarm and size; where that does not fit one line (80
  // columns with an alarm set cut the size: issue 29) the alarm and size take a line of their own.
  const live = view?.host !== undefined ? `  live in pid ${view.host.pid}` : ""
  const facts = `alarm ${view?.alarm == null ? "none" : alarmText(view.alarm, Date.now())}  size ${view?.bytes ?? "…"} bytes`
  const named = `${view?.host !== undefined ? "● " : ""}${object.className} ${object.name ?? object.id}${live}`
  const headerRows = [...named].length + 2 + [...facts].length > pane.columns ? 2 : 1
  const height = Math.max(1, pane.rows - 5 - headerRows)
  const rows: ReadonlyArray<readonly [string, string]> | ObjectView["history"] =
    tab === "keys" ? (view?.entries ?? []) : tab === "bookmarks" ? (view?.history ?? []) : []
  // The cursor follows its row when the view is read again (a restore adds a commit at the top).
  const cursor = useListCursor<readonly [string, string] | ObjectView["history"][number]>(rows.length, height, [tab], {
    items: rows,
    key: (r) => ("bookmark" in r ? r.bookmark : r[0])
  })
  const stale = result !== undefined && view !== undefined && view.bookmark !== result.bookmark
  const keyAt = tab === "keys" ? view?.entries[cursor.index]?.[0] : undefined
  const alarm = view?.alarm ?? null
  // An edit starts from the value as stored (the list shows it cut); only a string is edited here.
  const edit = (key: string) =>
    readValue(object, key).then(
      (r) =>
        !r.found
          ? notify.warn(`no key ${JSON.stringify(key)} any more (deleted since?)`)
          : typeof r.value === "string"
            ? setWrite({ kind: "put-value", key, initial: r.value, edit: true })
            : notify.warn(`only a string value is edited here: ${putJsonHint(dir, object.className)}`),
      (e: unknown) => notify.error(`read ${JSON.stringify(key)}`, fromUnknown(e))
    )
  // The alarm's keys work on every tab and in a value's view.
  const alarmKey = (name: string): boolean => {
    if (name === "a") setWrite({ kind: "set-alarm" })
    else if (name === "x") {
      if (alarm === null) notify.warn("no alarm to delete (a sets one)")
      else setWrite({ kind: "delete-alarm" })
    } else return false
    return true
  }
  const alarmHints = [
    { keys: "a", label: "set alarm" },
    ...(alarm !== null ? [{ keys: "x", label: "delete alarm" }] : [])
  ]

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
        case "n":
          if (tab !== "keys") return false
          setWrite({ kind: "put-key" })
          return true
        case "e":
          if (keyAt !== undefined) void edit(keyAt)
          return keyAt !== undefined
        case "d":
          if (keyAt !== undefined) setWrite({ kind: "delete-key", key: keyAt })
          return keyAt !== undefined
        case "enter":
          if (tab === "keys" && keyAt !== undefined) setShownKey(keyAt)
          else if (tab === "sql") setTyping(true)
          else if (tab === "bookmarks" && view?.history[cursor.index]) setConfirm(view.history[cursor.index]!.bookmark)
          else return false
          return true
        default:
          return alarmKey(press.name)
      }
    },
    {
      priority: KeyLayer.view,
      active: active && !typing && confirm === undefined && write === undefined && shownKey === undefined,
      hints: [
        ...moveHints,
        { keys: "tab/shift+tab", label: "keys/sql/bookmarks" },
        ...(tab === "keys"
          ? [
              ...(keyAt !== undefined ? [{ keys: "enter", label: "view value" }] : []),
              { keys: "n", label: "put key" },
              ...(keyAt !== undefined
                ? [
                    { keys: "e", label: "edit" },
                    { keys: "d", label: "delete" }
                  ]
                : [])
            ]
          : tab === "sql"
            ? [{ keys: "enter", label: "type SQL" }]
            : tab === "bookmarks"
              ? [{ keys: "enter", label: "restore" }]
              : []),
        ...alarmHints,
        { keys: "r", label: "refresh" },
        { keys: "esc", label: "back" }
      ]
    }
  )
  // The alarm's keys over a shown value (its own layer takes the rest).
  useKeys((press) => alarmKey(press.name), {
    priority: KeyLayer.screen,
    active: active && shownKey !== undefined && write === undefined,
    hints: alarmHints
  })

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
    if (shownKey !== undefined)
      return (
        <ObjectValueView
          object={object}
          name={shownKey}
          active={active && write === undefined}
          height={pane.rows - 2 - headerRows}
          version={writes}
          onBack={() => setShownKey(undefined)}
          onEdit={(text) => setWrite({ kind: "put-value", key: shownKey, initial: text, edit: true })}
          onDelete={() => setWrite({ kind: "delete-key", key: shownKey })}
        />
      )
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
              [oneLine(key), k],
              [oneLine(value), pane.columns - k - 4]
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
      <Text wrap="truncate-end">
        {view?.host !== undefined ? <Text color="green">● </Text> : null}
        <Text bold>{object.className}</Text> {object.name ?? object.id}
        {live !== "" ? <Text color="green">{live}</Text> : null}
        {headerRows === 1 ? <Text dimColor>{`  ${facts}`}</Text> : null}
      </Text>
      {headerRows === 2 ? (
        <Text dimColor wrap="truncate-end">
          {facts}
        </Text>
      ) : null}
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
      {write !== undefined ? (
        <ObjectWriteDialog
          object={object}
          write={write}
          alarm={alarm}
          onChange={setWrite}
          onBusy={setWriting}
          onWritten={(w) => {
            setWrites((n) => n + 1)
            if (w.kind === "delete" && w.key === shownKey) setShownKey(undefined)
            reload()
          }}
        />
      ) : null}
      {!typing && confirm === undefined && write === undefined ? body() : null}
    </Box>
  )
}
