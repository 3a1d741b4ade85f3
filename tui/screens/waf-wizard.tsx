/**
 * The WAF tab of a zone: the migration as a wizard. Status → Check (with reasons) → Preview
 * (previous | new) → Not migrated → Overrides (edit the proposed configuration's rule overrides and
 * OWASP level) → Replay (a traffic file against both versions) → Deploy (validation on enterprise,
 * or finish; finishing asks the user to type the zone name: it is irreversible). Steps move with
 * ←→ (n/p, home/end); digits stay the app's screen keys. Every action is a WafMigration service
 * call; this file holds the state and the actions, the steps (./waf-wizard-steps.tsx) what each
 * shows and the keys it takes, the dialogs (./waf-wizard-dialogs.tsx) what they ask.
 *
 * Everything here belongs to one zone: the component is keyed by the zone's id (a zone switch
 * mounts a fresh wizard), the unsaved edits live in the app's per-zone draft store, and a deploy
 * sends a `ZoneConfig`, the zone and its configuration taken from one record.
 */
import { Box, Text } from "ink"
import { useRef, useState } from "react"
import type { MigrationState, WafConfig } from "../../src/domain/waf.js"
import type { Zone } from "../../src/domain/zone.js"
import * as Waf from "../../src/services/waf-migration-service.js"
import { managedRules } from "../../src/waf/edit.js"
import type { MigrationMode } from "../../src/waf/state.js"
import { shippedTrafficSample } from "../../src/waf/traffic-sample.js"
import { ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys, type KeyHint } from "../keys.js"
import { useEffectQuery } from "../runtime.js"
import { useWafDraft } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { Lines, maxOffset, type Staleness } from "./waf-step-views.js"
import { useWizardActions } from "./waf-wizard-actions.js"
import { load } from "./waf-wizard-data.js"
import { WizardDialog, type Dialog } from "./waf-wizard-dialogs.js"
import { StepBar, stepFrom, stepOf, WizardSteps, type StepName, type Wizard } from "./waf-wizard-steps.js"

/** Shown (and replayed) when the package's own sample cannot be found. */
const SAMPLE_NAME = "fixtures/waf/traffic-sample.jsonl"

/** Lines: step bar, blank. */
const Chrome = 2
const First = WizardSteps[0]!.name
const Last = WizardSteps[WizardSteps.length - 1]!.name

/** Keyed by the zone: another zone never sees this one's steps, cursor, replay or deploy result. */
export function WafWizard(props: { zone: Zone; active: boolean; height: number }) {
  return <ZoneWafWizard key={props.zone.id} {...props} />
}

function ZoneWafWizard({ zone, active, height }: { zone: Zone; active: boolean; height: number }) {
  const z = Waf.wafZoneOf(zone)
  const columns = usePaneSize().columns
  const { query, refresh } = useEffectQuery(() => load(z), [zone.id])
  const [step, setStep] = useState<StepName>(First)
  const [cursor, setCursor] = useState(0)
  const [scroll, setScroll] = useState(0)
  // Keys that arrive in one read are handled before the next render: they read these refs.
  const at = useRef<{ step: StepName; cursor: number; override: number }>({ step: First, cursor: 0, override: 0 })
  const [overrideAt, setOverrideAt] = useState(0)
  const [showRequest, setShowRequest] = useState(false)
  const [file, setFile] = useState(() => shippedTrafficSample() ?? SAMPLE_NAME)
  const [dialog, setDialog] = useState<Dialog | undefined>(undefined)
  const { draft, update } = useWafDraft(zone.id)

  const data = query._tag === "Success" ? query.value : undefined
  const edits = draft?.zoneId === zone.id ? draft.config : undefined
  // The one record a deploy and a replay take the zone and the configuration from.
  const proposal: Waf.ZoneConfig | undefined =
    data?.preview && data.base ? { zone: data.preview.zone, config: edits ?? data.base } : undefined
  const rules = proposal ? managedRules(proposal.config) : []
  const overrides = data?.overrides ?? []
  const rows = Math.max(3, height - Chrome)
  const moveOverride = (i: number) => {
    at.current.override = Math.max(0, Math.min(overrides.length - 1, i))
    setOverrideAt(at.current.override)
  }
  const { replay, sent, busy, startReplay, deploy, deleteOverride } = useWizardActions({
    zone: z,
    data,
    proposal,
    refresh,
    dropEdits: () => update(() => undefined),
    overrideDeleted: () => moveOverride(0)
  })
  const stale: Staleness =
    replay.basis === undefined
      ? undefined
      : replay.basis.data !== data
        ? "reloaded"
        : replay.basis.config !== proposal?.config
          ? "edited"
          : undefined

  const go = (s: StepName) => {
    at.current.step = s
    setStep(s)
    setScroll(0)
  }
  const moveRule = (c: number) => {
    at.current.cursor = Math.max(0, Math.min(rules.length - 1, c))
    setCursor(at.current.cursor)
  }
  const edit = (f: (c: WafConfig) => WafConfig) => {
    const base = data?.base
    if (base) update((c) => f(c ?? base))
  }

  const modeOf = (state: MigrationState, finishNow: boolean): MigrationMode =>
    finishNow ? "pending" : z.plan === "enterprise" && state === "start" ? "validation" : "pending"
  const deployRequest = (mode: MigrationMode) =>
    proposal === undefined ? [] : [Waf.plannedRequest(Waf.requestFor(proposal.zone, mode, proposal.config))]
  const wizard: Wizard = {
    zone: z,
    data,
    proposal,
    rules,
    edits,
    overrides,
    columns,
    rows,
    active,
    busy,
    cursor,
    overrideAt,
    at: at.current,
    replay,
    file,
    stale,
    sent,
    showRequest,
    moveRule,
    moveOverride,
    edit,
    open: setDialog,
    startReplay,
    toggleRequest: () => setShowRequest((v) => !v),
    modeOf,
    deployRequest
  }
  const current = stepOf(step)
  const shown = data === undefined ? undefined : current.body(wizard, data)
  const lines = shown !== undefined && "lines" in shown ? shown.lines : undefined
  const maxScroll = lines ? maxOffset(lines.length, rows) : 0

  const hints: Array<KeyHint> = [
    { keys: "←→/n p", label: "step" },
    ...current.hints(wizard),
    ...(maxScroll > 0 ? [{ keys: "j/k", label: "scroll" }] : []),
    { keys: "r", label: "refresh" }
  ]
  useKeys(
    (press) => {
      const n = press.name
      // Read from the step this key is on, not the render's: `end` then `d` in one read deploys.
      const now = at.current.step
      if (n === "right" || n === "n") return (go(stepFrom(now, 1)), true)
      if (n === "left" || n === "p") return (go(stepFrom(now, -1)), true)
      if (n === "home") return (go(First), true)
      if (n === "end") return (go(Last), true)
      if (n === "r") return (refresh(), true)
      if (!data) return false
      if (stepOf(now).keys(n, wizard, data)) return true
      if (lines === undefined) return false
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
      return false
    },
    { priority: KeyLayer.tab, active: active && dialog === undefined, hints }
  )

  if (query._tag === "Loading") return <Loading what="the WAF migration" />
  if (query._tag === "Failure") return <ErrorView what="could not read the WAF migration" error={query.error} />
  const { status, base, baseName } = query.value
  return (
    <Box flexDirection="column">
      <StepBar current={step} columns={columns} finished={status.migration_state === "finished"} />
      <Text> </Text>
      {dialog !== undefined ? (
        <WizardDialog
          dialog={dialog}
          zone={z}
          edited={{ base, edits, baseName, columns }}
          rows={rows}
          columns={columns}
          file={file}
          blocking={overrides}
          deployRequest={deployRequest}
          close={() => setDialog(undefined)}
          replay={(f) => {
            setFile(f)
            startReplay(f)
          }}
          deploy={deploy}
          deleteOverride={deleteOverride}
          dropEdits={() => update(() => undefined)}
        />
      ) : lines !== undefined ? (
        <Lines lines={lines} offset={Math.min(scroll, maxScroll)} height={rows} />
      ) : shown !== undefined && "view" in shown ? (
        shown.view
      ) : null}
    </Box>
  )
}
