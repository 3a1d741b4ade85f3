/** The WAF wizard's step views: presentation only (the data comes from the WafMigration service). */
import { Box, Text } from "ink"
import type { MigrationCheck, MigrationStatus, WafConfig } from "../../src/domain/waf.js"
import type { Preview } from "../../src/services/waf-migration.js"
import type { Verdict } from "../../src/waf/engines.js"
import { managedRules, owaspSettings } from "../../src/waf/edit.js"
import type { ReplayReport } from "../../src/waf/replay.js"
import { cell, cells, flexWidth } from "../components/columns.js"
import { List } from "../components/list.js"

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

export function CheckStep({ check }: { check: MigrationCheck }) {
  return (
    <Box flexDirection="column">
      <Text color={check.compatible ? "green" : "red"} bold>
        {check.compatible ? "Compatible: the zone can migrate (phase 2)." : "Not compatible: the zone cannot migrate yet."}
      </Text>
      {(check.reasons ?? []).map((r, i) => (
        <Text key={i} wrap="wrap">
          {"  - "}
          {r.message}
        </Text>
      ))}
    </Box>
  )
}

export function PreviewStep({ preview, columns, height }: { preview: Preview; columns: number; height: number }) {
  const w = flexWidth(columns, [24, 10], 3, 20)
  return (
    <Box flexDirection="column">
      {preview.warnings.map((w, i) => (
        <Text key={`w${i}`} color="yellow" wrap="truncate-end">
          {`warning: ${w}`}
        </Text>
      ))}
      <Text bold>{cells([["PREVIOUS SETTING", 24], ["PREVIOUS", 10], ["NEW EQUIVALENT", w]], 3)}</Text>
      {preview.plan.rows.slice(0, Math.max(1, height - 1)).map((r, i) => (
        <Text key={i} wrap="truncate-end">
          {cells([[r.setting, 24], [r.previous, 10], [r.next, w]], 3)}
        </Text>
      ))}
    </Box>
  )
}

export function NotMigratedStep({ preview }: { preview: Preview }) {
  const { notMigrated } = preview.plan
  const blockers = preview.blockers
  return (
    <Box flexDirection="column">
      {notMigrated.length === 0 ? <Text color="green">Everything is migrated.</Text> : null}
      {notMigrated.map((n, i) => (
        <Text key={i} wrap="wrap">
          <Text bold>{n.what}</Text>
          <Text dimColor>{` — ${n.why}`}</Text>
        </Text>
      ))}
      {blockers.length > 0 ? <Text color="red" bold>{"The migration cannot go on:"}</Text> : null}
      {blockers.map((b, i) => (
        <Text key={`b${i}`} color="red" wrap="wrap">
          {`  - ${b.message}`}
        </Text>
      ))}
    </Box>
  )
}

export function OverridesStep({ config, index, height, focused, edited }: { config: WafConfig; index: number; height: number; focused: boolean; edited: boolean }) {
  const rules = managedRules(config)
  const owasp = owaspSettings(config)
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>OWASP: </Text>
        {owasp ? `PL${owasp.paranoia}, threshold ${owasp.threshold}, action ${owasp.action}` : "not deployed"}
        <Text dimColor>{edited ? "   (edited: deploy and replay use this configuration)" : ""}</Text>
      </Text>
      <List
        items={rules}
        index={index}
        height={Math.max(1, height - 2)}
        focused={focused}
        rowKey={(r) => r.id}
        header={cells([["RULE", 10], ["ENABLED", 8], ["ACTION", 20], ["DESCRIPTION", 50]])}
        row={(r) => cells([[r.id.slice(0, 8), 10], [r.enabled ? "yes" : "no", 8], [`${r.action}${r.overridden ? " *" : ""}`, 20], [r.description, 50]])}
      />
    </Box>
  )
}

const verdict = (v: Verdict) => (v.acted ? `${v.action} (${v.rules.map((r) => r.id.slice(0, 8)).join("+")})` : "pass")

export function ReplayStep({ report, file, running, error }: { report?: ReplayReport | undefined; file: string; running: boolean; error?: string | undefined }) {
  if (running) return <Text color="yellow">Replaying {file} against both versions…</Text>
  if (error) return <Text color="red">{error}</Text>
  if (!report) return <Text dimColor>f picks a JSONL traffic file (default {file}); enter replays it against the previous WAF and the proposed configuration.</Text>
  const d = report.counts["new-only"] + report.counts["previous-only"] + report.counts["different-action"]
  return (
    <Box flexDirection="column">
      <Text>
        {report.requests} requests: <Text color="green">{report.agreed} agree</Text>, <Text color={d > 0 ? "yellow" : "green"}>{d} disagree</Text> ({report.counts["new-only"]} only the new WAF acts, {report.counts["previous-only"]} only the previous, {report.counts["different-action"]} different actions)
      </Text>
      {report.disagreements.slice(0, 12).map((x) => (
        <Text key={x.line} wrap="truncate-end">
          {cells([[String(x.line), 5], [x.id ?? x.summary, 24], [x.kind, 17], [verdict(x.previous), 28], [verdict(x.next), 40]])}
        </Text>
      ))}
    </Box>
  )
}

export function DeployStep({ status, busy, result }: { status: MigrationStatus; busy?: string | undefined; result?: string | undefined }) {
  const s = status.migration_state
  const text =
    s === "finished"
      ? "The migration is finished: the zone runs WAF Managed Rules only."
      : s === "validation"
        ? "Validation mode: both versions run, the new one first. d turns off the previous version (finishes the migration: irreversible)."
        : status.plan === "enterprise"
          ? "d deploys to validation mode (both versions side by side); finish later from this step. x finishes at once (irreversible)."
          : "d deploys the new WAF and turns off the previous one (irreversible on this plan)."
  return (
    <Box flexDirection="column">
      <Text wrap="wrap">{text}</Text>
      {busy ? <Text color="yellow">{busy}</Text> : null}
      {result ? <Text color="green">{result}</Text> : null}
    </Box>
  )
}
