/**
 * The WAF wizard's step views: presentation only (the data comes from the WafMigration service;
 * which step shows which view is the step table's, ./waf-wizard-steps.tsx).
 * Steps whose content can outgrow the pane (preview, what is not migrated, the replay, what a
 * deploy sent) are built as lines, wrapped at word boundaries to the pane's width, and scrolled by
 * the wizard, so nothing is cut at 80x24.
 */
import { Box, Text } from "ink"
import type { MigrationCheck, MigrationStatus, WafConfig, WafOverride } from "../../src/domain/waf.js"
import { requestsText, type PlannedRequest } from "../../src/domain/request-text.js"
import type { Preview } from "../../src/services/waf-migration-service.js"
import type { Verdict } from "../../src/waf/engines.js"
import { managedRules, owaspSettings } from "../../src/waf/edit.js"
import { notReadLines } from "../../src/rules/traffic-line.js"
import { replaySummary, type ReplayReport } from "../../src/waf/replay.js"
import { cell, cells, flexWidth } from "../components/columns.js"
import { List } from "../components/list.js"

export interface Line {
  readonly text: string
  readonly bold?: boolean
  readonly dim?: boolean
  readonly color?: string
}

/** Word-wraps `text` to `width`; continuation lines start with `indent`. A word longer than a line is split. */
export const wrapText = (text: string, width: number, indent = ""): Array<string> => {
  const out: Array<string> = []
  const lead = /^ */.exec(text)![0]
  let line = lead
  const push = () => {
    out.push(line)
    line = indent
  }
  for (const word of text.slice(lead.length).split(/ +/)) {
    let w = word
    const room = () => width - line.length - (line.trim() === "" ? 0 : 1)
    if (line.trim() !== "" && w.length > room()) push()
    while (w.length > width - line.length) {
      const n = Math.max(1, width - line.length)
      line += w.slice(0, n)
      w = w.slice(n)
      push()
    }
    line = line.trim() === "" ? line + w : `${line} ${w}`
  }
  if (line.trim() !== "" || out.length === 0) out.push(line)
  return out
}

const wrapped = (text: string, width: number, style: Omit<Line, "text"> = {}, indent = ""): Array<Line> =>
  wrapText(text, width, indent).map((t) => ({ ...style, text: t }))

/** Rows for content when `count` lines must fit `height`: one row goes to the scroll marker if they do not. */
const contentRows = (count: number, height: number) => (count > height ? Math.max(1, height - 1) : height)

/** The largest useful scroll offset. */
export const maxOffset = (count: number, height: number) => Math.max(0, count - contentRows(count, height))

/** `lines` from `offset`, at most `height` rows, with a dim marker when they do not all fit. */
export function Lines({ lines, offset, height }: { lines: ReadonlyArray<Line>; offset: number; height: number }) {
  const shown = lines.slice(offset, offset + contentRows(lines.length, height))
  const more = lines.length > offset + shown.length
  return (
    <Box flexDirection="column">
      {shown.map((l, i) => (
        <Text
          key={offset + i}
          bold={l.bold ?? false}
          dimColor={l.dim ?? false}
          {...(l.color ? { color: l.color } : {})}
          wrap="truncate-end"
        >
          {l.text === "" ? " " : l.text}
        </Text>
      ))}
      {lines.length > height ? (
        <Text dimColor>{`${more ? `↓ ${lines.length - offset - shown.length} more lines · ` : ""}j/k scroll`}</Text>
      ) : null}
    </Box>
  )
}

export function StatusStep({ status, name }: { status: MigrationStatus; name: string }) {
  const rows: Array<[string, string]> = [
    ["zone", `${name} · plan ${status.plan}`],
    ["state", status.migration_state],
    ["previous WAF", status.old_waf_status],
    ["new WAF", status.new_waf_status],
    ["validation mode", status.validation_mode_allowed ? "available (enterprise)" : "not available"],
    ["since", status.created ?? "-"]
  ]
  return (
    <Box flexDirection="column">
      {rows.map(([k, v]) => (
        <Text key={k}>
          <Text dimColor>{cell(`${k}:`, 17)}</Text>
          {v}
        </Text>
      ))}
    </Box>
  )
}

/** The Check step: the platform's answer and, when URI-based overrides block it, those overrides. */
export function CheckStep({
  check,
  overrides = [],
  index = 0,
  height,
  focused
}: {
  check: MigrationCheck
  overrides?: ReadonlyArray<WafOverride>
  index?: number
  height: number
  focused: boolean
}) {
  return (
    <Box flexDirection="column">
      <Text color={check.compatible ? "green" : "red"} bold>
        {check.compatible
          ? "Compatible: the zone can migrate (phase 2)."
          : "Not compatible: the zone cannot migrate yet."}
      </Text>
      {(check.reasons ?? []).map((r, i) => (
        <Text key={i} wrap="wrap">
          {"  - "}
          {r.message}
        </Text>
      ))}
      {overrides.length > 0 ? (
        <>
          <Text> </Text>
          <Text bold wrap="wrap">
            {`Blocking override${overrides.length === 1 ? "" : "s"} · x deletes the one under the cursor:`}
          </Text>
          <List
            items={overrides}
            index={Math.min(index, overrides.length - 1)}
            height={Math.max(1, height - 4 - (check.reasons?.length ?? 0))}
            row={(o) => `${o.id}  ${o.urls.join(" ")}${o.description ? `  ${o.description}` : ""}`}
            rowKey={(o) => o.id}
            focused={focused}
          />
        </>
      ) : null}
    </Box>
  )
}

/** Previous setting | new equivalent: a table when every cell fits the pane, else two lines per setting. */
export const previewLines = (preview: Preview, columns: number): Array<Line> => {
  const w = flexWidth(columns, [24, 10], 3, 20)
  const warnings = preview.warnings.flatMap((x) => wrapped(`warning: ${x}`, columns, { color: "yellow" }, "  "))
  const fits = preview.plan.rows.every((r) => r.setting.length <= 24 && r.previous.length <= 10 && r.next.length <= w)
  if (fits) {
    return [
      ...warnings,
      {
        text: cells(
          [
            ["PREVIOUS SETTING", 24],
            ["PREVIOUS", 10],
            ["NEW EQUIVALENT", w]
          ],
          3
        ),
        bold: true
      },
      ...preview.plan.rows.map((r) => ({
        text: cells(
          [
            [r.setting, 24],
            [r.previous, 10],
            [r.next, w]
          ],
          3
        )
      }))
    ]
  }
  return [
    ...warnings,
    { text: "PREVIOUS SETTING: previous value", bold: true },
    { text: "  -> new equivalent", dim: true },
    ...preview.plan.rows.flatMap((r) => [
      ...wrapped(`${r.setting}: ${r.previous}`, columns, { bold: true }, "  "),
      ...wrapped(`  -> ${r.next}`, columns, {}, "     ")
    ])
  ]
}

export const notMigratedLines = (preview: Preview, columns: number): Array<Line> => {
  const { notMigrated } = preview.plan
  return [
    ...(notMigrated.length === 0 ? [{ text: "Everything is migrated.", color: "green" }] : []),
    ...notMigrated.flatMap((n) => [
      ...wrapped(n.what, columns, { bold: true }, "  "),
      ...wrapped(`  ${n.why}`, columns, { dim: true }, "  ")
    ]),
    ...(preview.blockers.length > 0 ? [{ text: "The migration cannot go on:", color: "red", bold: true }] : []),
    ...preview.blockers.flatMap((b) => wrapped(`  - ${b.message}`, columns, { color: "red" }, "    "))
  ]
}

export function OverridesStep(props: {
  config: WafConfig
  index: number
  height: number
  columns: number
  focused: boolean
  edited: boolean
}) {
  const { config, index, height, columns, focused, edited } = props
  const rules = managedRules(config)
  const owasp = owaspSettings(config)
  const selected = rules[index]
  const about = selected
    ? wrapText(`${selected.id}: ${selected.description} (default ${selected.defaultAction})`, columns)
    : []
  const desc = Math.max(10, columns - 2 - (8 + 2) - (3 + 2) - (19 + 2))
  return (
    <Box flexDirection="column">
      <Text wrap="wrap">
        <Text bold>OWASP: </Text>
        {owasp ? `PL${owasp.paranoia}, threshold ${owasp.threshold}, action ${owasp.action}` : "not deployed"}
        <Text color="yellow">{edited ? "  (edited: deploy and replay use this configuration; u undoes)" : ""}</Text>
      </Text>
      <List
        items={rules}
        index={index}
        height={Math.max(1, height - 3 - about.length)}
        focused={focused}
        rowKey={(r) => r.id}
        header={cells([
          ["RULE", 8],
          ["ON", 3],
          ["ACTION", 19],
          ["DESCRIPTION", desc]
        ])}
        row={(r) =>
          cells([
            [r.id.slice(0, 8), 8],
            [r.enabled ? "yes" : "no", 3],
            [`${r.action}${r.overridden ? " *" : ""}`, 19],
            [r.description, desc]
          ])
        }
      />
      {about.map((t, i) => (
        <Text key={i} dimColor>
          {t}
        </Text>
      ))}
    </Box>
  )
}

const verdict = (v: Verdict) => (v.acted ? `${v.action} (${v.rules.map((r) => r.id.slice(0, 8)).join("+")})` : "pass")

/** Why a replay no longer describes the configuration deploy would send, or undefined. */
export type Staleness = "edited" | "reloaded" | undefined

export const replayLines = (
  r: {
    report?: ReplayReport | undefined
    /** The file picked, and the one the report is of. */
    file: string
    replayed?: string | undefined
    running: boolean
    error?: string | undefined
    stale: Staleness
  },
  columns: number
): Array<Line> => {
  if (r.running) return wrapped(`Replaying ${r.file} against both versions…`, columns, { color: "yellow" })
  if (r.error) return wrapped(r.error, columns, { color: "red" }, "  ")
  const { report } = r
  if (!report)
    return wrapped(
      `f picks a JSONL traffic file (default ${r.file}); enter replays it against the previous WAF and the proposed configuration.`,
      columns,
      { dim: true }
    )
  const stale =
    r.stale === undefined
      ? []
      : wrapped(
          `Out of date: ${r.stale === "edited" ? "the configuration was edited" : "the zone was refreshed or deployed"} since this replay; enter replays again.`,
          columns,
          { color: "yellow", bold: true }
        )
  // The words of `waf replay`: the file and the counts, then the lines not read.
  return [
    ...stale,
    ...replaySummary(r.replayed ?? r.file, report).flatMap((l) => wrapped(l, columns, r.stale ? { dim: true } : {})),
    ...notReadLines(report.problems).flatMap((l) => wrapped(l, columns, { color: "yellow" }, "  ")),
    ...report.disagreements.flatMap((x) => [
      ...wrapped(
        `line ${x.line} ${x.id ?? x.summary}: ${x.kind}`,
        columns,
        { bold: !r.stale, dim: r.stale !== undefined },
        "  "
      ),
      ...wrapped(`  previous ${verdict(x.previous)} · new ${verdict(x.next)}`, columns, { dim: true }, "    ")
    ])
  ]
}

/**
 * `title`, then the requests as the CLI's `--dry-run` prints them (src/domain/request-text.ts),
 * cut at the pane's width with no indent, so that the JSON's indentation and values stay exact.
 */
export const requestLinesOf = (
  title: string,
  requests: ReadonlyArray<PlannedRequest>,
  columns: number
): Array<Line> => [
  { text: "" },
  ...wrapped(title, columns, { dim: true }),
  ...requestsText(requests).flatMap((l) => {
    const chars = [...l]
    const out: Array<Line> = []
    for (let i = 0; i < chars.length; i += columns) out.push({ text: chars.slice(i, i + columns).join("") })
    return out.length === 0 ? [{ text: "" }] : out
  })
]

export interface Sent {
  readonly zone: string
  readonly to: string
  readonly version: string
  readonly summary: ReadonlyArray<string>
}

export const deployLines = (
  status: MigrationStatus,
  busy: string | undefined,
  sent: Sent | undefined,
  columns: number,
  compatible = true
): Array<Line> => {
  const s = status.migration_state
  const text =
    s === "finished"
      ? "The migration is finished: the zone runs WAF Managed Rules only."
      : !compatible
        ? "The zone cannot be migrated as it is (the Check step says why): nothing can be deployed until that is fixed; r reads it again."
        : s === "validation"
          ? "Validation mode: both versions run, the new one first. d turns off the previous version (finishes the migration: irreversible)."
          : status.plan === "enterprise"
            ? "d deploys to validation mode (both versions side by side); finish later from this step. x finishes at once (irreversible)."
            : "d deploys the new WAF and turns off the previous one (irreversible on this plan)."
  return [
    ...wrapped(text, columns),
    ...(busy ? [{ text: busy, color: "yellow" }] : []),
    ...(sent
      ? [
          { text: "" },
          ...wrapped(
            `Sent to ${sent.zone} (now ${sent.to}); the entry point as read back (version ${sent.version}):`,
            columns,
            { color: "green" }
          ),
          ...sent.summary.flatMap((l) => wrapped(`  ${l}`, columns, {}, "    "))
        ]
      : [])
  ]
}
