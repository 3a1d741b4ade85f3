/**
 * One key's value: its size, kind, expiration and metadata, then the value (text, JSON
 * pretty-printed, binary as hex), scrolled with the movement keys. e edits, d deletes (after a
 * confirmation), esc goes back to the keys.
 */
import * as Effect from "effect/Effect"
import { Box, Text } from "ink"
import * as Kv from "../../src/services/kv-service.js"
import { ErrorView, Loading } from "../components/states.js"
import { useScroll } from "../components/scroll.js"
import { KeyLayer, useHoldKeys, useKeys } from "../keys.js"
import { asText, expiresText, sizeText, valueRows, viewValue } from "./kv-format.js"
import { useEffectQuery } from "../runtime.js"
import type { OpenNamespace, PutValues } from "./kv-put.js"
import { shellWord } from "../../src/domain/shell-word.js"
import { useCommandLine } from "../command-target.js"
import { useNotify } from "../notices.js"
import { usePaneSize } from "../terminal.js"

/** Header lines above the value: key, details, metadata, separator. */
const Chrome = 4

export function KvValueView(props: {
  readonly ns: OpenNamespace
  readonly name: string
  readonly active: boolean
  readonly height: number
  readonly onBack: () => void
  readonly onEdit: (initial: PutValues) => void
  readonly onDelete: () => void
  /** Shown for a value that cannot be edited here. */
}) {
  const { ns, name } = props
  const commandLine = useCommandLine()
  const notify = useNotify()
  const { query, refresh } = useEffectQuery(
    () =>
      Effect.all({
        value: Kv.getValue(ns.accountId, ns.id, name),
        metadata: Kv.getMetadata(ns.accountId, ns.id, name)
      }),
    [ns.id, name]
  )
  const width = Math.max(1, usePaneSize().columns)
  // A binary value's dump takes 8 bytes a row where 16 do not fit (issue 29: they wrapped at 80
  // columns), as an object's value does; long text lines wrap to the pane.
  const parsed = query._tag === "Success" ? viewValue(query.value.value.bytes, width) : undefined
  const view = parsed === undefined ? undefined : { ...parsed, lines: valueRows(parsed.lines, width) }
  const rows = Math.max(1, props.height - Chrome)
  const maxTop = Math.max(0, (view?.lines.length ?? 0) - rows)
  const { first: top, scroll } = useScroll(maxTop, rows, name)

  // Keys typed while the value loads (as it opens after a save, or on r) wait for it: `e` needs
  // the value, and the keys after it go to the form it opens.
  useHoldKeys(props.active && query._tag === "Loading")
  useKeys(
    (press) => {
      if (scroll(press.name)) return true
      switch (press.name) {
        case "escape":
        case "backspace":
          props.onBack()
          return true
        case "r":
          refresh()
          return true
        case "d":
          props.onDelete()
          return true
        case "e": {
          if (query._tag !== "Success") return true
          const text = asText(query.value.value.bytes)
          if (text === undefined) {
            notify.warn(
              `a binary value cannot be edited here: use \`${commandLine(`kv key put ${shellWord(name)} --path FILE --namespace-id ${ns.id}`)}\``
            )
            return true
          }
          const m = query.value.metadata
          props.onEdit({
            key: name,
            value: text,
            metadata: m === null || m === undefined ? "" : JSON.stringify(m),
            expiration: query.value.value.expiration !== undefined ? String(query.value.value.expiration) : "",
            ttl: ""
          })
          return true
        }
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
        { keys: "r", label: "refresh" },
        { keys: "esc", label: "back" }
      ]
    }
  )

  if (query._tag === "Loading") return <Loading what={`the value of ${JSON.stringify(name)}`} />
  if (query._tag === "Failure") return <ErrorView what={`could not read ${JSON.stringify(name)}`} error={query.error} />
  const { value, metadata } = query.value
  const now = Math.floor(Date.now() / 1000)
  const lines = view!.lines.slice(top, top + rows)
  const hasMetadata = metadata !== null && metadata !== undefined
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {name}
      </Text>
      <Text dimColor wrap="truncate-end">
        {sizeText(value.bytes.length)} ·{" "}
        {view!.kind === "binary" ? "binary (hex)" : view!.kind === "json" ? "JSON" : "text"} · expires{" "}
        {expiresText(value.expiration, now)}
        {view!.lines.length > rows
          ? ` · rows ${top + 1}-${Math.min(top + rows, view!.lines.length)} of ${view!.lines.length}`
          : ""}
      </Text>
      <Text wrap="truncate-end">
        <Text dimColor>metadata </Text>
        {hasMetadata ? JSON.stringify(metadata) : <Text dimColor>none</Text>}
      </Text>
      <Text dimColor>{"─".repeat(20)}</Text>
      {value.bytes.length === 0 ? <Text dimColor>(empty value)</Text> : null}
      {lines.map((line, i) => (
        <Text key={top + i} wrap="truncate-end">
          {line === "" ? " " : line}
        </Text>
      ))}
    </Box>
  )
}
