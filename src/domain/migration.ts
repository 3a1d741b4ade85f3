/**
 * A migration as data (docs/architecture.md, "Migrations: one engine"): the ordered requests a
 * migration sends, the state it found and the state it will leave, and its notes. A pure function
 * of the live state computes it once; the preview and `--dry-run` print it, the engine
 * (src/services/migration-engine.ts) sends exactly it and journals each step. Generic over what a
 * state holds and how a step is checked, so that every migration (firewall rules -> custom rules,
 * previous WAF -> managed rules, rate limiting, lockdown) is one of these.
 */

/** One request of a plan. `check` says what the live state shows once the step is in effect. */
export interface MigrationStep<Check = unknown> {
  /** Unique within the plan: the journal names the step by it. */
  readonly key: string
  readonly method: "PUT" | "POST" | "PATCH" | "DELETE"
  /** From the API base (`/zones/{id}/…`), with its query string. */
  readonly path: string
  readonly body?: unknown
  /** What the step does, in the platform's words (the journal and the errors say it). */
  readonly description: string
  readonly check: Check
  /**
   * The step that undoes this one (rollback sends the inverses in reverse order), or why it cannot
   * be undone (a deleted rule cannot come back with its id).
   */
  readonly inverse: MigrationStep<Check> | { readonly irreversible: string }
}

/** A note of a plan: what maps how, what has no equivalent, what a limit leaves out. */
export interface PlanNote {
  readonly severity: "unmapped" | "changed" | "info"
  readonly code: string
  readonly rule?: string | undefined
  readonly message: string
}

export interface MigrationPlan<Step extends MigrationStep, State> {
  readonly kind: string
  readonly zone: { readonly id: string; readonly name: string }
  readonly account?: { readonly id: string; readonly name: string } | undefined
  readonly steps: ReadonlyArray<Step>
  /** The live state the plan was computed from. */
  readonly before: State
  /** The state after the last step; the engine reads the platform back and compares. */
  readonly expected: State
  readonly notes: ReadonlyArray<PlanNote>
  /** Why nothing can be applied (the platform would refuse it): the apply sends nothing. */
  readonly refused?: string | undefined
}

export const isIrreversible = (i: MigrationStep["inverse"]): i is { readonly irreversible: string } =>
  "irreversible" in i
