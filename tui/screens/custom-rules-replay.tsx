/**
 * The migration's replay answer whole (`p` on the migration preview, then `v` to see it again):
 * every request the old firewall rules and the new custom rules decide differently, one row each
 * (its line in the traffic file, what differs, the request), scrolled with the list keys; under the
 * list, the selected request's two decisions with the rules responsible. No difference is said in
 * so many words. It only draws the replay's report (src/firewall/custom-rules-replay.ts).
 */
import { Box, Text } from "ink"
import type {
  CustomRulesReplayReport,
  ReplayDisagreement,
  ReplayRule,
  ReplayVerdict
} from "../../src/firewall/custom-rules-replay.js"
import { List, useListCursor } from "../components/list.js"
import { KeyLayer, useKeys } from "../keys.js"

const ruleText = (r: ReplayRule) => (r.description ? `"${r.description}" (${r.id})` : r.id)

/** A decision as one sentence: the action and its rule, then what was skipped and logged, and by which rules. */
export const verdictText = (v: ReplayVerdict): string =>
  [
    v.action === null ? "nothing decides" : `${v.action}${v.rule !== null ? ` by ${ruleText(v.rule)}` : ""}`,
    ...(v.skipped.length > 0
      ? [
          `skips ${v.skipped.join(", ")}${v.skippedBy.length > 0 ? ` (by ${v.skippedBy.map(ruleText).join(", ")})` : ""}`
        ]
      : []),
    ...(v.logged.length > 0 ? [`logged by ${v.logged.map(ruleText).join(", ")}`] : [])
  ].join("; ")

const rowText = (d: ReplayDisagreement) =>
  `${String(d.line).padEnd(6)}${d.differences.join(",").padEnd(15)} ${d.id !== undefined ? `${d.id}: ` : ""}${d.summary}`

/** Title, counts, problems, header, detail 5. */
const Chrome = 9

export function CustomRulesReplayView({
  file,
  report,
  active,
  height,
  onClose
}: {
  readonly file: string
  readonly report: CustomRulesReplayReport
  readonly active: boolean
  readonly height: number
  readonly onClose: () => void
}) {
  const rows = report.disagreements
  const listRows = Math.max(2, height - Chrome)
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
  const c = report.counts
  const name = file.split("/").pop()
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        Replay of {name} <Text dimColor>· old firewall rules vs new custom rules</Text>
      </Text>
      {rows.length === 0 ? (
        <Text color="green" wrap="wrap">
          ✓ No difference: the firewall rules and the custom rules decide all {report.requests} requests alike.
        </Text>
      ) : (
        <Text wrap="wrap">
          {`${report.requests} requests: ${report.agreed} alike, `}
          <Text color="yellow">{`${rows.length} decided differently`}</Text>
          {` (action ${c.action}, skipped ${c.skipped}, logged ${c.logged})`}
        </Text>
      )}
      {report.problems.length > 0 ? (
        <Text color="yellow" wrap="truncate-end">
          {`${report.problems.length} lines not read (line ${report.problems[0]!.line}: ${report.problems[0]!.message})`}
        </Text>
      ) : null}
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
          <Box flexDirection="column" height={5} flexShrink={0} overflow="hidden">
            <Text dimColor wrap="wrap">
              {`${cursor.index + 1}/${rows.length} · line ${current.line}${current.id !== undefined ? ` (${current.id})` : ""}: ${current.summary}`}
            </Text>
            <Text wrap="wrap">
              <Text bold>old </Text>
              {verdictText(current.firewall)}
            </Text>
            <Text wrap="wrap">
              <Text bold>new </Text>
              {verdictText(current.custom)}
            </Text>
          </Box>
        </>
      ) : null}
    </Box>
  )
}
