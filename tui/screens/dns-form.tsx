/**
 * A DNS record's form (`n` new, `e` edit on the DNS tab): type, name, content, TTL, proxied,
 * priority, comment. What a terminal can check alone (a number is a number) is checked here, each
 * problem under its field; the record as a whole is the platform's to check (src/server/dns-records.ts),
 * and its answer names the field. An edit sends only the fields that changed (PATCH). tab moves,
 * enter goes on to the confirmation (where `v` shows the request), esc cancels. A paste is text.
 */
import * as Either from "effect/Either"
import { Box, Text } from "ink"
import { useRef, useState } from "react"
import type { DnsRecord } from "../../src/domain/dns.js"
import type { DnsRecordBody } from "../../src/services/zones-service.js"
import { TextField } from "../components/text-field.js"
import { KeyLayer, useKeys } from "../keys.js"
import { editLine, lineOf, type Line } from "../line-editor.js"
import { usePaneSize } from "../terminal.js"

type DnsField = "type" | "name" | "content" | "ttl" | "proxied" | "priority" | "comment"
const Fields: ReadonlyArray<DnsField> = ["type", "name", "content", "ttl", "proxied", "priority", "comment"]
const Labels: Record<DnsField, string> = {
  type: "type",
  name: "name",
  content: "content",
  ttl: "TTL",
  proxied: "proxied",
  priority: "priority",
  comment: "comment"
}
const Placeholders: Record<DnsField, string> = {
  type: "A, AAAA, CNAME, MX, TXT, …",
  name: "www, @ for the apex, or the full name",
  content: "an address, a host name or text",
  ttl: "auto, or 60 to 86400 seconds",
  proxied: "yes or no (A, AAAA, CNAME only)",
  priority: "MX, SRV and URI records, optional otherwise",
  comment: "optional, at most 100 characters"
}

export type DnsValues = Record<DnsField, string>

const valuesOf = (r: DnsRecord | undefined): DnsValues => ({
  type: r?.type ?? "A",
  name: r?.name ?? "",
  content: r?.content ?? "",
  ttl: r === undefined || r.ttl === undefined || r.ttl === 1 ? "auto" : String(r.ttl),
  proxied: r?.proxied === true ? "yes" : "no",
  priority: r?.priority === undefined ? "" : String(r.priority),
  comment: r?.comment ?? ""
})

/** The body the form sends, or its problems by field. */
type Parsed = Either.Either<DnsRecordBody, Partial<Record<DnsField, string>>>

const YES = new Set(["yes", "y", "true", "on"])
const NO = new Set(["no", "n", "false", "off", ""])

/**
 * The body the form sends: every field for a new record; for an edit (`was`) only those that differ
 * from the record's own. Or the problems, by field.
 */
const bodyOf = (v: DnsValues, was?: DnsValues): Parsed => {
  const problems: Partial<Record<DnsField, string>> = {}
  const ttlText = v.ttl.trim().toLowerCase()
  const ttl = ttlText === "" || ttlText === "auto" ? 1 : /^\d+$/.test(ttlText) ? Number(ttlText) : undefined
  if (ttl === undefined) problems.ttl = `TTL: "auto" or a number of seconds, got ${JSON.stringify(v.ttl)}`
  const proxiedText = v.proxied.trim().toLowerCase()
  const proxied = YES.has(proxiedText) ? true : NO.has(proxiedText) ? false : undefined
  if (proxied === undefined) problems.proxied = `proxied: yes or no, got ${JSON.stringify(v.proxied)}`
  const priorityText = v.priority.trim()
  const priority = priorityText === "" ? undefined : /^\d+$/.test(priorityText) ? Number(priorityText) : undefined
  if (priorityText !== "" && priority === undefined)
    problems.priority = `priority: an integer from 0 to 65535, or empty, got ${JSON.stringify(v.priority)}`
  if (v.type.trim() === "") problems.type = "type: required, got nothing"
  if (v.name.trim() === "") problems.name = "name: required (@ for the apex), got nothing"
  if (Object.keys(problems).length > 0) return Either.left(problems)
  const full: DnsRecordBody = {
    type: v.type.trim().toUpperCase(),
    name: v.name.trim(),
    content: v.content.trim(),
    ttl: ttl!,
    proxied: proxied!,
    ...(priority !== undefined ? { priority } : {}),
    ...(v.comment.trim() !== "" ? { comment: v.comment.trim() } : {})
  }
  if (was === undefined) return Either.right(full)
  const old: DnsRecordBody = Either.getOrElse(bodyOf(was), () => ({}))
  const changed: Record<string, unknown> = {}
  for (const [k, value] of Object.entries(full)) {
    if (value !== (old as Record<string, unknown>)[k]) changed[k] = value
  }
  // A comment emptied is a comment removed.
  if (old.comment !== undefined && full.comment === undefined) changed.comment = null
  return Either.right(changed as DnsRecordBody)
}

/** The field a platform's message names first (`ttl: …`; `data` is the content's), if it is one of the form's. */
const refusedFieldOf = (message: string | undefined): DnsField | undefined => {
  const m = message === undefined ? null : /^([a-z_]+)[:.]/.exec(message)
  const name = m?.[1] === "data" ? "content" : m?.[1]
  return Fields.find((f) => f === name)
}

export function DnsForm(props: {
  readonly zoneName: string
  /** The record edited; a new one without it. */
  readonly record?: DnsRecord | undefined
  /** The values to start from (the form as it was left, after the platform refused it). */
  readonly values?: DnsValues | undefined
  /** The platform's refusal of the last send (`ttl: must be …`): shown under the field it names. */
  readonly refused?: string | undefined
  readonly busy: boolean
  readonly onSubmit: (body: DnsRecordBody, values: DnsValues) => void
  readonly onCancel: () => void
}) {
  const pane = usePaneSize()
  const start = props.values ?? valuesOf(props.record)
  const refusedField = refusedFieldOf(props.refused)
  // In a ref: keys of one read (tab, then typing) each see the keys before them.
  const form = useRef({
    lines: Object.fromEntries(Fields.map((f) => [f, lineOf(start[f])])) as Record<DnsField, Line>,
    focus: refusedField !== undefined ? Fields.indexOf(refusedField) : props.record === undefined ? 0 : 2
  })
  const [, rendered] = useState(0)
  const [problems, setProblems] = useState<Partial<Record<DnsField, string>>>(
    refusedField !== undefined ? { [refusedField]: props.refused } : {}
  )
  const [note, setNote] = useState<string | undefined>(undefined)
  const values = Object.fromEntries(Fields.map((f) => [f, form.current.lines[f].text])) as DnsValues

  const submit = () => {
    const now = Object.fromEntries(Fields.map((f) => [f, form.current.lines[f].text])) as DnsValues
    const parsed = bodyOf(now, props.record === undefined ? undefined : valuesOf(props.record))
    if (Either.isLeft(parsed)) {
      const found = parsed.left
      setProblems(found)
      form.current = { ...form.current, focus: Fields.findIndex((f) => found[f] !== undefined) }
      rendered((n) => n + 1)
      return
    }
    const body = parsed.right
    if (Object.keys(body).length === 0) {
      setNote("nothing changed: edit a field first, or esc")
      return
    }
    props.onSubmit(body, now)
  }

  useKeys(
    (press) => {
      if (props.busy) return true
      const move = (d: number) => {
        form.current = { ...form.current, focus: (form.current.focus + d + Fields.length) % Fields.length }
        rendered((n) => n + 1)
      }
      switch (press.name) {
        case "tab":
        case "down":
          move(1)
          return true
        case "shift+tab":
        case "up":
          move(-1)
          return true
        case "enter":
          submit()
          return true
        case "escape":
          props.onCancel()
          return true
      }
      const field = Fields[form.current.focus]!
      const next = editLine(form.current.lines[field], press, "join")
      if (next !== undefined) {
        form.current = { ...form.current, lines: { ...form.current.lines, [field]: next } }
        setProblems((p) => ({ ...p, [field]: undefined }))
        setNote(undefined)
        rendered((n) => n + 1)
      }
      return true
    },
    {
      priority: KeyLayer.dialog,
      modal: true,
      text: true,
      hints: [
        { keys: "type", label: "edit" },
        { keys: "tab/↑↓", label: "field" },
        { keys: "enter", label: props.record === undefined ? "create" : "save" },
        { keys: "esc", label: "cancel" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )

  const width = Math.max(30, pane.columns - 4)
  return (
    <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold wrap="truncate-end">
        {props.record === undefined
          ? `New DNS record in ${props.zoneName}`
          : `Edit ${props.record.type} ${props.record.name}`}
      </Text>
      {Fields.map((f, i) => (
        <TextField
          key={f}
          label={Labels[f]}
          value={values[f]}
          cursor={form.current.lines[f].cursor}
          focused={form.current.focus === i}
          width={width}
          problem={problems[f]}
          placeholder={Placeholders[f]}
        />
      ))}
      {note !== undefined ? <Text color="yellow">{note}</Text> : null}
      {props.refused !== undefined && refusedField === undefined ? (
        <Text color="red" wrap="wrap">
          {props.refused}
        </Text>
      ) : null}
      {props.busy ? <Text color="cyan">… sending</Text> : null}
    </Box>
  )
}
