/**
 * The WAF wizard's steps, by name: each says its title, what it shows, the keys it takes and the
 * hints the footer lists for them. The wizard (./waf-wizard.tsx) holds the state and the actions and
 * asks its current step; no code tells a step by its position (issue 32 item 7): the table's order
 * is only the order ←→ walks and the step bar shows, so a step is added or moved with one entry.
 */
import { Text } from "ink"
import type { ReactNode } from "react"
import type { MigrationState, WafConfig, WafOverride } from "../../src/domain/waf.js"
import type { PlannedRequest } from "../../src/domain/request-text.js"
import type * as Waf from "../../src/services/waf-migration-service.js"
import {
  cycleAction,
  cycleOwaspAction,
  cycleParanoia,
  cycleThreshold,
  toggleRule,
  type ManagedRuleView
} from "../../src/waf/edit.js"
import type { ReplayReport } from "../../src/waf/replay.js"
import type { MigrationMode } from "../../src/waf/state.js"
import type { KeyHint } from "../keys.js"
import {
  CheckStep,
  deployLines,
  notMigratedLines,
  OverridesStep,
  previewLines,
  replayLines,
  requestLinesOf,
  StatusStep,
  type Line,
  type Sent,
  type Staleness
} from "./waf-step-views.js"
import type { Data } from "./waf-wizard-data.js"
import type { Dialog } from "./waf-wizard-dialogs.js"

/** A replay of the Replay step: running, or its report or error. */
export interface Replay {
  readonly running: boolean
  /** The file the report is of (the picked one may have changed since). */
  readonly replayed?: string
  readonly report?: ReplayReport
  readonly error?: string
  /** What the report was computed from, to tell when it is out of date. */
  readonly basis?: { readonly data: Data; readonly config: WafConfig }
}

/** What a step reads and does in one render: the wizard's state and its actions. */
export interface Wizard {
  readonly zone: Waf.WafZone
  /** Undefined while the zone is read (again): a step's keys and body are asked only once it is there. */
  readonly data: Data | undefined
  /** The one record a deploy and a replay take the zone and the configuration from. */
  readonly proposal: Waf.ZoneConfig | undefined
  readonly rules: ReadonlyArray<ManagedRuleView>
  /** The user's edits of the proposed configuration, if any. */
  readonly edits: WafConfig | undefined
  readonly overrides: ReadonlyArray<WafOverride>
  readonly columns: number
  /** Rows for the step's body. */
  readonly rows: number
  readonly active: boolean
  /** The action under way, if any. */
  readonly busy: string | undefined
  /** The cursors as drawn. */
  readonly cursor: number
  readonly overrideAt: number
  /** The cursors as the keys left them: keys that arrive in one read are handled before the next render. */
  readonly at: { readonly cursor: number; readonly override: number }
  readonly replay: Replay
  /** The traffic file the Replay step replays. */
  readonly file: string
  readonly stale: Staleness
  /** What the last deploy sent, as read back. */
  readonly sent: Sent | undefined
  /** `v` on the Deploy step: the request `d` sends, as `edgectl waf migrate --dry-run` prints it. */
  readonly showRequest: boolean
  readonly moveRule: (i: number) => void
  readonly moveOverride: (i: number) => void
  readonly edit: (f: (c: WafConfig) => WafConfig) => void
  readonly open: (d: Dialog) => void
  readonly startReplay: (path: string) => void
  readonly toggleRequest: () => void
  /** The mode `d` (or `x`, `finishNow`) deploys in from `state`. */
  readonly modeOf: (state: MigrationState, finishNow: boolean) => MigrationMode
  /** What a deploy in `mode` sends: the request `deployZoneConfig` builds, from the same record. */
  readonly deployRequest: (mode: MigrationMode) => Array<PlannedRequest>
}

/** Content that can outgrow the pane, as lines the wizard scrolls; or a view that fits of itself. */
type StepBody = { readonly lines: ReadonlyArray<Line> } | { readonly view: ReactNode }

interface Step {
  readonly name: StepName
  readonly title: string
  /** Shows the previous WAF or the proposal, both gone once the migration is finished: dimmed then. */
  readonly ofPreview: boolean
  readonly body: (w: Wizard, data: Data) => StepBody
  /** The footer's hints for the step's own keys (the wizard lists its own around them). */
  readonly hints: (w: Wizard) => ReadonlyArray<KeyHint>
  /** The step's own keys, by name, once the data is there; true when handled. */
  readonly keys: (key: string, w: Wizard, data: Data) => boolean
}

export type StepName = "status" | "check" | "preview" | "not-migrated" | "overrides" | "replay" | "deploy"

const finishedNotice: StepBody = {
  view: <Text dimColor>The migration is finished: the previous WAF is gone, there is nothing to preview.</Text>
}

const none = () => []
const noKeys = () => false
const isDown = (k: string) => k === "down" || k === "j"
const isUp = (k: string) => k === "up" || k === "k"

/** Whether `d` can deploy now (issue 29: it was offered on a finished migration and on an incompatible zone). */
const deployable = (data: Data | undefined): data is Data =>
  data !== undefined && data.status.migration_state !== "finished" && data.check.compatible
/** Enterprise zones deploy to validation first; `x` finishes at once from the start. */
const canFinishNow = (data: Data) => data.status.plan === "enterprise" && data.status.migration_state === "start"

const status: Step = {
  name: "status",
  title: "Status",
  ofPreview: false,
  body: (w, data) => ({ view: <StatusStep status={data.status} name={w.zone.name} /> }),
  hints: none,
  keys: noKeys
}

const check: Step = {
  name: "check",
  title: "Check",
  ofPreview: false,
  body: (w, data) => ({
    view: (
      <CheckStep check={data.check} overrides={w.overrides} index={w.overrideAt} height={w.rows} focused={w.active} />
    )
  }),
  hints: (w) =>
    w.overrides.length > 0
      ? [
          { keys: "↑↓", label: "overrides" },
          { keys: "x", label: "delete override" }
        ]
      : [],
  // URI-based overrides block the migration: listed here, to delete them here.
  keys: (k, w, data) => {
    if (data.overrides.length === 0) return false
    if (isDown(k)) return (w.moveOverride(w.at.override + 1), true)
    if (isUp(k)) return (w.moveOverride(w.at.override - 1), true)
    const o = data.overrides[Math.min(w.at.override, data.overrides.length - 1)]
    if (k === "x" && o !== undefined && w.busy === undefined) return (w.open({ kind: "override", override: o }), true)
    return false
  }
}

const preview: Step = {
  name: "preview",
  title: "Preview",
  ofPreview: true,
  body: (w, data) => (data.preview ? { lines: previewLines(data.preview, w.columns) } : finishedNotice),
  hints: none,
  keys: noKeys
}

const notMigrated: Step = {
  name: "not-migrated",
  title: "Not migrated",
  ofPreview: true,
  body: (w, data) => (data.preview ? { lines: notMigratedLines(data.preview, w.columns) } : finishedNotice),
  hints: none,
  keys: noKeys
}

const overrides: Step = {
  name: "overrides",
  title: "Overrides",
  ofPreview: true,
  body: (w) =>
    w.proposal
      ? {
          view: (
            <OverridesStep
              config={w.proposal.config}
              index={w.cursor}
              height={w.rows}
              columns={w.columns}
              focused={w.active}
              edited={w.edits !== undefined}
            />
          )
        }
      : finishedNotice,
  hints: (w) => [
    { keys: "space", label: "enable" },
    { keys: "a", label: "action" },
    { keys: "L/t/o", label: "OWASP level/threshold/action" },
    ...(w.edits !== undefined ? [{ keys: "u", label: "undo edits" }] : []),
    { keys: "g/G", label: "first/last rule" }
  ],
  // The proposed configuration's rule overrides and OWASP level, edited in the app's per-zone draft.
  keys: (k, w) => {
    if (!w.proposal) return false
    const id = w.rules[w.at.cursor]?.id
    if (isDown(k)) return (w.moveRule(w.at.cursor + 1), true)
    if (isUp(k)) return (w.moveRule(w.at.cursor - 1), true)
    // First and last rule, as on every list (issue 29: `g` did nothing here).
    if (k === "g") return (w.moveRule(0), true)
    if (k === "G") return (w.moveRule(w.rules.length - 1), true)
    if (w.busy !== undefined) return false
    if (k === " " && id) return (w.edit((c) => toggleRule(c, id)), true)
    if (k === "a" && id) return (w.edit((c) => cycleAction(c, id)), true)
    if (k === "L") return (w.edit(cycleParanoia), true)
    if (k === "t") return (w.edit(cycleThreshold), true)
    if (k === "o") return (w.edit(cycleOwaspAction), true)
    // Edits are not saved anywhere else: `u` asks before it drops them (issue 29 item 10).
    if (k === "u" && w.edits !== undefined) return (w.open({ kind: "undo" }), true)
    return false
  }
}

const replay: Step = {
  name: "replay",
  title: "Replay",
  ofPreview: true,
  body: (w, data) =>
    data.preview ? { lines: replayLines({ ...w.replay, file: w.file, stale: w.stale }, w.columns) } : finishedNotice,
  hints: () => [
    { keys: "f", label: "file" },
    { keys: "enter", label: "replay" }
  ],
  keys: (k, w) => {
    if (k === "f") return (w.open({ kind: "file" }), true)
    if (k === "enter") return (w.startReplay(w.file), true)
    return false
  }
}

const deploy: Step = {
  name: "deploy",
  title: "Deploy",
  ofPreview: false,
  body: (w, data) => ({
    lines: [
      ...deployLines(data.status, w.busy && `${w.busy}…`, w.sent, w.columns, data.check.compatible),
      ...(w.showRequest && deployable(data)
        ? requestLinesOf(
            `v: the request d sends${canFinishNow(data) ? " (x sends waf_migration=pending instead)" : ""}, as \`edgectl waf migrate --dry-run\` prints it:`,
            w.deployRequest(w.modeOf(data.status.migration_state, false)),
            w.columns
          )
        : [])
    ]
  }),
  hints: (w) =>
    deployable(w.data)
      ? [
          { keys: "d", label: "deploy" },
          { keys: "v", label: w.showRequest ? "hide request" : "request" },
          ...(canFinishNow(w.data) ? [{ keys: "x", label: "finish now" }] : [])
        ]
      : [],
  // Validation mode or finishing: the wizard's dialogs ask first (finishing is irreversible).
  keys: (k, w, data) => {
    if (w.busy !== undefined || !deployable(data)) return false
    const finishing = (now: boolean) => {
      if (w.proposal)
        w.open(
          w.modeOf(data.status.migration_state, now) === "validation" ? { kind: "validation" } : { kind: "finish" }
        )
    }
    if (k === "d") return (finishing(false), true)
    if (k === "v") return (w.toggleRequest(), true)
    if (k === "x" && canFinishNow(data)) return (finishing(true), true)
    return false
  }
}

/** The steps in the order ←→ walks them. */
export const WizardSteps: ReadonlyArray<Step> = [status, check, preview, notMigrated, overrides, replay, deploy]

export const stepOf = (name: StepName): Step => WizardSteps.find((s) => s.name === name)!

/** The step `by` steps from `name` (negative: back), stopping at the first and the last. */
export const stepFrom = (name: StepName, by: number): StepName => {
  const i = WizardSteps.findIndex((s) => s.name === name) + by
  return WizardSteps[Math.max(0, Math.min(WizardSteps.length - 1, i))]!.name
}

/** The step titles on one line; the current one bracketed (readable without colour). */
export function StepBar({ current, columns, finished }: { current: StepName; columns: number; finished: boolean }) {
  const wide = WizardSteps.map((s) => s.title).join("  ").length + 4 <= columns
  const sep = wide ? "  " : " "
  return (
    <Text wrap="wrap">
      {WizardSteps.map((s, i) => (
        <Text key={s.name}>
          {i > 0 ? sep : ""}
          <Text {...(s.name === current ? { bold: true, inverse: true } : { dimColor: finished && s.ofPreview })}>
            {s.name === current ? `[${s.title}]` : s.title}
          </Text>
        </Text>
      ))}
    </Text>
  )
}
