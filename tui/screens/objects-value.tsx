/**
 * One key of an object, whole: its kind and size, then the value (a string as it is, bytes as a hex
 * dump, anything else as indented JSON), long lines wrapped to the pane with no indent so copied
 * rows give the line back; scrolled with the movement keys. e edits a string, d deletes (the
 * screen confirms), esc goes back. Read with the request `edgectl objects kv get` sends.
 */
import { Box, Text } from "ink"
import { useContext, useEffect, useState } from "react"
import { ErrorView, Loading } from "../components/states.js"
import { fromUnknown, type UiError } from "../errors.js"
import { useScroll } from "../components/scroll.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useNotify } from "../notices.js"
import { usePaneSize } from "../terminal.js"
import { hexRows, sizeText, valueRows } from "./kv-format.js"
import { ObjectsDirContext, putJsonHint, readValue, type StoredObject } from "./objects-data.js"

export interface ShownValue {
  readonly kind: string
  readonly size: string
  readonly lines: ReadonlyArray<string>
  /** The text an edit starts from: only a string is edited here. */
  readonly text: string | undefined
}

const bytesOf = (v: unknown): Uint8Array | undefined =>
  v instanceof ArrayBuffer
    ? new Uint8Array(v)
    : ArrayBuffer.isView(v)
      ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength)
      : undefined

const json = (v: unknown): string =>
  JSON.stringify(
    v,
    (_k, x: unknown) =>
      x instanceof Map
        ? Object.fromEntries(x)
        : x instanceof Set
          ? [...x]
          : typeof x === "bigint"
            ? `${x}n`
            : x instanceof Date
              ? x.toISOString()
              : x,
    2
  ) ?? String(v)

/** How a stored value shows: exported for the tests of odd values. */
export const showValue = (v: unknown, width?: number): ShownValue => {
  if (typeof v === "string") return { kind: "string", size: `${v.length} characters`, lines: v.split(/\r?\n/), text: v }
  const bytes = bytesOf(v)
  if (bytes !== undefined)
    return { kind: "bytes (hex)", size: sizeText(bytes.length), lines: hexRows(bytes, width), text: undefined }
  const kind = v === null ? "null" : Array.isArray(v) ? "array" : v instanceof Map ? "Map" : typeof v
  return { kind, size: "", lines: json(v).split("\n"), text: undefined }
}

// Key, details, separator.
const Chrome = 3

export function ObjectValueView(props: {
  readonly object: StoredObject
  readonly name: string
  readonly active: boolean
  readonly height: number
  /** Bumped after a write: the value is read again. */
  readonly version: number
  readonly onBack: () => void
  readonly onEdit: (text: string) => void
  readonly onDelete: () => void
}) {
  const { object, name } = props
  const notify = useNotify()
  const dir = useContext(ObjectsDirContext)
  const [read, setRead] = useState<{ found: boolean; value: unknown } | UiError | undefined>(undefined)
  useEffect(() => {
    let alive = true
    readValue(object, name).then(
      (r) => alive && setRead(r),
      (e: unknown) => alive && setRead(fromUnknown(e))
    )
    return () => {
      alive = false
    }
  }, [object, name, props.version])
  const width = Math.max(1, usePaneSize().columns)
  const shown = read !== undefined && "found" in read && read.found ? showValue(read.value, width) : undefined
  const lines = shown === undefined ? [] : valueRows(shown.lines, width)
  const rows = Math.max(1, props.height - Chrome)
  const maxTop = Math.max(0, lines.length - rows)
  const { first, scroll } = useScroll(maxTop, rows)

  useKeys(
    (press) => {
      if (scroll(press.name)) return true
      switch (press.name) {
        case "escape":
        case "backspace":
          props.onBack()
          return true
        case "d":
          props.onDelete()
          return true
        case "e":
          if (shown === undefined) return true
          if (shown.text === undefined)
            notify.warn(`a ${shown.kind} value is not edited here (a string is): ${putJsonHint(dir, object.className)}`)
          else props.onEdit(shown.text)
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.view,
      active: props.active,
      hints: [
        { keys: "↑↓/jk", label: "scroll" },
        { keys: "e", label: "edit" },
        { keys: "d", label: "delete" },
        { keys: "esc", label: "back" }
      ]
    }
  )

  if (read === undefined) return <Loading what={`the value of ${JSON.stringify(name)}`} />
  if (!("found" in read)) return <ErrorView what={`could not read ${JSON.stringify(name)}`} error={read} />
  if (shown === undefined)
    return (
      <ErrorView
        what={`could not read ${JSON.stringify(name)}`}
        error={{ message: "no such key (deleted since?)", code: undefined, hint: "esc goes back" }}
      />
    )
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {name}
      </Text>
      <Text dimColor wrap="truncate-end">
        {shown.kind}
        {shown.size !== "" ? ` · ${shown.size}` : ""}
        {lines.length > rows ? ` · rows ${first + 1}-${Math.min(first + rows, lines.length)} of ${lines.length}` : ""}
      </Text>
      <Text dimColor>{"─".repeat(20)}</Text>
      {lines.length === 1 && lines[0] === "" ? <Text dimColor>(empty string)</Text> : null}
      {lines.slice(first, first + rows).map((line, i) => (
        <Text key={first + i} wrap="truncate-end">
          {line === "" ? " " : line}
        </Text>
      ))}
    </Box>
  )
}
