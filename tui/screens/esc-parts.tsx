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

export function TestLine({ tested, canTest }: { tested: EscTestResult | undefined; canTest: boolean }) {
  if (tested === undefined)
    return (
      <Text dimColor>
        {canTest ? "test: c tests a request with a Cookie header" : "test: open a zone to test a request"}
      </Text>
    )
  const d = tested.decision
  const cookie = tested.cookie === null ? "no cookies" : `Cookie ${tested.cookie}`
  return (
    <Text wrap="truncate-end">
      <Text dimColor>test ({cookie}): </Text>
      {d.escRuns ? <Text>ESC runs</Text> : <Text color="yellow">ESC is OFF</Text>}
      <Text dimColor>
        {" "}
        · {d.decidedBy === null ? d.reason.replace(/^ESC runs: /, "") : `decided by ${DeciderName[d.decidedBy]}`}
      </Text>
    </Text>
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
