/**
 * The Firewall tab's legacy-product migrations (`l` Zone Lockdown and UA rules, `R` rate limits),
 * on the one migration engine through the services the CLI uses (./legacy-migrations.ts): the
 * preview is the plan `--dry-run` prints, computed once from the live state (each old rule beside
 * what it becomes, the plan's notes, a refusal when the plan does not fit); `a` applies after a
 * confirmation whose `v` shows the exact requests, with progress; a journal left unfinished (a
 * failure, a signal) is shown with `f` to finish it and `u` to undo it; `u` also undoes a finished
 * migration. `n` reads the notes whole. This screen owns no step.
 */
import { Box, Text } from "ink"
import { useContext, useState } from "react"
import * as Effect from "effect/Effect"
import type { ZoneRef } from "../../src/services/custom-rules-migration-service.js"
import type { StepProgress } from "../../src/services/migration-engine.js"
import { useActions } from "../actions.js"
import type { MigrationReplay } from "../../src/services/migration-replay-service.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { MigrationProgress, unfinishedText } from "../components/migration-status.js"
import { List, useListCursor } from "../components/list.js"
import { ScrollText } from "../components/scroll-text.js"
import { ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { withMigrationTarget } from "../migration-target.js"
import { useNotify } from "../notices.js"
import type { Services } from "../runtime.js"
import { useZoneScoped } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { useZoneQuery } from "./custom-rules-query.js"
import { CustomRulesReplayView, ReplayFilePrompt, replayLine } from "./custom-rules-replay.js"
import type { LegacyMigration } from "./legacy-migrations.js"
import { ObjectsDirContext } from "./objects-data.js"

type Dialog = "apply" | "undo" | "notes" | "replay"

/** Title, header, the current row's two lines, the status line, progress. */
const Chrome = 7
/** After a replay: its line under the status line (two lines, as under the firewall migration's preview). */
const ReplayChrome = 2

const cut = (s: string, n: number) => ([...s].length <= n ? s.padEnd(n) : `${[...s].slice(0, n - 1).join("")}…`)

export function LegacyMigrationView({
  migration: m,
  zone,
  active,
  height
}: {
  readonly migration: LegacyMigration
  readonly zone: ZoneRef
  readonly active: boolean
  readonly height: number
}) {
  const journaled = withMigrationTarget(useContext(ObjectsDirContext))
  const { query, refresh } = useZoneQuery(zone.id, () =>
    journaled(Effect.all({ plan: m.plan(zone), journal: m.journal(zone) }))
  )
  const preview = query._tag === "Success" ? query.value.plan : undefined
  const journal = query._tag === "Success" ? query.value.journal : undefined
  const unfinished = journal !== undefined && !journal.status.finished ? journal : undefined
  const rows = preview === undefined ? [] : m.rows(preview)
  const [replay, setReplay] = useZoneScoped<MigrationReplay>(`${zone.id}:${m.what}`)
  const listRows = Math.max(2, height - Chrome - (replay !== undefined ? ReplayChrome : 0))
  const columns = usePaneSize().columns
  const cursor = useListCursor(rows.length, listRows, [zone.id, m.title])
  const current = rows[cursor.index]
  const [dialog, setDialog] = useZoneScoped<Dialog>(`${zone.id}:${m.what}`)
  // The replay's whole list of differences, over the preview until esc.
  const [replayShown, setReplayShown] = useZoneScoped<true>(`${zone.id}:${m.what}`)
  const [progress, setProgress] = useState<StepProgress | undefined>(undefined)
  const notify = useNotify()
  const { run, busy } = useActions()
  const close = () => setDialog(undefined)
  const after = (what: string) => () => {
    setProgress(undefined)
    notify.done(what)
    refresh()
  }
  const journaledRun = <A, E>(effect: Effect.Effect<A, E, Services>, ok: () => void, what: string) =>
    run(
      Effect.tapError(effect, () => Effect.sync(() => (setProgress(undefined), refresh()))),
      ok,
      what,
      { where: zone.name, what: `${m.what}: ${what}` }
    )
  const notes = preview?.notes ?? []
  const noteLines = notes.map((n) => `${n.severity}: ${n.message}`)

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (preview === undefined || busy !== undefined) return false
      switch (press.name) {
        case "n":
          if (notes.length === 0) return false
          setDialog("notes")
          return true
        case "p":
          setDialog("replay")
          return true
        case "v":
          if (replay === undefined) return false
          setReplayShown(true)
          return true
        case "f":
          if (unfinished === undefined) return false
          journaledRun(
            journaled(m.resume(unfinished.journal, { ...unfinished.status, operation: "migrate" }, setProgress)),
            after(`Finished the migration of ${zone.name}`),
            "finish the migration"
          )
          return true
        case "u":
          if (journal === undefined) return false
          setDialog("undo")
          return true
        case "a":
          if (unfinished !== undefined) notify.warn("an unfinished migration of this zone: f finishes it, u undoes it")
          else if (preview.refused !== undefined) notify.warn(`the migration is refused: ${preview.refused}`)
          else if (m.sources(preview) === 0) notify.warn(`nothing to apply: ${m.nothing}`)
          else if (preview.steps.length === 0) notify.warn("nothing to apply: the migration is in effect already")
          else setDialog("apply")
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.tab,
      active: active && dialog === undefined && replayShown === undefined,
      hints: [
        { keys: "↑↓", label: "rules" },
        ...(preview === undefined || busy !== undefined
          ? []
          : [
              ...(notes.length > 0 ? [{ keys: "n", label: "notes" }] : []),
              { keys: "p", label: "replay traffic" },
              ...(replay !== undefined ? [{ keys: "v", label: "replay's differences" }] : []),
              ...(unfinished !== undefined ? [{ keys: "f", label: "finish" }] : [{ keys: "a", label: "apply" }]),
              ...(journal !== undefined ? [{ keys: "u", label: "undo" }] : [])
            ])
      ]
    }
  )

  if (dialog === "apply" && active && preview !== undefined) {
    const c = m.confirm(preview)
    return (
      <ConfirmDialog
        title={c.title}
        lines={c.lines}
        confirmLabel="apply"
        requests={preview.steps}
        onConfirm={() => {
          close()
          journaledRun(journaled(m.apply(preview, setProgress)), after(m.applied(preview)), "apply the migration")
        }}
        onCancel={close}
      />
    )
  }
  if (dialog === "undo" && active && journal !== undefined) {
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
            : [`From the journal ${journal.journal.base}.json:`, ...m.undo]
        }
        confirmLabel="undo"
        destructive
        onConfirm={() => {
          close()
          if (stoppedRollback !== undefined)
            journaledRun(
              journaled(
                m.resume(stoppedRollback.journal, { ...stoppedRollback.status, operation: "migrate" }, setProgress)
              ),
              after(`Applied the migration of ${zone.name} again`),
              "undo the rollback"
            )
          else
            journaledRun(
              journaled(m.rollback(zone, setProgress)),
              after(`Rolled back the migration of ${zone.name}`),
              "undo the migration"
            )
        }}
        onCancel={close}
      />
    )
  }
  if (dialog === "replay" && active && preview !== undefined)
    return (
      <ReplayFilePrompt
        zone={zone.name}
        help="a traffic file: one JSON request per line (an `at` time on each for rate limits)"
        onFile={(file) => {
          close()
          run(
            m.replay(zone, preview, file, journal?.journal.plan.before),
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
  if (replay !== undefined && replayShown === true && active)
    return (
      <CustomRulesReplayView
        replay={replay}
        active={active}
        height={height}
        onClose={() => setReplayShown(undefined)}
      />
    )
  if (dialog === "notes" && active)
    return (
      <ScrollText
        bordered
        title={`Notes of the migration of ${zone.name} (${notes.length})`}
        paragraphs={noteLines}
        height={height}
        active={active}
        closeKeys={["n", "q"]}
        onClose={close}
      />
    )

  // The whole id where there is room; its start (enough to tell rules apart) in 80 columns.
  const idWidth = columns >= 110 ? Math.min(34, Math.max(8, ...rows.map((r) => r.source.length)) + 2) : 10
  const wasWidth = Math.max(12, Math.floor((columns - idWidth - 4) * 0.55))
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        {m.title} <Text dimColor>{`· ${zone.name}`}</Text>
      </Text>
      {query._tag === "Loading" ? <Loading what="the migration preview" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not read the migration's state" error={query.error} /> : null}
      {preview !== undefined && rows.length === 0 && m.sources(preview) === 0 ? <Text>{m.nothing}</Text> : null}
      {rows.length > 0 ? (
        <List
          items={rows}
          index={cursor.index}
          height={listRows}
          header={`${"RULE".padEnd(idWidth)}${"WAS".padEnd(wasWidth)}  BECOMES`}
          row={(r) => `${cut(r.source, idWidth - 1)} ${cut(r.was, wasWidth)}  ${r.becomes}`}
          rowKey={(r) => r.source}
          focused={active}
        />
      ) : null}
      <Box height={2} flexShrink={0} overflow="hidden">
        <Text dimColor wrap="wrap">
          {current !== undefined ? `${current.source}: ${current.was} → ${current.becomes}` : " "}
        </Text>
      </Box>
      {unfinished !== undefined ? (
        <Text color="red" wrap="truncate-end">
          {unfinishedText(unfinished)}
        </Text>
      ) : preview?.refused !== undefined ? (
        <Text color="red" wrap="truncate-end">{`refused: ${preview.refused}`}</Text>
      ) : preview !== undefined && preview.steps.length === 0 && m.sources(preview) > 0 ? (
        <Text color="green" wrap="truncate-end">
          {`in effect: every rule is migrated${journal !== undefined ? " · u undoes the migration" : ""}`}
        </Text>
      ) : (
        <Text
          {...(notes.some((n) => n.severity !== "info") ? { color: "yellow" } : {})}
          dimColor={notes.length === 0}
          wrap="truncate-end"
        >
          {notes.length > 0
            ? `${notes.length} note(s), n reads them: ${noteLines[0]}`
            : journal !== undefined
              ? "u undoes the migration"
              : " "}
        </Text>
      )}
      {replay !== undefined ? (
        <Box height={ReplayChrome} flexShrink={0} overflow="hidden">
          <Text wrap="wrap">{replayLine(replay)}</Text>
        </Box>
      ) : null}
      <MigrationProgress progress={progress} busy={busy} />
    </Box>
  )
}
