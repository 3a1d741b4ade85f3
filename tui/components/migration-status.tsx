/**
 * The lines every migration view of the TUI ends with: a journal a failure or a signal left
 * unfinished (what was written, and the keys that finish or undo it), and the apply's progress.
 */
import { Text } from "ink"
import type { MigrationStep } from "../../src/domain/migration.js"
import type { StepProgress } from "../../src/services/migration-engine.js"
import type { Journal, JournalStatus } from "../../src/services/migration-journal.js"

/** An unfinished journal's line: its operation, the steps written of how many, f and u. */
export const unfinishedText = (u: {
  readonly journal: Journal<MigrationStep, unknown>
  readonly status: JournalStatus
}): string => {
  const steps =
    u.status.operation === "rollback" ? (u.journal.plan.rollback?.steps ?? []) : u.journal.plan.migration.steps
  return `unfinished ${u.status.operation}: ${u.status.written.length} of ${steps.length} steps written${u.status.unanswered !== undefined ? ", 1 sent with no answer" : ""} · f finishes it, u undoes it`
}

/** The step the apply is at, `… working` while something else runs, or a blank line. */
export function MigrationProgress({
  progress,
  busy
}: {
  progress: StepProgress | undefined
  busy: string | undefined
}) {
  if (progress !== undefined)
    return (
      <Text
        color="cyan"
        wrap="truncate-end"
      >{`… [${progress.index + 1}/${progress.total}] ${progress.step.description}`}</Text>
    )
  return busy !== undefined ? <Text color="cyan">… working</Text> : <Text> </Text>
}
