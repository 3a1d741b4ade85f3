/**
 * ESC disable settings of a zone and/or an account (the zone's ESC tab and the ESC screen): the
 * removal status on the platform's clock, each scope's setting, toggling `always`, setting and
 * clearing the secret (typed masked), testing a request with a Cookie header, and the table of
 * replacement products. Every change asks first; the screen only calls the ESC service.
 */
import * as Either from "effect/Either"
import * as Effect from "effect/Effect"
import { Box, Text } from "ink"
import { useEffect, useState } from "react"
import type { V4Error } from "../../src/domain/errors.js"
import { checkSecret } from "../../src/domain/esc-change.js"
import { describeSecret, maskSecret } from "../../src/esc/mask.js"
import { removalStatus } from "../../src/esc/removal.js"
import { exampleText, Replacements } from "../../src/esc/replacements.js"
import { settingSentence, settingShort } from "../../src/esc/view.js"
import {
  disableAlways,
  enableEsc,
  getEsc,
  setSecret,
  testRequest,
  type EscStatus,
  type EscTarget,
  type EscTestResult
} from "../../src/services/esc-service.js"
import { cell } from "../components/columns.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { useActions } from "../actions.js"
import { useNotify } from "../notices.js"
import { List, useListCursor } from "../components/list.js"
import { ErrorView, Loading } from "../components/states.js"
import { bullets, TextPrompt } from "../components/text-prompt.js"
import { KeyLayer, useKeys, type KeyHint } from "../keys.js"
import { useEffectQuery, type Services } from "../runtime.js"
import { usePaneSize } from "../terminal.js"
import {
  maskTyped,
  RemovalLine,
  removalLines,
  replacementTable,
  TestLine,
  testLines,
  type Removal
} from "./esc-parts.js"

type Dialog =
  | {
      readonly kind: "confirm"
      readonly title: string
      readonly lines: ReadonlyArray<string>
      readonly label: string
      readonly run: Effect.Effect<EscStatus, V4Error, Services>
      readonly done: (s: EscStatus) => string
    }
  | { readonly kind: "secret"; readonly target: EscTarget }
  | { readonly kind: "cookie"; readonly zone: EscTarget & { kind: "zone" } }

const label = (t: EscTarget) => (t.kind === "zone" ? `zone ${t.name}` : `account ${t.name}`)
const every = (t: EscTarget) =>
  t.kind === "zone" ? `every request of zone ${t.name}` : `every request of every zone of account ${t.name}`

/** Lines the panel draws besides the removal banner, the replacement rows and the example (scopes 2, effect 2, test, busy, title, header). */
const Chrome = 8
/** The example of the selected replacement: up to 3 lines, at least 1 when the pane is short. */
const ExampleRows = 3

export interface EscPanelProps {
  /** The zone and/or account whose settings are shown; the first is selected. */
  readonly scopes: ReadonlyArray<EscTarget>
  readonly active: boolean
  readonly height: number
  readonly priority?: number
  /** What the panel says when it has no scope. */
  readonly empty?: string
  /** Keys of the host screen, listed after the panel's own. */
  readonly extraHints?: ReadonlyArray<KeyHint>
  readonly onKey?: (name: string) => boolean
}

export function EscPanel({
  scopes,
  active,
  height,
  priority = KeyLayer.tab,
  empty,
  extraHints = [],
  onKey
}: EscPanelProps) {
  const key = scopes.map((s) => `${s.kind}:${s.id}`).join(",")
  const { query, refresh } = useEffectQuery(() => Effect.all(scopes.map(getEsc), { concurrency: 2 }), [key])
  const [changed, setChanged] = useState<Readonly<Record<string, EscStatus>>>({})
  const [selected, setSelected] = useState(0)
  const [dialog, setDialog] = useState<Dialog | undefined>(undefined)
  const notify = useNotify()
  const { run, busy } = useActions()
  const [tested, setTested] = useState<EscTestResult | undefined>(undefined)
  useEffect(() => {
    setChanged({})
    setSelected(0)
    setTested(undefined)
  }, [key])

  const loaded = query._tag === "Success" ? query.value.map((s) => changed[`${s.target.kind}:${s.target.id}`] ?? s) : []
  const current = loaded[Math.min(selected, loaded.length - 1)]
  const zone = scopes.find((s): s is EscTarget & { kind: "zone" } => s.kind === "zone")
  // With no zone or account there is no answer to read the platform's clock from: say so, use ours.
  const removal: Removal | undefined =
    (tested ?? loaded[0]) !== undefined
      ? { status: (tested ?? loaded[0])!.removal, clock: "platform clock" }
      : query._tag === "Success"
        ? { status: removalStatus(new Date()), clock: "this machine's clock" }
        : undefined

  const columns = usePaneSize().columns
  const banner = removalLines(removal, columns)
  // The test's sentence takes one line of Chrome; a wrapped one takes its rows from the table.
  const test = testLines(tested, zone !== undefined, columns)
  const spare = height - Chrome - banner.length - (test.length - 1)
  const rows = Math.max(2, spare - ExampleRows)
  const exampleRows = Math.max(1, Math.min(ExampleRows, spare - rows))
  const cursor = useListCursor(Replacements.length, rows, [])

  const remember = (s: EscStatus) => setChanged((c) => ({ ...c, [`${s.target.kind}:${s.target.id}`]: s }))

  const confirmThen = (d: Extract<Dialog, { kind: "confirm" }>) => {
    setDialog(undefined)
    run(
      d.run,
      (s) => {
        remember(s)
        setTested(undefined)
        notify.done(d.done(s))
      },
      d.title.replace(/\?$/, "").toLowerCase(),
      { where: "ESC", what: d.title.replace(/\?$/, "") }
    )
  }

  const toggleAlways = (s: EscStatus) => {
    const t = s.target
    const secret = s.setting.with_secret
    setDialog(
      s.setting.always
        ? {
            kind: "confirm",
            title: `Turn ESC on again for ${label(t)}?`,
            lines: [
              `ESC will run for ${every(t)}${secret !== null ? `, except requests carrying the secret ${maskSecret(secret)} (it stays stored)` : ""}.`
            ],
            label: "turn ESC on",
            run: Effect.map(enableEsc(t, "always"), (r) => r.status),
            done: () => `ESC runs again for ${every(t)}${secret !== null ? "; the secret stays" : ""}`
          }
        : {
            kind: "confirm",
            title: `Disable ESC for ${every(t)}?`,
            lines: ["No ESC configuration will run for these requests until you turn it on again (t)."],
            label: "disable ESC",
            run: disableAlways(t),
            done: () => `ESC is now off for ${every(t)}`
          }
    )
  }

  const askSecret = (secret: string, s: EscStatus) => {
    const old = s.setting.with_secret
    setDialog({
      kind: "confirm",
      title: `Store this secret for ${label(s.target)}?`,
      lines: [
        `secret: ${describeSecret(secret)}${old !== null ? `, replacing ${describeSecret(old)}` : ""}`,
        "Requests carrying the cookie disable_esc=<secret> will skip ESC."
      ],
      label: "store the secret",
      run: setSecret(s.target, secret),
      done: () => `Stored the secret ${describeSecret(secret)} for ${label(s.target)}`
    })
  }

  const clearSecret = (s: EscStatus) => {
    const old = s.setting.with_secret
    if (old === null) return notify.warn(`${label(s.target)} has no secret to clear`)
    setDialog({
      kind: "confirm",
      title: `Clear the secret ${maskSecret(old)} of ${label(s.target)}?`,
      lines: [
        `Requests carrying it will run ESC again${s.setting.always ? "; ESC stays off for every request (always)" : ""}.`
      ],
      label: "clear the secret",
      run: Effect.map(enableEsc(s.target, "secret"), (r) => r.status),
      done: () => `Cleared the secret of ${label(s.target)}`
    })
  }

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (onKey?.(press.name)) return true
      const needs = (what: string) => {
        notify.warn(
          current === undefined
            ? `nothing to ${what}: ${empty ?? "no zone or account"}`
            : `busy: wait for the last change`
        )
        return true
      }
      switch (press.name) {
        case "left":
        case "h":
          setSelected((i) => Math.max(0, i - 1))
          return true
        case "right":
        case "l":
          setSelected((i) => Math.min(Math.max(0, loaded.length - 1), i + 1))
          return true
        case "t":
          if (current === undefined || busy) return needs("toggle")
          toggleAlways(current)
          return true
        case "s":
          if (current === undefined || busy) return needs("set a secret on")
          setDialog({ kind: "secret", target: current.target })
          return true
        case "x":
          if (current === undefined || busy) return needs("clear")
          clearSecret(current)
          return true
        case "c":
          if (zone === undefined) {
            notify.warn("open a zone to test a request (1 Zones, enter on a zone)")
            return true
          }
          setDialog({ kind: "cookie", zone })
          return true
        case "r":
          setChanged({})
          notify.clear()
          refresh()
          return true
        default:
          return false
      }
    },
    {
      priority,
      active: active && dialog === undefined,
      hints: [
        ...(loaded.length > 1 ? [{ keys: "←→", label: "zone/account" }] : []),
        ...(current !== undefined
          ? [
              { keys: "t", label: current.setting.always ? "ESC on" : "ESC off (always)" },
              { keys: "s", label: "set secret" },
              { keys: "x", label: "clear secret" }
            ]
          : []),
        ...(zone !== undefined ? [{ keys: "c", label: "test request" }] : []),
        { keys: "↑↓", label: "replacements" },
        { keys: "r", label: "refresh" },
        ...extraHints
      ]
    }
  )

  const table = replacementTable(columns)
  const selectedReplacement = Replacements[cursor.index]

  const dialogView = () => {
    // Kept (hidden) while the screen is covered, so what is typed in it outlives a too-small terminal.
    if (dialog === undefined) return null
    switch (dialog.kind) {
      case "confirm":
        return (
          <ConfirmDialog
            title={dialog.title}
            lines={dialog.lines}
            confirmLabel={dialog.label}
            onConfirm={() => confirmThen(dialog)}
            onCancel={() => setDialog(undefined)}
          />
        )
      case "secret": {
        const s = loaded.find((x) => x.target.id === dialog.target.id)
        return (
          <TextPrompt
            title={`New secret for ${label(dialog.target)}`}
            help="1 to 100 characters a cookie can carry; shown as •"
            display={bullets}
            counter={(t) => `${[...t].length}/100`}
            check={(t) => {
              const c = checkSecret(t, "secret")
              return Either.isRight(c) ? undefined : c.left
            }}
            submitLabel="continue"
            onSubmit={(secret) => (s !== undefined ? askSecret(secret, s) : setDialog(undefined))}
            onCancel={() => setDialog(undefined)}
          />
        )
      }
      case "cookie":
        return (
          <TextPrompt
            title={`Test a request to zone ${dialog.zone.name}`}
            help="its Cookie header, e.g. disable_esc=SECRET; session=abc (empty: no cookies)"
            display={maskTyped}
            submitLabel="test"
            onSubmit={(cookie) => {
              setDialog(undefined)
              run(
                testRequest(dialog.zone, cookie.trim() === "" ? undefined : cookie),
                (r) => setTested(r),
                "test the request"
              )
            }}
            onCancel={() => setDialog(undefined)}
          />
        )
    }
  }

  const dialogOpen = dialogView()
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <RemovalLine lines={banner} removal={removal} />
      {query._tag === "Loading" ? <Loading what="ESC settings" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not read the ESC settings" error={query.error} /> : null}
      {query._tag === "Success" && scopes.length === 0 ? (
        <Text dimColor>{empty ?? "No zone or account chosen."}</Text>
      ) : null}
      {loaded.map((s, i) => (
        <Text key={s.target.id} wrap="truncate-end" inverse={active && i === selected && loaded.length > 1}>
          {i === selected && loaded.length > 1 ? "◆ " : "  "}
          {cell(label(s.target), 28)} {settingShort(s.setting)}
        </Text>
      ))}
      {dialogOpen ?? (
        <Box flexDirection="column" flexShrink={0}>
          {current !== undefined ? (
            <Box height={2} flexShrink={0} overflow="hidden" paddingLeft={2}>
              <Text dimColor wrap="wrap">
                {settingSentence(current.setting, removal?.status.removed === true)}
              </Text>
            </Box>
          ) : null}
          <TestLine lines={test} tested={tested} />
          {busy ? <Text color="cyan">… working</Text> : <Text> </Text>}
          <Text bold>Replacements before the removal</Text>
          <List
            items={Replacements}
            index={cursor.index}
            height={rows}
            row={table.row}
            rowKey={(r) => r.useCase}
            header={table.header}
            focused={active}
          />
          <Box height={exampleRows} flexShrink={0} overflow="hidden">
            <Text wrap="wrap" dimColor>
              {selectedReplacement?.example
                ? `example: ${exampleText(selectedReplacement.example)}`
                : "no rule replaces this: write a Worker"}
            </Text>
          </Box>
        </Box>
      )}
    </Box>
  )
}
