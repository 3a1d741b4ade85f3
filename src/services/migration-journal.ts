/**
 * The journal of a zone's migration: what the engine (./migration-engine.ts) found before its first
 * write, the plan it runs, and, for each step, "sent" before the request and its outcome after the
 * answer, so that a failure, a signal or a kill -9 leaves a record a re-run can finish and a
 * rollback can undo. Two files per zone and kind:
 *   `<base>.json`  the plan(s) and the "before" state, rewritten whole (temp file, fsync, rename);
 *   `<base>.log`   one JSON event a line, appended and fsynced before the engine goes on (a torn
 *                  last line, from a kill during the write, is ignored on reading).
 * A plan of 1,000 rules is a large file: rewriting it for each of 2,000 events would write
 * gigabytes, hence the log beside it. Local targets keep journals in the state directory; `--remote`
 * in a per-user state directory, keyed by account and zone. The service gets the place through the
 * `MigrationTarget` tag, which the CLI's and the TUI's composition give, without knowing the target.
 */
import * as Context from "effect/Context"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { MigrationStep } from "../domain/migration.js"
import { privateDir, privateFile } from "../private-files.js"
import { shellWord as quote } from "../domain/shell-word.js"

export interface MigrationTargetShape {
  /** The directory of the journals of this target. */
  readonly dir: string
  /** Remote journals are keyed by account too: two accounts may hold zones of the same id elsewhere. */
  readonly byAccount: boolean
  /** The target's flags as they are typed after a command (`--persist-to DIR`, `--remote`, or nothing). */
  readonly flags: string
}

export class MigrationTarget extends Context.Tag("edgectl/MigrationTarget")<MigrationTarget, MigrationTargetShape>() {}

/** Local target: `<state>/migrations`; `persistTo` as the user typed it, for the commands we print. */
export const localMigrationTarget = (stateDir: string, persistTo: string | undefined): MigrationTargetShape => ({
  dir: path.join(stateDir, "migrations"),
  byAccount: false,
  flags: persistTo !== undefined ? `--persist-to ${quote(persistTo)}` : ""
})

/** `--remote`: `$XDG_STATE_HOME/edgectl/migrations`, or `~/.local/state/edgectl/migrations`. */
export const remoteMigrationTarget = (env: Readonly<Record<string, string | undefined>>): MigrationTargetShape => ({
  dir: path.join(
    env.XDG_STATE_HOME !== undefined && path.isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : path.join(env.HOME ?? os.homedir(), ".local", "state"),
    "edgectl",
    "migrations"
  ),
  byAccount: true,
  flags: "--remote"
})

export const journalBase = (
  t: MigrationTargetShape,
  zoneId: string,
  accountId: string | undefined,
  kind: string
): string => path.join(t.dir, `${t.byAccount && accountId !== undefined ? `${accountId}-` : ""}${zoneId}-${kind}`)

export type Operation = "migrate" | "rollback"

/** What `<base>.json` holds. */
export interface JournalPlan<Step extends MigrationStep, State> {
  readonly version: 1
  readonly kind: string
  readonly zone: { readonly id: string; readonly name: string }
  readonly account?: { readonly id: string; readonly name: string } | undefined
  /** The state found before the migration's first write: what a rollback restores. */
  readonly before: State
  /**
   * The migration's steps; `from`: where the last run's steps start. A migration applied again
   * after one that finished (a rule resumed by hand, paused again) adds its steps after the first
   * run's and keeps its "before", so a rollback still restores the state before the first run.
   */
  readonly migration: { readonly steps: ReadonlyArray<Step>; readonly expected: State; readonly from?: number }
  readonly rollback?: { readonly steps: ReadonlyArray<Step>; readonly expected: State } | undefined
  /** What the migration was asked (e.g. `delete_old`), for the commands and the rollback's refusal. */
  readonly options: Readonly<Record<string, unknown>>
}

export type JournalEvent =
  | { readonly event: "begin"; readonly operation: Operation; readonly resume: boolean; readonly at: string }
  | { readonly event: "sent" | "done" | "skipped"; readonly key: string; readonly at: string }
  | {
      readonly event: "failed"
      readonly key: string
      readonly error: string
      /** The answer does not say for sure that nothing was saved (no answer, a 5xx): the step may be in effect. */
      readonly maybeApplied?: boolean
      readonly at: string
    }
  | { readonly event: "differs"; readonly differences: ReadonlyArray<string>; readonly at: string }
  | { readonly event: "end"; readonly operation: Operation; readonly at: string }

export interface Journal<Step extends MigrationStep, State> {
  readonly base: string
  readonly plan: JournalPlan<Step, State>
  readonly events: ReadonlyArray<JournalEvent>
}

/** Writes `file` whole so that a reader sees the old or the new content, never a part. */
const writeAtomic = (file: string, text: string) => {
  const temp = `${file}.${process.pid}.tmp`
  const fd = fs.openSync(temp, "w", 0o600)
  try {
    fs.writeSync(fd, text)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(temp, file)
  privateFile(file, false)
}

export const writeJournalPlan = <Step extends MigrationStep, State>(
  base: string,
  plan: JournalPlan<Step, State>,
  fresh: boolean
) => {
  privateDir(path.dirname(base), true)
  // A new migration starts a new log: the old one's events belong to the journal it replaces.
  if (fresh) fs.rmSync(`${base}.log`, { force: true })
  writeAtomic(`${base}.json`, JSON.stringify(plan))
}

/** Appends events to `<base>.log`, each on disk before `append` returns. */
export const openJournalLog = (base: string) => {
  const fd = fs.openSync(`${base}.log`, "a", 0o600)
  return {
    append: (e: JournalEvent) => {
      fs.writeSync(fd, `${JSON.stringify(e)}\n`)
      fs.fsyncSync(fd)
    },
    close: () => fs.closeSync(fd)
  }
}

/** The journal at `base`, or undefined when there is none. */
export const readJournal = <Step extends MigrationStep, State>(base: string): Journal<Step, State> | undefined => {
  let text: string
  try {
    text = fs.readFileSync(`${base}.json`, "utf8")
  } catch {
    return undefined
  }
  const plan = JSON.parse(text) as JournalPlan<Step, State>
  let log = ""
  try {
    log = fs.readFileSync(`${base}.log`, "utf8")
  } catch {
    // A plan written, killed before the first event: nothing was sent.
  }
  const events: Array<JournalEvent> = []
  for (const line of log.split("\n")) {
    if (line === "") continue
    try {
      events.push(JSON.parse(line) as JournalEvent)
    } catch {
      // The torn last line of a killed write.
    }
  }
  return { base, plan, events }
}

/** Where a journal stands: its last operation, whether that ended, and what it wrote. */
export interface JournalStatus {
  readonly operation: Operation
  readonly finished: boolean
  /** Keys of the steps of the last operation that were answered (done), in order. */
  readonly written: ReadonlyArray<string>
  /** The step sent with no answer yet (a signal or a kill during the request): it may have been applied. */
  readonly unanswered?: string | undefined
  readonly failed?: { readonly key: string; readonly error: string; readonly maybeApplied?: boolean } | undefined
  readonly differences?: ReadonlyArray<string> | undefined
}

export const journalStatus = (j: Journal<MigrationStep, unknown>): JournalStatus => {
  let operation: Operation = "migrate"
  let finished = false
  let written: Array<string> = []
  let sent: string | undefined
  let failed: JournalStatus["failed"]
  let differences: ReadonlyArray<string> | undefined
  for (const e of j.events) {
    switch (e.event) {
      case "begin":
        if (e.operation !== operation) written = []
        operation = e.operation
        finished = false
        failed = undefined
        differences = undefined
        sent = undefined
        break
      case "sent":
        sent = e.key
        break
      case "done":
        if (!written.includes(e.key)) written.push(e.key)
        sent = undefined
        break
      case "failed":
        failed = { key: e.key, error: e.error, ...(e.maybeApplied === true ? { maybeApplied: true } : {}) }
        sent = undefined
        break
      case "differs":
        differences = e.differences
        break
      case "end":
        finished = true
        break
      default:
        break
    }
  }
  return { operation, finished, written, unanswered: sent, failed, differences }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: alive, someone else's.
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Takes `<base>.lock` for this process: one migration of a zone at a time on this machine (a CLI
 * and a TUI at once would interleave their steps and their journal). A lock whose process is gone
 * (a kill -9) is taken over. Answers the pid holding it when it is taken, else undefined.
 */
export const lockJournal = (base: string): number | undefined => {
  privateDir(path.dirname(base), true)
  const file = `${base}.lock`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx", mode: 0o600 })
      return undefined
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
      const holder = Number(fs.readFileSync(file, "utf8"))
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) return holder
      fs.rmSync(file, { force: true })
    }
  }
  return undefined
}

export const unlockJournal = (base: string) => fs.rmSync(`${base}.lock`, { force: true })
