/** Parts of the ESC panel: the removal line, the last request test, the replacement table. */
import { Box, Text } from "ink"
import type { RemovalStatus } from "../../src/esc/removal.js"
import type { Replacement } from "../../src/esc/replacements.js"
import { DeciderName } from "../../src/esc/view.js"
import type { EscTestResult } from "../../src/services/esc-service.js"
import { cells, flexWidth } from "../components/columns.js"
import { wrapText } from "../components/wrap.js"
import { bullets } from "../components/text-prompt.js"

/** A Cookie header as it is typed, each disable_esc value shown as bullets. */
export const maskTyped = (header: string) =>
  header.replace(
    /(^|[;:])(\s*disable_esc\s*=\s*)([^;]*)/g,
    (_, sep: string, name: string, value: string) => `${sep}${name}${bullets(value)}`
  )

export interface Removal {
  readonly status: RemovalStatus
  readonly clock: string
}

const removalText = (removal: Removal | undefined): string => {
  if (removal === undefined) return "ESC configuration is removed on 2025-01-01 (reading the platform's clock…)"
  const r = removal.status
  const when = `${r.relative} (${r.days} days, ${removal.clock} ${r.now.slice(0, 10)})`
  return r.removed
    ? `ESC REMOVED ${r.date}, ${when}: no ESC runs any more; settings can still be managed and tested.`
    : `ESC still honoured: removed on ${r.date}, ${when}. Move each use case to its replacement.`
}

/** The removal banner's lines at `width`: it is drawn whole, so the panel gives it what it needs. */
export const removalLines = (removal: Removal | undefined, width: number) => wrapText(removalText(removal), width)

export function RemovalLine({ lines, removal }: { lines: ReadonlyArray<string>; removal: Removal | undefined }) {
  const color = removal === undefined ? undefined : removal.status.removed ? "yellow" : "green"
  return (
    <Box flexDirection="column" flexShrink={0}>
      {lines.map((line, i) => (
        <Text key={i} {...(color === undefined ? { dimColor: true } : { color })} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  )
}

/**
 * The last request test as one sentence. Once ESC is removed nothing runs: the verdict is what the
 * settings would have done, as the CLI's `esc test` says it (issue 29: it said "ESC runs" under the
 * banner's "no ESC runs any more").
 */
const testText = (tested: EscTestResult | undefined, canTest: boolean): string => {
  if (tested === undefined)
    return canTest ? "test: c tests a request with a Cookie header" : "test: open a zone to test a request"
  const d = tested.decision
  const gone = tested.removal.removed
  const cookie = tested.cookie === null ? "no cookies" : `Cookie ${tested.cookie}`
  const verdict = d.escRuns
    ? gone
      ? "ESC would run (if it still existed)"
      : "ESC runs"
    : gone
      ? "ESC would be OFF (if it still existed)"
      : "ESC is OFF"
  const why = d.decidedBy === null ? d.reason.replace(/^ESC runs: /, "") : `decided by ${DeciderName[d.decidedBy]}`
  return `test (${cookie}): ${verdict} · ${why}`
}

/** The test's sentence at `width`, wrapped (it was cut at 80 columns): the panel makes room for it. */
export const testLines = (tested: EscTestResult | undefined, canTest: boolean, width: number) =>
  wrapText(testText(tested, canTest), width)

export function TestLine({ lines, tested }: { lines: ReadonlyArray<string>; tested: EscTestResult | undefined }) {
  const off = tested !== undefined && !tested.decision.escRuns
  return (
    <Box flexDirection="column" flexShrink={0}>
      {lines.map((line, i) => (
        <Text
          key={i}
          wrap="truncate-end"
          {...(tested === undefined ? { dimColor: true } : off ? { color: "yellow" } : {})}
        >
          {line}
        </Text>
      ))}
    </Box>
  )
}

export const replacementTable = (columns: number) => {
  const product = flexWidth(columns, [28, 31])
  return {
    header: cells([
      ["USE CASE", 28],
      ["REPLACEMENT", product],
      ["PHASE", 31]
    ]),
    row: (r: Replacement) =>
      cells([
        [r.useCase, 28],
        [r.product, product],
        [r.phase ?? "(a Worker)", 31]
      ])
  }
}
