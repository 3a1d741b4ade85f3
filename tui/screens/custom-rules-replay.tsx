/**
 * The migration's replay answer whole (`p` on the migration preview, then `v` to see it again): the
 * file and what was compared, the counts, the lines not read (the CLI's words), then every request
 * the zone before and after decide differently, one row each (its line in the traffic file, what
 * differs, the request), scrolled with the list keys; under the list, the selected request's two
 * decisions with the rules responsible. No difference is said in so many words. A replay whose plan
 * has notes that explain a difference by design (the legacy migrations', the firewall migration's
 * placement of the migrated Zone Lockdown rules) says how many they explain on the counts line and
 * names the note of each difference, in the CLI's words; `n` reads the selected one's notes whole
 * (ScrollText: a note is data of the plan, as long as its rule ids and descriptions make it).
 * The firewall rules migration's view and the legacy migrations' view both draw it; it only draws
 * the replay's report (src/services/migration-replay-service.ts, legacy-replay-service.ts).
 */
import { Box, Text } from "ink"
import { useState } from "react"
import {
  decidedText,
  explainedByText,
  explainedCount,
  explainedText,
  replayCounts,
  verdictText,
  type ReplayDisagreement
} from "../../src/firewall/custom-rules-replay.js"
import { notReadLines } from "../../src/rules/traffic-line.js"
import { replayHeading, type MigrationReplay } from "../../src/services/migration-replay-service.js"
import { List, useListCursor } from "../components/list.js"
import { ScrollText } from "../components/scroll-text.js"
import { TextPrompt } from "../components/text-prompt.js"
import { KeyLayer, useKeys } from "../keys.js"
import { usePaneSize } from "../terminal.js"

/** The EXPLAINED BY column's width where there is room for it (a pane of 90 columns or more: a 120-column terminal), else 0. */
const explainedWidth = (rows: ReadonlyArray<ReplayDisagreement>, columns: number) =>
  columns < 90 ? 0 : Math.min(30, Math.max(12, ...rows.map((d) => explainedByText(d).length)) + 1)

const rowText = (d: ReplayDisagreement, explained: number) =>
  `${String(d.line).padEnd(6)}${d.differences.join(",").padEnd(15)} ${explained > 0 ? explainedByText(d).padEnd(explained) : ""}${d.id !== undefined ? `${d.id}: ` : ""}${d.summary}`

const baseName = (file: string) => file.split("/").pop() ?? file

/**
 * The replay in one line under the migration preview: the file, what differs and how much of it the
 * plan's notes explain (counted as the replay's counts line counts), the first difference named, the
 * lines not read.
 */
export const replayLine = (r: MigrationReplay) => {
  const differ = r.requests - r.agreed
  const first = r.disagreements[0]
  const explained = explainedCount(r)
  return (
    `replay of ${baseName(r.file)}: ${r.requests} ${r.requests === 1 ? "request" : "requests"}, ${differ === 0 ? "no difference" : `${differ} decided differently`}` +
    (differ > 0 && explained !== undefined
      ? `, ${explained.explained} of ${explained.of} explained by the plan's notes`
      : "") +
    (first !== undefined
      ? ` (line ${first.line}: before ${verdictText(first.before)}; after ${verdictText(first.after)})`
      : "") +
    (r.problems.length > 0 ? `; ${notReadLines(r.problems, 1).join(": ")}` : "")
  )
}

/** Title, counts (2 on a narrow pane), decided, header, detail 6; then a line for each line of the lines not read. */
const Chrome = 11
/** A replay that explains: the counts line's explained count (3 lines on a narrow pane), the detail's note line. */
const ExplainedChrome = 2

/** The prompt for a traffic file that every migration view's `p` opens; `onFile` gets the path trimmed. */
export function ReplayFilePrompt({
  zone,
  help,
  onFile,
  onCancel
}: {
  readonly zone: string
  readonly help: string
  readonly onFile: (file: string) => void
  readonly onCancel: () => void
}) {
  return (
    <TextPrompt
      key="replay"
      title={`Replay traffic through ${zone} before and after the migration`}
      help={help}
      check={(t) => (t.trim() === "" ? "file: a path is needed" : undefined)}
      submitLabel="replay"
      onSubmit={(file) => onFile(file.trim())}
      onCancel={onCancel}
    />
  )
}

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
  const explained = explainedText(report)
  const listRows = Math.max(2, height - Chrome - (explained !== undefined ? ExplainedChrome : 0) - notRead.length)
  const cursor = useListCursor(rows.length, listRows, [report])
  const current = rows[cursor.index]
  const notes = current?.explainedBy ?? []
  // The selected difference's explaining notes read whole, over the list until esc.
  const [notesShown, setNotesShown] = useState(false)
  const paneColumns = usePaneSize().columns
  const columnWidth = explained !== undefined ? explainedWidth(rows, paneColumns) : 0
  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (press.name === "n" && notes.length > 0) {
        setNotesShown(true)
        return true
      }
      if (press.name !== "escape" && press.name !== "backspace") return false
      onClose()
      return true
    },
    {
      priority: KeyLayer.tab,
      active: active && !notesShown,
      hints: [
        ...(rows.length > 0 ? [{ keys: "↑↓", label: "requests", keep: 1 }] : []),
        ...(notes.length > 0 ? [{ keys: "n", label: "note", keep: 1 }] : []),
        { keys: "esc", label: "preview", keep: 1 }
      ]
    }
  )
  // A note is data of the plan (rule ids, a rule's description): as long as it is, it scrolls.
  if (notesShown && current !== undefined)
    return (
      <ScrollText
        bordered
        title={`What explains line ${current.line}${current.id !== undefined ? ` (${current.id})` : ""}`}
        paragraphs={notes.map((n) => `${n.code}: ${n.message}`)}
        height={height}
        active={active}
        closeKeys={["n", "backspace"]}
        onClose={() => setNotesShown(false)}
      />
    )
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        {replayHeading(report, baseName(report.file))}
      </Text>
      <Text color={report.agreed === report.requests ? "green" : "yellow"} wrap="wrap">
        {report.agreed === report.requests ? `✓ No difference: ${replayCounts(report)}` : replayCounts(report)}
        {explained !== undefined ? `; ${explained}` : ""}
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
            header={`${"LINE".padEnd(6)}${"DIFFERS IN".padEnd(15)} ${columnWidth > 0 ? "EXPLAINED BY".padEnd(columnWidth) : ""}REQUEST`}
            row={(d) => rowText(d, columnWidth)}
            rowKey={(d) => String(d.line)}
            focused={active}
          />
          {/* Each line whole (not shrunk by the layout); what does not fit the box is cut at its bottom. */}
          <Box flexDirection="column" height={explained !== undefined ? 7 : 6} flexShrink={0} overflow="hidden">
            <Box flexShrink={0}>
              <Text dimColor wrap="wrap">
                {`${cursor.index + 1}/${rows.length} · line ${current.line}${current.id !== undefined ? ` (${current.id})` : ""}: ${current.summary}`}
              </Text>
            </Box>
            {explained !== undefined ? (
              <Box flexShrink={0}>
                <Text wrap="truncate-end" {...(notes.length > 0 ? {} : { color: "yellow" })}>
                  <Text bold>explained by </Text>
                  {notes.length > 0 ? `${explainedByText(current)} · n reads it` : "no note of the plan"}
                </Text>
              </Box>
            ) : null}
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
