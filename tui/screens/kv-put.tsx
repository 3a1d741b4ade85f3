/**
 * Put or edit a key: a form (key, value, metadata, expiration, TTL) checked as it is submitted with
 * the same rules as the platform (src/kv/validate.ts), each problem under its field; then written
 * through the KV service. tab moves between fields, enter saves, esc cancels. A paste is text: the
 * value keeps its line ends (drawn as ⏎), the other fields join its lines with spaces. Keys typed
 * during the save are held and applied after it, in order.
 */
import { Box, Text } from "ink"
import { useEffect, useRef, useState } from "react"
import * as Either from "effect/Either"
import { checkPut } from "../../src/kv/entry-checks.js"
import { nowSeconds, parseMetadataText, parseSeconds, type Field } from "../../src/kv/validate.js"
import * as Kv from "../../src/services/kv-service.js"
import { ErrorView } from "../components/states.js"
import { TextField } from "../components/text-field.js"
import type { UiError } from "../errors.js"
import { KeyLayer, useHoldKeys, useKeys } from "../keys.js"
import { editLine, lineCount, lineOf, type Line } from "../line-editor.js"
import { runEffect, useRuntime } from "../runtime.js"
import { useSessionLog } from "../session-log.js"
import { usePaneSize } from "../terminal.js"

export interface OpenNamespace {
  readonly accountId: string
  readonly accountName: string
  readonly id: string
  readonly title: string
}

type FormField = "key" | "value" | "metadata" | "expiration" | "ttl"
const Fields: ReadonlyArray<FormField> = ["key", "value", "metadata", "expiration", "ttl"]
const Labels: Record<FormField, string> = {
  key: "key",
  value: "value",
  metadata: "metadata",
  expiration: "expiration",
  ttl: "TTL seconds"
}
const Placeholders: Partial<Record<FormField, string>> = {
  metadata: "a JSON object, optional",
  expiration: "UNIX seconds, optional",
  ttl: "at least 60, optional; wins over expiration"
}

export type PutValues = Record<FormField, string>

const fieldOf = (f: Field): FormField =>
  f === "expiration_ttl" ? "ttl" : f === "key" || f === "value" || f === "metadata" || f === "expiration" ? f : "value"

/** What a valid form sends beside the key and the value. */
interface PutFields {
  /** The metadata's JSON text, or undefined for none. */
  readonly metadata: string | undefined
  readonly expiration: number | undefined
  readonly ttl: number | undefined
}

/** What the form sends, or what is wrong with it by field. */
const checkForm = (v: PutValues, now: number): Either.Either<PutFields, Partial<Record<FormField, string>>> => {
  const out: Partial<Record<FormField, string>> = {}
  let metadata: string | undefined
  if (v.metadata.trim() !== "") {
    const m = parseMetadataText(v.metadata)
    if (Either.isLeft(m)) out.metadata = m.left.message
    else metadata = m.right ?? undefined
  }
  const expirationText = parseSeconds("expiration", v.expiration.trim())
  const ttlText = parseSeconds("expiration_ttl", v.ttl.trim())
  if (Either.isLeft(expirationText)) out.expiration = expirationText.left.message
  if (Either.isLeft(ttlText)) out.ttl = ttlText.left.message
  const expiration = Either.getOrUndefined(expirationText)
  const ttl = Either.getOrUndefined(ttlText)
  const checked = checkPut(
    {
      key: v.key,
      valueBytes: Buffer.byteLength(v.value, "utf8"),
      metadata: metadata === undefined ? undefined : JSON.parse(metadata),
      expiration,
      expirationTtl: ttl
    },
    now
  )
  if (Either.isLeft(checked)) for (const p of checked.left) out[fieldOf(p.field)] ??= p.message
  return Object.keys(out).length > 0 ? Either.left(out) : Either.right({ metadata, expiration, ttl })
}

interface FormState {
  readonly lines: Record<FormField, Line>
  readonly focus: number
}

const initialForm = (initial: PutValues | undefined, editing: boolean): FormState => {
  const v = initial ?? { key: "", value: "", metadata: "", expiration: "", ttl: "" }
  return {
    lines: {
      key: lineOf(v.key),
      value: lineOf(v.value),
      metadata: lineOf(v.metadata),
      expiration: lineOf(v.expiration),
      ttl: lineOf(v.ttl)
    },
    focus: editing ? 1 : 0
  }
}

const textsOf = (lines: Record<FormField, Line>): PutValues => ({
  key: lines.key.text,
  value: lines.value.text,
  metadata: lines.metadata.text,
  expiration: lines.expiration.text,
  ttl: lines.ttl.text
})

export function KvPutForm(props: {
  readonly ns: OpenNamespace
  /** Editing an existing key (its key cannot change); a new key without it. */
  readonly initial?: PutValues
  readonly onDone: (key: string) => void
  readonly onCancel: () => void
}) {
  const runtime = useRuntime()
  const log = useSessionLog()
  const pane = usePaneSize()
  const editing = props.initial !== undefined
  // The fields and the focus live in a ref: keys of one read (tab, then typing) each see the keys
  // before them even before the form re-renders; the state only re-renders.
  const form = useRef(initialForm(props.initial, editing))
  const [, rendered] = useState(0)
  const setForm = (next: Partial<FormState>) => {
    form.current = { ...form.current, ...next }
    rendered((n) => n + 1)
  }
  const values = textsOf(form.current.lines)
  const focus = form.current.focus
  const [problems, setProblems] = useState<Partial<Record<FormField, string>>>({})
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<UiError | undefined>(undefined)
  const controller = useRef<AbortController | undefined>(undefined)
  useEffect(() => () => controller.current?.abort(), [])

  const submit = () => {
    const values = textsOf(form.current.lines)
    const now = nowSeconds()
    const checked = checkForm(values, now)
    setProblems(Either.isLeft(checked) ? checked.left : {})
    setError(undefined)
    if (Either.isLeft(checked)) {
      const found = checked.left
      setForm({ focus: Fields.indexOf(Fields.find((f) => found[f] !== undefined)!) })
      return
    }
    const { metadata, expiration, ttl } = checked.right
    setSaving(true)
    const c = new AbortController()
    controller.current = c
    void runEffect(
      runtime,
      Kv.putValue(props.ns.accountId, props.ns.id, values.key, {
        value: Buffer.from(values.value, "utf8"),
        metadata,
        ...(ttl !== undefined ? { expirationTtl: ttl } : expiration !== undefined ? { expiration } : {})
      }),
      c.signal
    ).then((r) => {
      if (r === undefined) return
      setSaving(false)
      log.record({
        where: props.ns.title,
        what: `${editing ? "edited" : "put"} key ${JSON.stringify(values.key)} (${Buffer.byteLength(values.value, "utf8")} bytes)`,
        result: r.ok ? "ok" : { error: r.error.message }
      })
      if (r.ok) props.onDone(values.key)
      else setError(r.error)
    })
  }

  // Keys typed while the save runs wait for it (tui/keys.tsx), then act on what it left: the form
  // again after a failure, the key's value after a success (its esc goes back to the list).
  useHoldKeys(saving)
  useKeys(
    (press) => {
      const focus = form.current.focus
      const step = (d: number) => {
        let next = focus
        do next = (next + d + Fields.length) % Fields.length
        while (editing && Fields[next] === "key")
        setForm({ focus: next })
      }
      switch (press.name) {
        case "tab":
        case "down":
          step(1)
          return true
        case "shift+tab":
        case "up":
          step(-1)
          return true
        case "enter":
          submit()
          return true
        case "escape":
          props.onCancel()
          return true
      }
      const field = Fields[focus]!
      if (editing && field === "key") return true
      const next = editLine(form.current.lines[field], press, field === "value" ? "keep" : "join")
      if (next !== undefined) {
        setForm({ lines: { ...form.current.lines, [field]: next } })
        setProblems((p) => ({ ...p, [field]: undefined }))
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
        { keys: "enter", label: "save" },
        { keys: "esc", label: "cancel" },
        { keys: "ctrl+c", label: "quit" }
      ]
    }
  )

  const width = Math.max(30, pane.columns - 4)
  return (
    <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold wrap="truncate-end">
        {editing ? `Edit ${JSON.stringify(values.key)}` : "New key"} in {props.ns.title}
      </Text>
      {Fields.map((f, i) => (
        <TextField
          key={f}
          label={Labels[f]}
          value={values[f]}
          cursor={form.current.lines[f].cursor}
          focused={focus === i}
          width={width}
          disabled={editing && f === "key"}
          problem={problems[f]}
          {...(Placeholders[f] !== undefined ? { placeholder: Placeholders[f] } : {})}
        />
      ))}
      {lineCount(values.value) > 1 ? (
        <Text dimColor wrap="truncate-end">
          {`value: ${lineCount(values.value)} lines (⏎ marks a line break); enter saves all of it`}
        </Text>
      ) : null}
      {saving ? <Text color="cyan">… saving</Text> : null}
      {error !== undefined ? <ErrorView what="could not save the key" error={error} /> : null}
    </Box>
  )
}
