/**
 * The Objects screen's writes: put a key (its name, then its value: a paste keeps its lines, enter
 * stores all of it), delete a key, set the alarm (ISO 8601, ms, or +DURATION: the CLI's parser) and
 * delete it. Each is the request `edgectl objects kv put|delete` and `objects alarm --set|--delete`
 * send (objects-data.ts), through the object's running host if any; each ends in the footer and the
 * session log (`L`). While one is in flight the keys wait (the object's view holds them: the dialog
 * is gone by then), then act on what it left.
 */
import { alarmText, parseAlarmTime } from "../../src/objects/alarm-time.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { TextPrompt } from "../components/text-prompt.js"
import { fromUnknown } from "../errors.js"
import { useNotify } from "../notices.js"
import { useSessionLog } from "../session-log.js"
import { deleteAlarm, deleteKey, putKey, setAlarm, type StoredObject } from "./objects-data.js"

/** The dialog open over an object's view. */
export type ObjectWrite =
  | { readonly kind: "put-key" }
  | { readonly kind: "put-value"; readonly key: string; readonly initial: string; readonly edit: boolean }
  | { readonly kind: "delete-key"; readonly key: string }
  | { readonly kind: "set-alarm" }
  | { readonly kind: "delete-alarm" }

/** What a write changed: the view reads the object again (and a deleted key's view closes). */
export type Written = { readonly kind: "put" | "delete"; readonly key: string } | { readonly kind: "alarm" }

const AlarmForms = "ISO 8601 (2026-11-28T10:00:00Z), ms since the epoch, or +DURATION (+90s, +15m, +2h, +1d)"

export function ObjectWriteDialog(props: {
  readonly object: StoredObject
  readonly write: ObjectWrite
  /** The alarm now (ms), for the alarm's dialogs. */
  readonly alarm: number | null
  readonly onChange: (next: ObjectWrite | undefined) => void
  readonly onWritten: (w: Written) => void
  /** A write is in flight: the caller, which outlives this dialog, holds the keys meanwhile. */
  readonly onBusy: (busy: boolean) => void
}) {
  const { object, write } = props
  const notify = useNotify()
  const log = useSessionLog()
  const setBusy = props.onBusy
  const where = `${object.className} ${object.name ?? `${object.id.slice(0, 12)}…`}`
  const cancel = () => props.onChange(undefined)

  const send = <A,>(what: string, done: string, call: () => Promise<A>, written: Written) => {
    props.onChange(undefined)
    setBusy(true)
    call().then(
      () => {
        setBusy(false)
        log.record({ where, what, result: "ok" })
        notify.done(done)
        props.onWritten(written)
      },
      (e: unknown) => {
        setBusy(false)
        const error = fromUnknown(e)
        log.record({ where, what, result: { error: error.message } })
        notify.error(what, error)
      }
    )
  }

  switch (write.kind) {
    case "put-key":
      return (
        <TextPrompt
          title={`Put a key in ${where} (1/2): its name`}
          help="then its value, stored as a string (JSON: the CLI's `objects kv ... put --value-json`)"
          submitLabel="go on to the value"
          check={(t) => (t === "" ? "key: empty; type the key's name" : undefined)}
          onCancel={cancel}
          onSubmit={(key) => props.onChange({ kind: "put-value", key, initial: "", edit: false })}
        />
      )
    case "put-value":
      return (
        <TextPrompt
          title={`${write.edit ? "Edit" : "Put a key (2/2):"} the value of ${JSON.stringify(write.key)}`}
          help="a string; a pasted text keeps its lines (⏎); enter stores all of it"
          initial={write.initial}
          submitLabel="store"
          newlines="keep"
          counter={(t) => `${t.length} chars`}
          onCancel={cancel}
          onSubmit={(value) =>
            send(
              `put key ${JSON.stringify(write.key)}`,
              `Stored key ${JSON.stringify(write.key)} (${value.length} characters).`,
              () => putKey(object, write.key, value),
              { kind: "put", key: write.key }
            )
          }
        />
      )
    case "delete-key":
      return (
        <ConfirmDialog
          title={`Delete key ${JSON.stringify(write.key)} of ${where}?`}
          lines={["Its value goes; a bookmark from before this (tab: bookmarks) restores it."]}
          confirmLabel="delete"
          destructive
          onCancel={cancel}
          onConfirm={() =>
            send(
              `delete key ${JSON.stringify(write.key)}`,
              `Deleted key ${JSON.stringify(write.key)}.`,
              () => deleteKey(object, write.key),
              { kind: "delete", key: write.key }
            )
          }
        />
      )
    case "set-alarm":
      return (
        <TextPrompt
          title={`Set the alarm of ${where}`}
          help={`${AlarmForms}; now: ${props.alarm === null ? "none" : alarmText(props.alarm, Date.now())}`}
          submitLabel="set"
          check={(t) => {
            const r = parseAlarmTime(t, Date.now())
            return typeof r === "number" ? undefined : r.problem
          }}
          onCancel={cancel}
          onSubmit={(text) => {
            const at = parseAlarmTime(text, Date.now())
            if (typeof at !== "number") return
            send(
              `set the alarm to ${new Date(at).toISOString()}`,
              `Alarm set to ${alarmText(at, Date.now())}.`,
              () => setAlarm(object, at),
              { kind: "alarm" }
            )
          }}
        />
      )
    case "delete-alarm":
      return (
        <ConfirmDialog
          title={`Delete the alarm of ${where}?`}
          lines={[
            `It was set to ${props.alarm === null ? "nothing" : alarmText(props.alarm, Date.now())}.`,
            "alarm() will not run for it."
          ]}
          confirmLabel="delete the alarm"
          destructive
          onCancel={cancel}
          onConfirm={() => send("delete the alarm", "Alarm deleted.", () => deleteAlarm(object), { kind: "alarm" })}
        />
      )
  }
}
