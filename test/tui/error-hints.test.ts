/**
 * The TUI's hint for each platform refusal that "press r to retry" cannot help (issue 29 item 7):
 * 10110 (an expression), 10305 (URI overrides block the migration) and the migration's others.
 * The platform's answers these come from are reached in the pty tests of their screens; here each
 * error the client decodes gets its hint.
 */
import { describe, expect, it } from "vitest"
import {
  ApiError,
  Incompatible,
  InvalidExpression,
  MigrationFinished,
  QuotaExceeded,
  TooManyRules,
  UriOverridePresent
} from "../../src/domain/errors.js"
import { fromUnknown } from "../../tui/errors.js"

describe("hints that do not say press r", () => {
  it.each([
    [new InvalidExpression({ message: "bad" }), "fix the expression where the message says"],
    [new UriOverridePresent({ message: "overrides" }), "the WAF wizard's Check step lists them (x deletes one)"],
    [new TooManyRules({ message: "too many" }), "the platform's support migrates such zones"],
    [new MigrationFinished({ message: "done" }), "nothing left to migrate"],
    [new Incompatible({ message: "no" }), "the message says why"],
    [new QuotaExceeded({ message: "quota" }), "delete rules or filters"],
    // The local platform's store conditions (src/domain/store-conditions.ts), as it answers them.
    [
      new ApiError({
        status: 507,
        message: "the disk that holds the state directory is full (SQLITE_FULL): nothing was written"
      }),
      "free space on the disk that holds the state directory"
    ],
    [
      new ApiError({
        status: 503,
        message: "another process held the state directory's lock for over 5 s (SQLITE_BUSY): nothing was written"
      }),
      "is writing the same state directory: try again when it is done"
    ]
  ])("%s", (error, hint) => {
    const shown = fromUnknown(error)
    expect(shown.hint).toContain(hint)
    expect(shown.hint).not.toContain("press r")
  })
})
