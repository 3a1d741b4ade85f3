/**
 * A write's request as text: the method and the path from the API base, then the JSON body. The
 * CLI's `--dry-run` prints it and the TUI's `v` (before a write's confirmation) shows it, from this one
 * function, so what a user reads before a write is what either client sends.
 */

/** A request a write will send; a migration's step (src/domain/migration.ts) is one. */
export interface PlannedRequest {
  readonly method: "GET" | "PUT" | "POST" | "PATCH" | "DELETE"
  /** From the API base (`/zones/{id}/…`), with its query string. */
  readonly path: string
  readonly body?: unknown
}

export const requestLines = (r: PlannedRequest): Array<string> => [
  `${r.method} ${r.path}`,
  ...(r.body === undefined ? [] : JSON.stringify(r.body, null, 2).split("\n"))
]

/** Several requests, a blank line between them. */
export const requestsText = (rs: ReadonlyArray<PlannedRequest>): Array<string> =>
  rs.flatMap((r, i) => [...(i === 0 ? [] : [""]), ...requestLines(r)])
