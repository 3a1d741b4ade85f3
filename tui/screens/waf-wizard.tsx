/**
 * The WAF tab of a zone: the migration as a wizard. Status → Check (with reasons) → Preview
 * (previous | new) → Not migrated → Overrides (edit the proposed configuration's rule overrides and
 * OWASP level) → Replay (a traffic file against both versions) → Deploy (validation on enterprise,
 * or finish; finishing asks the user to type the zone name: it is irreversible). Steps move with
 * ←→ (n/p, home/end); digits stay the app's screen keys. Every action is a WafMigration service
 * call; this file only presents.
 *
 * Everything here belongs to one zone: the component is keyed by the zone's id (a zone switch
 * mounts a fresh wizard), the unsaved edits live in the app's per-zone draft store, and a deploy
 * sends a `ZoneConfig`, the zone and its configuration taken from one record.
 */
import { Box, Text } from "ink"
import { useContext, useRef, useState } from "react"
import type { MigrationState, WafConfig, WafOverride } from "../../src/domain/waf.js"
import type { Zone } from "../../src/domain/zone.js"
import * as Waf from "../../src/services/waf-migration-service.js"
import { configSummary } from "../../src/waf/config-diff.js"
import {
  cycleAction,
  cycleOwaspAction,
  cycleParanoia,
  cycleThreshold,
  managedRules,
  toggleRule
} from "../../src/waf/edit.js"
import { noRequestProblem } from "../../src/rules/traffic-line.js"
import type { ReplayReport } from "../../src/waf/replay.js"
import type { MigrationMode } from "../../src/waf/state.js"
import { shippedTrafficSample } from "../../src/waf/traffic-sample.js"
import { useActions } from "../actions.js"
import { withMigrationTarget } from "../migration-target.js"
import { ObjectsDirContext } from "./objects-data.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { ErrorView, Loading } from "../components/states.js"
import { TextPrompt } from "../components/text-prompt.js"
import { KeyLayer, useKeys, type KeyHint } from "../keys.js"
import { useNotify } from "../notices.js"
import { useEffectQuery } from "../runtime.js"
import { useWafDraft } from "../state.js"
import { usePaneSize } from "../terminal.js"
import {
  CheckStep,
  deployLines,
  Lines,
  maxOffset,
  notMigratedLines,
  OverridesStep,
  previewLines,
  replayLines,
  requestLinesOf,
  StatusStep,
  StepBar,
  WIZARD_STEPS,
  type Sent,
  type Staleness
} from "./waf-steps.js"
import { load, sendingLines, undoLines, type Data } from "./waf-wizard-data.js"

/** Shown (and replayed) when the package's own sample cannot be found. */
const SAMPLE_NAME = "fixtures/waf/traffic-sample.jsonl"

type Dialog =
  | { readonly kind: "file" }
  | { readonly kind: "validation" }
  | { readonly kind: "finish" }
  | { readonly kind: "undo" }
  | { readonly kind: "override"; readonly override: WafOverride }
interface Replay {
  readonly running: boolean
  /** The file the report is of (the picked one may have changed since). */
  readonly replayed?: string
  readonly report?: ReplayReport
  readonly error?: string
  /** What the report was computed from, to tell when it is out of date. */
  readonly basis?: { readonly data: Data; readonly config: WafConfig }
}

/** Lines: step bar, blank. */
const Chrome = 2
const STEPS = WIZARD_STEPS.length

/** Keyed by the zone: another zone never sees this one's steps, cursor, replay or deploy result. */
export function WafWizard(props: { zone: Zone; active: boolean; height: number }) {
  return <ZoneWafWizard key={props.zone.id} {...props} />
}

function ZoneWafWizard({ zone, active, height }: { zone: Zone; active: boolean; height: number }) {
  const z = Waf.wafZoneOf(zone)
  const columns = usePaneSize().columns
  const { query, refresh } = useEffectQuery(() => load(z), [zone.id])
  const [step, setStep] = useState(0)
  const [cursor, setCursor] = useState(0)
  const [scroll, setScroll] = useState(0)
  // Keys that arrive in one read are handled before the next render: they read these refs.
  const at = useRef({ step: 0, cursor: 0, override: 0 })
  const [overrideAt, setOverrideAt] = useState(0)
  // `v` on the Deploy step: the request `d` sends, as `edgectl waf migrate --dry-run` prints it.
  const [showRequest, setShowRequest] = useState(false)
  const [file, setFile] = useState(() => shippedTrafficSample() ?? SAMPLE_NAME)
  const [replay, setReplay] = useState<Replay>({ running: false })
  const [sent, setSent] = useState<Sent | undefined>(undefined)
  const [dialog, setDialog] = useState<Dialog | undefined>(undefined)
  const { draft, update } = useWafDraft(zone.id)
  const notify = useNotify()
  const { run, start, busy } = useActions()
  // The deploy is journaled where the CLI journals it on the same target (src/services/migration-journal.ts).
  const journaled = withMigrationTarget(useContext(ObjectsDirContext))

  const data = query._tag === "Success" ? query.value : undefined
  const edits = draft?.zoneId === zone.id ? draft.config : undefined
  // The one record a deploy and a replay take the zone and the configuration from.
  const proposal: Waf.ZoneConfig | undefined =
    data?.preview && data.base ? { zone: data.preview.zone, config: edits ?? data.base } : undefined
  const rules = proposal ? managedRules(proposal.config) : []
  const rows = Math.max(3, height - Chrome)
  const stale: Staleness =
    replay.basis === undefined
      ? undefined
      : replay.basis.data !== data
        ? "reloaded"
        : replay.basis.config !== proposal?.config
          ? "edited"
          : undefined

  const go = (s: number) => {
    const next = Math.max(0, Math.min(STEPS - 1, s))
    at.current.step = next
    setStep(next)
    setScroll(0)
  }
  const move = (c: number) => {
    at.current.cursor = Math.max(0, Math.min(rules.length - 1, c))
    setCursor(at.current.cursor)
  }
  const edit = (f: (c: WafConfig) => WafConfig) => {
    const base = data?.base
    if (base) update((c) => f(c ?? base))
  }

  const startReplay = (path: string) => {
    if (!data?.preview || !proposal) return
    const basis = { data, config: proposal.config }
    setReplay({ running: true })
    void start(Waf.replayFile(data.preview.previous, proposal.config, path)).then((r) => {
      if (r === undefined) return
      // A file of no request compares nothing: said as `waf replay` says it.
      const nothing = r.ok ? noRequestProblem(path, r.value) : r.error.message
      setReplay(
        nothing === undefined && r.ok
          ? { running: false, replayed: path, report: r.value, basis }
          : { running: false, error: `error: replay: ${nothing}` }
      )
    })
  }

  const deploy = (mode: MigrationMode) => {
    notify.clear()
    if (!proposal || proposal.zone.id !== zone.id) return
    run(
      journaled(Waf.deployZoneConfig(proposal, mode)),
      (d: Waf.Deployed) => {
        notify.done(
          d.step.to === "finished"
            ? `Migration finished: ${proposal.zone.name} runs WAF Managed Rules (entry point version ${d.entrypoint.version}).`
            : `Validation mode: both versions run on ${proposal.zone.name}; review, then finish from the Deploy step.`
        )
        setSent({
          zone: proposal.zone.name,
          to: d.step.to,
          version: d.entrypoint.version,
          summary: configSummary(d.entrypoint)
        })
        update(() => undefined)
        refresh()
      },
      mode === "validation" ? "Deploying to validation mode" : "Finishing the migration",
      {
        where: proposal.zone.name,
        what: mode === "validation" ? "WAF migration: deployed to validation mode" : "WAF migration: finished"
      }
    )
  }

  const modeOf = (state: MigrationState, finishNow: boolean): MigrationMode =>
    finishNow ? "pending" : z.plan === "enterprise" && state === "start" ? "validation" : "pending"
  const deployKey = (state: MigrationState, finishNow: boolean) => {
    if (state === "finished" || !proposal) return
    setDialog(modeOf(state, finishNow) === "validation" ? { kind: "validation" } : { kind: "finish" })
  }
  /** What a deploy in `mode` sends: the request `deployZoneConfig` builds, from the same record. */
  const deployRequest = (mode: MigrationMode) =>
    proposal === undefined ? [] : [Waf.plannedRequest(Waf.requestFor(proposal.zone, mode, proposal.config))]
  const overrides = data?.overrides ?? []
  const moveOverride = (i: number) => {
    at.current.override = Math.max(0, Math.min(overrides.length - 1, i))
    setOverrideAt(at.current.override)
  }
  const deleteOverride = (o: WafOverride) => {
    notify.clear()
    run(
      Waf.deleteOverride(z, o.id),
      () => {
        notify.done(`Deleted override ${o.id} of ${z.name}; the compatibility is checked again`)
        moveOverride(0)
        refresh()
      },
      "delete the override",
      { where: z.name, what: `deleted URI-based WAF override ${o.id} (${o.urls.join(" ")})` }
    )
  }

  const deployable =
    step === 6 && data !== undefined && data.status.migration_state !== "finished" && data.check.compatible
  const lines =
    data === undefined
      ? undefined
      : step === 2 && data.preview
        ? previewLines(data.preview, columns)
        : step === 3 && data.preview
          ? notMigratedLines(data.preview, columns)
          : step === 5 && data.preview
            ? replayLines({ ...replay, file, stale }, columns)
            : step === 6
              ? [
                  ...deployLines(data.status, busy && `${busy}…`, sent, columns, data.check.compatible),
                  ...(showRequest && deployable
                    ? requestLinesOf(
                        `v: the request d sends${data.status.migration_state === "start" && data.status.plan === "enterprise" ? " (x sends waf_migration=pending instead)" : ""}, as \`edgectl waf migrate --dry-run\` prints it:`,
                        deployRequest(modeOf(data.status.migration_state, false)),
                        columns
                      )
                    : [])
                ]
              : undefined
  const maxScroll = lines ? maxOffset(lines.length, rows) : 0

  const hints: Array<KeyHint> = [
    { keys: "←→/n p", label: "step" },
    ...(step === 4
      ? [
          { keys: "space", label: "enable" },
          { keys: "a", label: "action" },
          { keys: "L/t/o", label: "OWASP level/threshold/action" },
          ...(edits !== undefined ? [{ keys: "u", label: "undo edits" }] : []),
          { keys: "g/G", label: "first/last rule" }
        ]
      : []),
    ...(step === 1 && overrides.length > 0
      ? [
          { keys: "↑↓", label: "overrides" },
          { keys: "x", label: "delete override" }
        ]
      : []),
    ...(step === 5
      ? [
          { keys: "f", label: "file" },
          { keys: "enter", label: "replay" }
        ]
      : []),
    // Issue 29: `d deploy` was offered on a finished migration and on an incompatible zone.
    ...(deployable ? [{ keys: "d", label: "deploy" }] : []),
    ...(deployable ? [{ keys: "v", label: showRequest ? "hide request" : "request" }] : []),
    ...(deployable && data?.status.plan === "enterprise" && data.status.migration_state === "start"
      ? [{ keys: "x", label: "finish now" }]
      : []),
    ...(maxScroll > 0 ? [{ keys: "j/k", label: "scroll" }] : []),
    { keys: "r", label: "refresh" }
  ]
  useKeys(
    (press) => {
      const n = press.name
      const now = at.current.step
      if (n === "right" || n === "n") return (go(now + 1), true)
      if (n === "left" || n === "p") return (go(now - 1), true)
      if (n === "home") return (go(0), true)
      if (n === "end") return (go(STEPS - 1), true)
      if (n === "r") return (refresh(), true)
      if (!data) return false
      if (now === 1 && data.overrides.length > 0) {
        if (n === "down" || n === "j") return (moveOverride(at.current.override + 1), true)
        if (n === "up" || n === "k") return (moveOverride(at.current.override - 1), true)
        const o = data.overrides[Math.min(at.current.override, data.overrides.length - 1)]
        if (n === "x" && o !== undefined && busy === undefined)
          return (setDialog({ kind: "override", override: o }), true)
      }
      if (now === 4 && proposal) {
        const id = rules[at.current.cursor]?.id
        if (n === "down" || n === "j") return (move(at.current.cursor + 1), true)
        if (n === "up" || n === "k") return (move(at.current.cursor - 1), true)
        // First and last rule, as on every list (issue 29: `g` did nothing here).
        if (n === "g") return (move(0), true)
        if (n === "G") return (move(rules.length - 1), true)
        if (busy !== undefined) return false
        if (n === " " && id) return (edit((c) => toggleRule(c, id)), true)
        if (n === "a" && id) return (edit((c) => cycleAction(c, id)), true)
        if (n === "L") return (edit(cycleParanoia), true)
        if (n === "t") return (edit(cycleThreshold), true)
        if (n === "o") return (edit(cycleOwaspAction), true)
        // Edits are not saved anywhere else: `u` asks before it drops them (issue 29 item 10).
        if (n === "u" && edits !== undefined) return (setDialog({ kind: "undo" }), true)
      }
      if (lines !== undefined) {
        const by =
          n === "down" || n === "j"
            ? 1
            : n === "up" || n === "k"
              ? -1
              : n === "pagedown"
                ? rows - 1
                : n === "pageup"
                  ? 1 - rows
                  : 0
        if (by !== 0) return (setScroll((s) => Math.max(0, Math.min(maxScroll, s + by))), true)
      }
      if (now === 5) {
        if (n === "f") return (setDialog({ kind: "file" }), true)
        if (n === "enter") return (startReplay(file), true)
      }
      // Read from the step this key is on (`now`), not the render's: `end` then `d` in one read deploys.
      const deployable = data.status.migration_state !== "finished" && data.check.compatible
      if (now === 6 && busy === undefined) {
        if (n === "d" && deployable) return (deployKey(data.status.migration_state, false), true)
        if (n === "v" && deployable) return (setShowRequest((v) => !v), true)
        if (n === "x" && deployable && data.status.plan === "enterprise" && data.status.migration_state === "start")
          return (deployKey("start", true), true)
      }
      return false
    },
    { priority: KeyLayer.tab, active: active && dialog === undefined, hints }
  )

  if (query._tag === "Loading") return <Loading what="the WAF migration" />
  if (query._tag === "Failure") return <ErrorView what="could not read the WAF migration" error={query.error} />
  const { status, check, overrides: blocking, preview, base, baseName } = query.value
  const finished = status.migration_state === "finished"
  const edited = { base, edits, baseName, columns }
  const body = () => {
    if (step === 0) return <StatusStep status={status} name={z.name} />
    if (step === 1)
      return <CheckStep check={check} overrides={overrides} index={overrideAt} height={rows} focused={active} />
    if (lines !== undefined) return <Lines lines={lines} offset={Math.min(scroll, maxScroll)} height={rows} />
    if (!preview || !proposal)
      return <Text dimColor>The migration is finished: the previous WAF is gone, there is nothing to preview.</Text>
    return (
      <OverridesStep
        config={proposal.config}
        index={cursor}
        height={rows}
        columns={columns}
        focused={active}
        edited={edits !== undefined}
      />
    )
  }
  return (
    <Box flexDirection="column">
      <StepBar step={step} columns={columns} dim={(i) => finished && i > 1 && i < 6} />
      <Text> </Text>
      {dialog?.kind === "file" ? (
        <TextPrompt
          title="Traffic file (JSONL, one request per line)"
          help={`empty for ${file}`}
          submitLabel="replay"
          onSubmit={(t) => {
            const f = t.trim() === "" ? file : t.trim()
            setFile(f)
            setDialog(undefined)
            startReplay(f)
          }}
          onCancel={() => setDialog(undefined)}
        />
      ) : dialog?.kind === "validation" ? (
        <ConfirmDialog
          title={`Deploy the new WAF on ${z.name} in validation mode?`}
          lines={[
            "Both versions run side by side, the new one first; finish from this step.",
            ...sendingLines(edited, rows - 6, columns - 4)
          ]}
          confirmLabel="deploy to validation"
          requests={deployRequest("validation")}
          height={rows}
          onConfirm={() => {
            setDialog(undefined)
            deploy("validation")
          }}
          onCancel={() => setDialog(undefined)}
        />
      ) : dialog?.kind === "override" ? (
        <ConfirmDialog
          title={`Delete the URI-based WAF override ${dialog.override.id} of ${z.name}?`}
          lines={[
            `URLs: ${dialog.override.urls.join(" ")}${dialog.override.description ? ` · ${dialog.override.description}` : ""}`,
            `It blocks the migration${blocking.length > 1 ? ` (with ${blocking.length - 1} more)` : ""}. Its settings are not kept anywhere else: \`edgectl waf export\` saves them first.`
          ]}
          confirmLabel="delete the override"
          destructive
          requests={[Waf.deleteOverrideRequest(z, dialog.override.id)]}
          height={rows}
          onConfirm={() => {
            setDialog(undefined)
            deleteOverride(dialog.override)
          }}
          onCancel={() => setDialog(undefined)}
        />
      ) : dialog?.kind === "undo" ? (
        <ConfirmDialog
          title={`Drop your edits to the overrides of ${z.name}?`}
          lines={undoLines(edited, rows - 6)}
          confirmLabel="drop the edits"
          destructive
          onConfirm={() => {
            setDialog(undefined)
            update(() => undefined)
          }}
          onCancel={() => setDialog(undefined)}
        />
      ) : dialog?.kind === "finish" ? (
        <Box flexDirection="column">
          {sendingLines(edited, rows - 8, columns).map((l, i) => (
            <Text key={i} wrap="wrap" {...(edits ? { color: "yellow" } : {})}>
              {l}
            </Text>
          ))}
          <TextPrompt
            title={`Finish the WAF migration of ${z.name}? This is irreversible: the previous WAF is turned off for good.`}
            help={`type the zone name (${z.name}) to confirm; esc, then v, shows the request it sends`}
            check={(t) => (t === z.name ? undefined : `type ${z.name} exactly`)}
            submitLabel="finish the migration"
            onSubmit={() => {
              setDialog(undefined)
              deploy("pending")
            }}
            onCancel={() => setDialog(undefined)}
          />
        </Box>
      ) : (
        body()
      )}
    </Box>
  )
}
