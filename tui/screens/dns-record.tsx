/**
 * One DNS record, every field of it: the list's row cuts a long TXT (a DKIM key, a verification
 * blob) at the column's width, so the content here is wrapped whole, and scrolls when it is taller
 * than the pane. Its rows are cut at the pane's width with no indent (under a `content` line), as
 * the KV value view does, so that rows copied from the terminal give the record back.
 */
import { Box, Text } from "ink"
import { useState } from "react"
import type { DnsRecord } from "../../src/domain/dns.js"
import { KeyLayer, useKeys } from "../keys.js"

/** Hard-wraps at `width` (record content often has no spaces to break at), keeping its own line breaks. */
export const wrapHard = (text: string, width: number): Array<string> => {
  const w = Math.max(1, width)
  const out: Array<string> = []
  for (const line of text.split("\n")) {
    const chars = [...line]
    if (chars.length === 0) out.push("")
    for (let i = 0; i < chars.length; i += w) out.push(chars.slice(i, i + w).join(""))
  }
  return out
}

const fieldsOf = (r: DnsRecord): Array<readonly [string, string]> => {
  const json = (v: unknown) => JSON.stringify(v)
  const all: Array<readonly [string, string | undefined]> = [
    ["type", r.type],
    ["name", r.name],
    ["ttl", r.ttl === undefined ? undefined : r.ttl === 1 ? "1 (auto)" : String(r.ttl)],
    ["proxied", r.proxied === undefined ? undefined : String(r.proxied)],
    ["proxiable", r.proxiable === undefined ? undefined : String(r.proxiable)],
    ["priority", r.priority === undefined ? undefined : String(r.priority)],
    ["comment", r.comment ?? undefined],
    ["tags", r.tags === undefined || r.tags.length === 0 ? undefined : r.tags.join(", ")],
    ["data", r.data === undefined ? undefined : json(r.data)],
    ["settings", r.settings === undefined || Object.keys(r.settings).length === 0 ? undefined : json(r.settings)],
    ["created", r.created_on],
    ["modified", r.modified_on],
    ["id", r.id]
  ]
  return all.filter((f): f is readonly [string, string] => f[1] !== undefined)
}

const Label = 11

export function DnsRecordView(props: {
  record: DnsRecord
  active: boolean
  width: number
  height: number
  onBack: () => void
}) {
  const { record, width } = props
  const fields = fieldsOf(record)
  const content = wrapHard(record.content ?? "", width)
  // The title (type and name), the other fields, the content's label, the content, the status line.
  const room = Math.max(1, props.height - (fields.length - 2) - 3)
  const [top, setTop] = useState(0)
  const maxTop = Math.max(0, content.length - room)
  const first = Math.min(top, maxTop)
  const scroll = (delta: number) => setTop((t) => Math.max(0, Math.min(Math.min(t, maxTop) + delta, maxTop)))

  useKeys(
    (press) => {
      const steps: Record<string, number> = {
        up: -1,
        k: -1,
        down: 1,
        j: 1,
        pageup: -room,
        pagedown: room,
        home: -Infinity,
        g: -Infinity,
        end: Infinity,
        G: Infinity
      }
      if (Object.hasOwn(steps, press.name)) {
        scroll(steps[press.name] ?? 0)
        return true
      }
      if (press.name === "escape" || press.name === "backspace") {
        props.onBack()
        return true
      }
      return false
    },
    {
      priority: KeyLayer.tab,
      active: props.active,
      hints: [...(maxTop > 0 ? [{ keys: "↑↓/jk", label: "scroll" }] : []), { keys: "esc", label: "records" }]
    }
  )

  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {record.type} {record.name}
      </Text>
      {fields.slice(2).map(([k, v]) => (
        <Text key={k} wrap="truncate-end">
          <Text dimColor>{k.padEnd(Label)}</Text>
          {v}
        </Text>
      ))}
      <Text dimColor>content</Text>
      {content.slice(first, first + room).map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {line}
        </Text>
      ))}
      <Text dimColor>
        {[...(record.content ?? "")].length} characters
        {maxTop > 0 ? ` · lines ${first + 1}-${Math.min(first + room, content.length)} of ${content.length}` : ""}
      </Text>
    </Box>
  )
}
