/**
 * The migration's replay answer whole (`p` on the migration preview, then `v` to see it again): the
 * file and what was compared, the counts, the lines not read (the CLI's words), then every request
 * the zone before and after decide differently, one row each (its line in the traffic file, what
 * differs, the request), scrolled with the list keys; under the list, the selected request's two
 * decisions with the rules responsible. No difference is said in so many words. It only draws the
 * replay's report (src/services/migration-replay-service.ts).
 */
import { Box, Text } from "ink"
import {
  decidedText,
  replayCounts,
  verdictText,
  type ReplayDisagreement
} from "../../src/firewall/custom-rules-replay.js"
import { notReadLines } from "../../src/rules/traffic-line.js"
import { replayHeading, type MigrationReplay } from "../../src/services/migration-replay-service.js"
import { List, useListCursor } from "../components/list.js"
import { KeyLayer, useKeys } from "../keys.js"

const rowText = (d: ReplayDisagreement) =>
  `${String(d.line).padEnd(6)}${d.differences.join(",").padEnd(15)} ${d.id !== undefined ? `${d.id}: ` : ""}${d.summary}`

const baseName = (file: string) => file.split("/").pop() ?? file

/** The replay in one line under the migration preview: the file, what differs (the first difference named), the lines not read. */
export const replayLine = (r: MigrationReplay) => {
  const differ = r.requests - r.agreed
  const first = r.disagreements[0]
  return (
    `replay of ${baseName(r.file)}: ${r.requests} ${r.requests === 1 ? "request" : "requests"}, ${differ === 0 ? "no difference" : `${differ} decided differently`}` +
    (first !== undefined
      ? ` (line ${first.line}: before ${verdictText(first.before)}; after ${verdictText(first.after)})`
      : "") +
    (r.problems.length > 0 ? `; ${notReadLines(r.problems, 1).join(": ")}` : "")
  )
}

/** Title, counts (2 on a narrow pane), decided, header, detail 6; then a line for each line of the lines not read. */
const Chrome = 11

export function CustomRulesReplayView({
  replay: report,
  active,
  height,
  onClose
}: {
  readonly replay: MigrationReplay
  readonly active: boolean
  readonly height: number
  readonly onClose: () => void
}) {
  const rows = report.disagreements
  const notRead = notReadLines(report.problems)
  const listRows = Math.max(2, height - Chrome - notRead.length)
  const cursor = useListCursor(rows.length, listRows, [report])
  const current = rows[cursor.index]
  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (press.name !== "escape" && press.name !== "backspace") return false
      onClose()
      return true
    },
    {
      priority: KeyLayer.tab,
      active,
      hints: [
        ...(rows.length > 0 ? [{ keys: "↑↓", label: "requests", keep: 1 }] : []),
        { keys: "esc", label: "preview", keep: 1 }
      ]
    }
  )
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        {replayHeading(report, baseName(report.file))}
      </Text>
      <Text color={report.agreed === report.requests ? "green" : "yellow"} wrap="wrap">
        {report.agreed === report.requests ? `✓ No difference: ${replayCounts(report)}` : replayCounts(report)}
      </Text>
      <Text dimColor wrap="truncate-end">{`decided: ${decidedText(report)}`}</Text>
      {notRead.map((l, i) => (
        <Text key={i} color="yellow" wrap="truncate-end">
          {l}
        </Text>
      ))}
      {current !== undefined ? (
        <>
          <List
            items={rows}
            index={cursor.index}
            height={listRows}
            header={`${"LINE".padEnd(6)}${"DIFFERS IN".padEnd(15)} REQUEST`}
            row={rowText}
            rowKey={(d) => String(d.line)}
            focused={active}
          />
          {/* Each line whole (not shrunk by the layout); what does not fit the box is cut at its bottom. */}
          <Box flexDirection="column" height={6} flexShrink={0} overflow="hidden">
            <Box flexShrink={0}>
              <Text dimColor wrap="wrap">
                {`${cursor.index + 1}/${rows.length} · line ${current.line}${current.id !== undefined ? ` (${current.id})` : ""}: ${current.summary}`}
              </Text>
            </Box>
            <Box flexShrink={0}>
              <Text wrap="wrap">
                <Text bold>before </Text>
                {verdictText(current.before, true)}
              </Text>
            </Box>
            <Box flexShrink={0}>
              <Text wrap="wrap">
                <Text bold>after </Text>
                {verdictText(current.after, true)}
              </Text>
            </Box>
          </Box>
        </>
      ) : null}
    </Box>
  )
}
