/**
 * The WAF tab of a zone: the migration as a wizard. Status → Check (with reasons) → Preview
 * (previous | new) → Not migrated → Overrides (edit the proposed configuration's rule overrides and
 * OWASP level) → Replay (a traffic file against both versions) → Deploy (validation on enterprise,
 * or finish; finishing asks the user to type the zone name: it is irreversible). Progress shows
 * while a step runs. Every action is a WafMigration service call; this file only presents.
 */
import * as Effect from "effect/Effect"
import { Box, Text } from "ink"
import { useState } from "react"
import type { MigrationState, WafConfig } from "../../src/domain/waf.js"
import type { Zone } from "../../src/domain/zone.js"
import * as Waf from "../../src/services/waf-migration.js"
import { cycleAction, cycleOwaspAction, cycleParanoia, cycleThreshold, managedRules, toggleRule } from "../../src/waf/edit.js"
import type { ReplayReport } from "../../src/waf/replay.js"
import type { MigrationMode } from "../../src/waf/state.js"
import { useActions } from "../actions.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { ErrorView, Loading } from "../components/states.js"
import { TextPrompt } from "../components/text-prompt.js"
import { KeyLayer, useKeys, type KeyHint } from "../keys.js"
import { useNotify } from "../notices.js"
import { useEffectQuery } from "../runtime.js"
import { usePaneSize } from "../terminal.js"
import { CheckStep, DeployStep, NotMigratedStep, OverridesStep, PreviewStep, ReplayStep, StatusStep } from "./waf-steps.js"

export const WIZARD_STEPS = ["Status", "Check", "Preview", "Not migrated", "Overrides", "Replay", "Deploy"] as const
export const DEFAULT_TRAFFIC = "fixtures/waf/traffic-sample.jsonl"

const load = (z: Waf.WafZone) =>
  Effect.gen(function* () {
    const [status, check] = yield* Effect.all([Waf.status(z), Waf.check(z)], { concurrency: 2 })
    const preview = status.migration_state === "finished" ? undefined : yield* Waf.preview(z)
    return { status, check, preview }
  })

type Dialog = { readonly kind: "file" } | { readonly kind: "validation" } | { readonly kind: "finish" }

/** Lines: step bar, blank. */
const Chrome = 2

export function WafWizard({ zone, active, height }: { zone: Zone; active: boolean; height: number }) {
  const z = Waf.wafZoneOf(zone)
  const columns = usePaneSize().columns
  const { query, refresh } = useEffectQuery(() => load(z), [zone.id])
  const [step, setStep] = useState(0)
  const [edited, setEdited] = useState<WafConfig | undefined>(undefined)
  const [cursor, setCursor] = useState(0)
  const [file, setFile] = useState(DEFAULT_TRAFFIC)
  const [replay, setReplay] = useState<{ running: boolean; report?: ReplayReport; error?: string }>({ running: false })
  const [dialog, setDialog] = useState<Dialog | undefined>(undefined)
  const notify = useNotify()
  const { run, start, busy } = useActions()

  const data = query._tag === "Success" ? query.value : undefined
  const proposed = edited ?? data?.preview?.config
  const rules = proposed ? managedRules(proposed) : []
  const rows = Math.max(3, height - Chrome)

  const startReplay = (path: string) => {
    if (!data?.preview || !proposed) return
    setReplay({ running: true })
    void start(Waf.replayFile(data.preview.previous, proposed, path)).then((r) => {
      if (r === undefined) return
      setReplay(r.ok ? { running: false, report: r.value } : { running: false, error: `error: replay: ${r.error.message}` })
    })
  }

  const deploy = (mode: MigrationMode) => {
    notify.clear()
    run(
      Waf.migrate(z, { mode, config: proposed }),
      (s: Waf.MigrationStep) => {
        notify.done(
          s.to === "finished"
            ? `Migration finished: ${z.name} runs WAF Managed Rules (entry point version ${s.ruleset?.version}).`
            : `Validation mode: both versions run on ${z.name}; review, then finish from the Deploy step.`
        )
        setEdited(undefined)
        refresh()
      },
      mode === "validation" ? "Deploying to validation mode" : "Finishing the migration"
    )
  }

  const deployKey = (state: MigrationState, finishNow: boolean) => {
    if (state === "finished") return
    const mode = finishNow ? "pending" : Waf.wafZoneOf(zone).plan === "enterprise" && state === "start" ? "validation" : "pending"
    setDialog(mode === "validation" ? { kind: "validation" } : { kind: "finish" })
  }

  const hints: Array<KeyHint> = [
    { keys: "←→/np", label: "steps" },
    { keys: "1-7", label: "jump" },
    ...(step === 4 ? [{ keys: "space", label: "enable" }, { keys: "a", label: "action" }, { keys: "L/t/o", label: "OWASP level/threshold/action" }, { keys: "u", label: "undo edits" }] : []),
    ...(step === 5 ? [{ keys: "f", label: "file" }, { keys: "enter", label: "replay" }] : []),
    ...(step === 6 ? [{ keys: "d", label: "deploy" }] : []),
    { keys: "r", label: "refresh" }
  ]
  useKeys(
    (press) => {
      const n = press.name
      if (n === "right" || n === "n") return setStep((s) => Math.min(WIZARD_STEPS.length - 1, s + 1)), true
      if (n === "left" || n === "p") return setStep((s) => Math.max(0, s - 1)), true
      if (/^[1-7]$/.test(n)) return setStep(Number(n) - 1), true
      if (n === "r") return refresh(), setReplay({ running: false }), true
      if (!data) return false
      if (step === 4 && proposed) {
        const id = rules[cursor]?.id
        if (n === "down" || n === "j") return setCursor((c) => Math.min(rules.length - 1, c + 1)), true
        if (n === "up" || n === "k") return setCursor((c) => Math.max(0, c - 1)), true
        if (n === " " && id) return setEdited(toggleRule(proposed, id)), true
        if (n === "a" && id) return setEdited(cycleAction(proposed, id)), true
        if (n === "L") return setEdited(cycleParanoia(proposed)), true
        if (n === "t") return setEdited(cycleThreshold(proposed)), true
        if (n === "o") return setEdited(cycleOwaspAction(proposed)), true
        if (n === "u") return setEdited(undefined), true
      }
      if (step === 5) {
        if (n === "f") return setDialog({ kind: "file" }), true
        if (n === "enter") return startReplay(file), true
      }
      if (step === 6 && busy === undefined) {
        if (n === "d") return deployKey(data.status.migration_state, false), true
        if (n === "x" && data.status.plan === "enterprise" && data.status.migration_state === "start") return deployKey("start", true), true
      }
      return false
    },
    { priority: KeyLayer.tab, active: active && dialog === undefined, hints }
  )

  if (query._tag === "Loading") return <Loading what="the WAF migration" />
  if (query._tag === "Failure") return <ErrorView what="could not read the WAF migration" error={query.error} />
  const { status, check, preview } = query.value
  const finished = status.migration_state === "finished"
  const body = () => {
    switch (step) {
      case 0:
        return <StatusStep status={status} name={z.name} />
      case 1:
        return <CheckStep check={check} />
      case 6:
        return <DeployStep status={status} busy={busy && `${busy}…`} />
      default:
        if (!preview || !proposed) return <Text dimColor>The migration is finished: the previous WAF is gone, there is nothing to preview.</Text>
        if (step === 2) return <PreviewStep preview={preview} columns={columns} height={rows} />
        if (step === 3) return <NotMigratedStep preview={preview} />
        if (step === 4) return <OverridesStep config={proposed} index={cursor} height={rows} focused={active} edited={edited !== undefined} />
        return <ReplayStep report={replay.report} file={file} running={replay.running} error={replay.error} />
    }
  }
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {WIZARD_STEPS.map((s, i) => (
          <Text key={s} {...(i === step ? { bold: true, inverse: true } : { dimColor: finished && i > 1 && i < 6 })}>
            {` ${i + 1} ${s} `}
          </Text>
        ))}
      </Text>
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
          lines={["Both versions run side by side, the new one first. Review the security events, then finish from this step."]}
          confirmLabel="deploy to validation"
          onConfirm={() => {
            setDialog(undefined)
            deploy("validation")
          }}
          onCancel={() => setDialog(undefined)}
        />
      ) : dialog?.kind === "finish" ? (
        <TextPrompt
          title={`Finish the WAF migration of ${z.name}? This is irreversible: the previous WAF is turned off for good.`}
          help={`type the zone name (${z.name}) to confirm`}
          check={(t) => (t === z.name ? undefined : `type ${z.name} exactly`)}
          submitLabel="finish the migration"
          onSubmit={() => {
            setDialog(undefined)
            deploy("pending")
          }}
          onCancel={() => setDialog(undefined)}
        />
      ) : (
        body()
      )}
    </Box>
  )
}
