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
import { List, ListStatus, moveHints, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { usePaneSize } from "../terminal.js"
import { ObjectsDirContext, objectsCommand, type Host, type StoredObject } from "./objects-data.js"
import { ObjectDetail } from "./objects-detail.js"
import { useStoredObjects } from "./objects-live.js"

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
        next={`run \`${objectsCommand(dir, "dev MODULE")}\`, or write with \`${objectsCommand(dir, "kv CLASS NAME put KEY VALUE")}\``}
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
