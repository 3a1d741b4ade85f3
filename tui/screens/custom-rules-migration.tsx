/**
 * The zone's Firewall tab, `m`: the migration of its firewall rules to custom rules, on the one
 * migration engine through the service the CLI uses (src/services/custom-rules-migration-service.ts):
 * the preview is the plan `edgectl firewall migrate --dry-run` prints (computed once from the live
 * state), the apply sends exactly it with a journal, and this screen owns no step. The preview lists
 * each old rule beside the custom rule it becomes (in run order, the rules left out last); enter
 * reads a rule's notes whole (./custom-rules-migration-notes.tsx). `p` replays a traffic file through
 * both (./custom-rules-replay.tsx; `v` shows it again); `a` applies after a confirmation that says
 * what is sent, with progress. A journal left unfinished (a failure, a signal) is shown with `f` to
 * finish it and `u` to undo it (after a confirmation); `u` also undoes a finished migration.
 */
import { Box, Text } from "ink"
import { useContext, useState } from "react"
import * as Effect from "effect/Effect"
import {
  applyZoneMigration,
  planZoneMigration,
  resumeZoneMigration,
  rollbackZoneMigration,
  zoneMigrationJournal,
  type ZoneRef
} from "../../src/services/custom-rules-migration-service.js"
import { rollbackSteps, type StepProgress } from "../../src/services/migration-engine.js"
import { replayMigration, type MigrationReplay } from "../../src/services/migration-replay-service.js"
import { useActions } from "../actions.js"
import type { Services } from "../runtime.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { MigrationProgress, unfinishedText } from "../components/migration-status.js"
import { List, useListCursor } from "../components/list.js"
import { ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { withMigrationTarget } from "../migration-target.js"
import { useNotify } from "../notices.js"
import { useZoneScoped } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { MigrationNotesView } from "./custom-rules-migration-notes.js"
import { oldWidth, rowsOf, rowText, stepsText } from "./custom-rules-migration-rows.js"
import { useZoneQuery } from "./custom-rules-query.js"
import { CustomRulesReplayView, ReplayFilePrompt, replayLine } from "./custom-rules-replay.js"
import { ObjectsDirContext } from "./objects-data.js"

type Dialog =
  { readonly kind: "replay" } | { readonly kind: "apply" } | { readonly kind: "undo" } | { readonly kind: "notes" }

/** Title, header, notes 3, zone notes (or the journal), replay 2, working. */
const Chrome = 9

export function CustomRulesMigration({
  zone,
  active,
  height,
  onApplied
}: {
  readonly zone: ZoneRef
  readonly plan?: string | undefined
  readonly active: boolean
  readonly height: number
  readonly onApplied: () => void
}) {
  const journaled = withMigrationTarget(useContext(ObjectsDirContext))
  const { query, refresh } = useZoneQuery(zone.id, () =>
    journaled(Effect.all({ plan: planZoneMigration(zone, false), journal: zoneMigrationJournal(zone) }))
  )
  const preview = query._tag === "Success" ? query.value.plan : undefined
  const journal = query._tag === "Success" ? query.value.journal : undefined
  const unfinished = journal !== undefined && !journal.status.finished ? journal : undefined
  const rows = preview === undefined ? [] : rowsOf(preview)
  const listRows = Math.max(2, height - Chrome)
  const columns = usePaneSize().columns
  const cursor = useListCursor(rows.length, listRows, [zone.id])
  const current = rows[cursor.index]
  const [dialog, setDialog] = useZoneScoped<Dialog>(zone.id)
  const [replay, setReplay] = useZoneScoped<MigrationReplay>(zone.id)
  // The replay's whole list of differences, over the preview until esc.
  const [replayShown, setReplayShown] = useZoneScoped<true>(zone.id)
  const [progress, setProgress] = useState<StepProgress | undefined>(undefined)
  const notify = useNotify()
  const { run, busy } = useActions()
  const close = () => setDialog(undefined)
  // One short line: the footer's notice line does not wrap.
  const after = (what: string) => () => {
    setProgress(undefined)
    notify.done(what)
    refresh()
    onApplied()
  }
  const journaledRun = <A, E>(effect: Effect.Effect<A, E, Services>, ok: (a: A) => void, what: string) =>
    run(
      Effect.tapError(effect, () => Effect.sync(() => (setProgress(undefined), refresh()))),
      ok,
      what,
      // Every journaled run is a write: the apply, the rollback, the finish of an unfinished one.
      { where: zone.name, what: `firewall rules → custom rules: ${what}` }
    )

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (preview === undefined || busy !== undefined) return false
      switch (press.name) {
        case "enter":
          if (current === undefined) return false
          setDialog({ kind: "notes" })
          return true
        case "p":
          setDialog({ kind: "replay" })
          return true
        case "v":
          if (replay === undefined) return false
          setReplayShown(true)
          return true
        case "f":
          if (unfinished === undefined) return false
          journaledRun(
            journaled(resumeZoneMigration(unfinished.journal, unfinished.status, setProgress)),
            after(`Finished the migration of ${zone.name}`),
            "finish the migration"
          )
          return true
        case "u":
          if (journal === undefined) return false
          setDialog({ kind: "undo" })
          return true
        case "a":
          if (unfinished !== undefined) {
            notify.warn("an unfinished migration of this zone: f finishes it, u undoes it")
            return true
          }
          if (preview.refused !== undefined) {
            notify.warn(`the migration is refused: ${preview.refused}`)
            return true
          }
          if (preview.steps.length === 0) {
            notify.warn(
              preview.migration.rules.length === 0 && preview.migrated_before.length === 0
                ? "nothing to apply: no firewall rule of this zone becomes a custom rule"
                : "nothing to apply: every firewall rule with a custom rule is paused already"
            )
            return true
          }
          setDialog({ kind: "apply" })
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.tab,
      active: active && dialog === undefined && replayShown === undefined,
      // The keys act once the preview is read and nothing runs: listed only then, so a key pressed
      // on the word of the footer is never dropped.
      hints: [
        { keys: "↑↓", label: "rules" },
        ...(preview === undefined || busy !== undefined
          ? []
          : [
              { keys: "enter", label: "notes" },
              { keys: "p", label: "replay traffic" },
              ...(replay !== undefined ? [{ keys: "v", label: "replay's differences" }] : []),
              ...(unfinished !== undefined ? [{ keys: "f", label: "finish" }] : [{ keys: "a", label: "apply" }]),
              ...(journal !== undefined ? [{ keys: "u", label: "undo" }] : [])
            ])
      ]
    }
  )

  if (dialog !== undefined && active && preview !== undefined) {
    if (dialog.kind === "notes" && current !== undefined)
      return (
        <MigrationNotesView
          rule={current.rule}
          custom={current.custom}
          notes={current.notes}
          active={active}
          height={height}
          onClose={close}
        />
      )
    if (dialog.kind === "replay")
      return (
        <ReplayFilePrompt
          zone={zone.name}
          help="a traffic file: one JSON request per line"
          onFile={(file) => {
            close()
            run(
              replayMigration(preview, file, journal?.journal.plan.before),
              (report) => {
                setReplay(report)
                setReplayShown(true)
              },
              "replay the traffic"
            )
          }}
          onCancel={close}
        />
      )
    if (dialog.kind === "undo") {
      // Undoing a rollback that stopped half way is applying the journal's migration again.
      const stoppedRollback = unfinished?.status.operation === "rollback" ? unfinished : undefined
      return (
        <ConfirmDialog
          title={stoppedRollback ? `Undo the stopped rollback of ${zone.name}?` : `Undo the migration of ${zone.name}?`}
          lines={
            stoppedRollback
              ? [
                  `Applies the migration of the journal (${stoppedRollback.journal.base}.json) again:`,
                  "each of its steps, skipped when in effect."
                ]
              : [
                  `Restores what the migration found (journal ${journal?.journal.base ?? ""}.json):`,
                  `the custom rules entry point as it was (${journal?.journal.plan.before.customRules.length ?? 0} rules),`,
                  "and each firewall rule's paused flag (rules paused before stay paused)."
                ]
          }
          confirmLabel="undo"
          destructive
          // What the undo sends, each step skipped when in effect: the journal's migration again
          // (a stopped rollback's undo), or the inverses of its steps, last first.
          requests={
            stoppedRollback !== undefined
              ? stoppedRollback.journal.plan.migration.steps
              : journal !== undefined
                ? rollbackSteps(journal.journal)
                : undefined
          }
          height={height}
          onConfirm={() => {
            close()
            if (stoppedRollback !== undefined)
              journaledRun(
                journaled(
                  resumeZoneMigration(
                    stoppedRollback.journal,
                    { ...stoppedRollback.status, operation: "migrate" },
                    setProgress
                  )
                ),
                after(`Applied the migration of ${zone.name} again`),
                "undo the rollback"
              )
            else
              journaledRun(
                journaled(rollbackZoneMigration(zone, setProgress)),
                after(`Rolled back the migration of ${zone.name}`),
                "undo the migration"
              )
          }}
          onCancel={close}
        />
      )
    }
    return (
      <ConfirmDialog
        title={`Migrate the firewall rules of ${zone.name}?`}
        lines={stepsText(preview)}
        confirmLabel="apply"
        // The plan's own steps: the apply below sends exactly these (`firewall migrate --dry-run`'s).
        requests={preview.steps}
        height={height}
        onConfirm={() => {
          close()
          journaledRun(
            journaled(applyZoneMigration(preview, setProgress)),
            after(
              `Wrote ${preview.expected.customRules.length} custom rules on ${zone.name}; paused ${preview.steps.filter((x) => x.key.startsWith("pause:")).length} firewall rules`
            ),
            "apply the migration"
          )
        }}
        onCancel={close}
      />
    )
  }

  if (replay !== undefined && replayShown === true)
    return (
      <CustomRulesReplayView
        replay={replay}
        active={active}
        height={height}
        onClose={() => setReplayShown(undefined)}
      />
    )

  const zoneNotes = preview?.notes.filter((n) => n.rule === undefined) ?? []
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        Migrate {zone.name} to custom rules <Text dimColor>· old rule -&gt; new rule, in run order</Text>
      </Text>
      {query._tag === "Loading" ? <Loading what="the migration preview" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not read the firewall rules" error={query.error} /> : null}
      {preview !== undefined && rows.length === 0 ? (
        <Text>No firewall rules on this zone: nothing to migrate.</Text>
      ) : null}
      {rows.length > 0 ? (
        <List
          items={rows}
          index={cursor.index}
          height={listRows}
          header={`${"NEW".padEnd(4)}${"OLD".padEnd(oldWidth(columns))}    ${"CUSTOM RULE".padEnd(21)} DESCRIPTION`}
          row={(r) => rowText(r, columns)}
          rowKey={(r) => r.rule.id}
          focused={active}
        />
      ) : null}
      <Box height={3} flexShrink={0} overflow="hidden" flexDirection="column">
        {current !== undefined ? (
          <Text wrap="wrap">
            <Text dimColor>{current.custom?.expression ?? ""}</Text>
            {current.notes.length > 0
              ? `\n${current.notes.length} note(s), enter reads them: ${current.notes[0]!.severity}: ${current.notes[0]!.message}`
              : ""}
          </Text>
        ) : null}
      </Box>
      {unfinished !== undefined ? (
        <Text color="red" wrap="truncate-end">
          {unfinishedText(unfinished)}
        </Text>
      ) : preview?.refused !== undefined ? (
        <Text color="red" wrap="truncate-end">
          {`refused: ${preview.refused}`}
        </Text>
      ) : preview !== undefined && preview.before.customRules.length > 0 ? (
        // Rules migrated before are left out (their custom rules stay as they are): say so first.
        <Text color="yellow" wrap="truncate-end">
          {`a keeps the ${preview.before.customRules.length} custom rules`}
          {preview.migrated_before.length > 0
            ? `; leaves out ${preview.migrated_before.length} rules migrated before`
            : ""}
          {journal !== undefined ? "; u undoes the migration" : ""}
        </Text>
      ) : (
        <Text dimColor wrap="truncate-end">
          {zoneNotes.length > 0 ? `${zoneNotes.map((n) => n.code).join(", ")}: ${zoneNotes[0]!.message}` : " "}
        </Text>
      )}
      <Box height={2} flexShrink={0} overflow="hidden">
        <Text wrap="wrap">{replay !== undefined ? replayLine(replay) : " "}</Text>
      </Box>
      <MigrationProgress progress={progress} busy={busy} />
    </Box>
  )
}
