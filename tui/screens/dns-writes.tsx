/**
 * The DNS tab's writes: create (`n`) and edit (`e`) through the form, then a confirmation; delete
 * (`d`) through a red confirmation. Every confirmation shows on `v` the exact request it sends (the
 * zones service's `dns*Request`, rendered as the CLI's `--dry-run` does), and every write goes to
 * the session log (`L`). Sent by the same service functions as the CLI's `dns create|edit|delete`.
 */
import { useState } from "react"
import type { DnsRecord } from "../../src/domain/dns.js"
import {
  createDnsRecord,
  deleteDnsRecord,
  dnsCreateRequest,
  dnsDeleteRequest,
  dnsUpdateRequest,
  updateDnsRecord,
  type DnsRecordBody
} from "../../src/services/zones-service.js"
import type * as Effect from "effect/Effect"
import { useActions } from "../actions.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { useNotify } from "../notices.js"
import type { Services } from "../runtime.js"
import { useSessionLog } from "../session-log.js"
import { DnsForm, type DnsValues } from "./dns-form.js"

export type DnsWrite =
  | { readonly _tag: "create" }
  | { readonly _tag: "edit"; readonly record: DnsRecord }
  | { readonly _tag: "delete"; readonly record: DnsRecord }

type Step =
  | { readonly _tag: "form"; readonly values?: DnsValues | undefined; readonly refused?: string | undefined }
  | { readonly _tag: "confirm"; readonly body: DnsRecordBody; readonly values: DnsValues }

const summary = (b: DnsRecordBody) =>
  [b.type, b.name, b.content === undefined ? undefined : `→ ${b.content}`].filter((x) => x !== undefined).join(" ")

const changes = (b: DnsRecordBody) =>
  Object.entries(b).map(([k, v]) => `${k}: ${v === null ? "(removed)" : typeof v === "string" ? v : JSON.stringify(v)}`)

export function DnsWriteFlow(props: {
  readonly zoneId: string
  readonly zoneName: string
  readonly write: DnsWrite
  /** `written`: the record as the platform now has it (undefined after a delete or a cancel). */
  readonly onClose: (written: { readonly record?: DnsRecord } | undefined) => void
}) {
  const { zoneId, zoneName, write } = props
  const { start } = useActions()
  const notify = useNotify()
  const log = useSessionLog()
  const [step, setStep] = useState<Step>({ _tag: "form" })
  const [busy, setBusy] = useState(false)

  /**
   * Sends one write: its end goes to the session log; a refusal goes back to the form (the platform
   * names the field), with a hint that says so instead of the lists' "change the filter".
   */
  const send = <A, E>(
    effect: Effect.Effect<A, E, Services>,
    what: string,
    logged: string,
    onOk: (a: A) => void,
    onRefused: (message: string) => void
  ) => {
    if (busy) return
    setBusy(true)
    void start(effect).then((r) => {
      if (r === undefined) return
      setBusy(false)
      log.record({ where: zoneName, what: logged, result: r.ok ? "ok" : { error: r.error.message } })
      if (r.ok) return onOk(r.value)
      const invalid = r.error.code === 1004
      notify.error(
        what,
        invalid
          ? { ...r.error, hint: "nothing was written: fix the field it names and press enter again (esc cancels)" }
          : r.error
      )
      onRefused(r.error.message)
    })
  }

  if (write._tag === "delete") {
    const r = write.record
    const what = `deleted ${r.type} ${r.name}`
    return (
      <ConfirmDialog
        title={`Delete ${r.type} ${r.name}?`}
        lines={[`content: ${r.content ?? ""}`, `id: ${r.id}`, "The record is gone for good: a new one gets a new id."]}
        confirmLabel="delete the record"
        destructive
        requests={[dnsDeleteRequest(zoneId, r.id)]}
        onCancel={() => props.onClose(undefined)}
        onConfirm={() =>
          send(
            deleteDnsRecord(zoneId, r.id),
            `could not delete ${r.type} ${r.name}`,
            what,
            () => {
              notify.done(`Deleted ${r.type} ${r.name}`)
              props.onClose({})
            },
            () => props.onClose(undefined)
          )
        }
      />
    )
  }

  const record = write._tag === "edit" ? write.record : undefined
  if (step._tag === "form") {
    return (
      <DnsForm
        key={step.refused ?? ""}
        zoneName={zoneName}
        record={record}
        values={step.values}
        refused={step.refused}
        busy={busy}
        onSubmit={(body, values) => setStep({ _tag: "confirm", body, values })}
        onCancel={() => props.onClose(undefined)}
      />
    )
  }

  const { body, values } = step
  const request = record === undefined ? dnsCreateRequest(zoneId, body) : dnsUpdateRequest(zoneId, record.id, body)
  const save = () => {
    // Back to the form while it is sent: a refusal (the platform names the field) is fixed there.
    setStep({ _tag: "form", values })
    const refused = (message: string) => setStep({ _tag: "form", values, refused: message })
    const done = (verb: string) => (made: DnsRecord) => {
      notify.done(`${verb} ${made.type} ${made.name}`)
      props.onClose({ record: made })
    }
    if (record === undefined)
      send(
        createDnsRecord(zoneId, body),
        "could not create the DNS record",
        `created ${summary(body)}`,
        done("Created"),
        refused
      )
    else
      send(
        updateDnsRecord(zoneId, record.id, body),
        `could not save ${record.type} ${record.name}`,
        `edited ${record.type} ${record.name}: ${changes(body).join(", ")}`,
        done("Saved"),
        refused
      )
  }
  return (
    <ConfirmDialog
      title={record === undefined ? `Create ${summary(body)}?` : `Save ${record.type} ${record.name}?`}
      lines={record === undefined ? [`in zone ${zoneName}`] : changes(body)}
      confirmLabel={record === undefined ? "create the record" : "save the changes"}
      requests={[request]}
      onCancel={() => setStep({ _tag: "form", values })}
      onConfirm={save}
    />
  )
}
