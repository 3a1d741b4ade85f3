/**
 * The zone's Firewall tab, `m`: the migration of its firewall rules to custom rules. The preview
 * lists each old rule beside the custom rule it becomes (in the order the custom phase runs them,
 * the rules left out last) with its notes; `p` replays a traffic file through both and shows every
 * request they decide differently (./custom-rules-replay.tsx; `v` shows it again, esc returns);
 * `a` applies after a confirmation that says what is sent. Its replay answer is kept with the zone
 * it was run on (useZoneScoped), so it never shows on another zone.
 */
import { Box, Text } from "ink"
import type { CustomRule, MigrationNote } from "../../src/domain/custom-rule.js"
import type { Rule } from "../../src/domain/firewall.js"
import {
  applyMigration,
  previewMigration,
  rulesToPause,
  type MigrationPreview
} from "../../src/services/custom-rules-migration-service.js"
import { replayMigration, type MigrationReplay } from "../../src/services/migration-replay-service.js"
import { useActions } from "../actions.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { List, useListCursor } from "../components/list.js"
import { ErrorView, Loading } from "../components/states.js"
import { TextPrompt } from "../components/text-prompt.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useNotify } from "../notices.js"
import { useZoneScoped } from "../state.js"
import { usePaneSize } from "../terminal.js"
import { customAction } from "./custom-rule-detail.js"
import { useZoneQuery } from "./custom-rules-query.js"
import { CustomRulesReplayView, replayLine } from "./custom-rules-replay.js"

interface Row {
  readonly rule: Rule
  /** 1-based place in the custom phase, or undefined when the rule is left out. */
  readonly place: number | undefined
  readonly custom: CustomRule | undefined
  readonly notes: ReadonlyArray<MigrationNote>
  /** Migrated by an earlier apply: its custom rule stays as it is. */
  readonly before: boolean
}

const rowsOf = (p: MigrationPreview): ReadonlyArray<Row> => {
  const rows = p.firewallRules.map((rule) => {
    const index = p.migration.entries.find((e) => e.firewall_rule === rule.id)?.custom_rule ?? null
    return {
      rule,
      place: index === null ? undefined : index + 1,
      custom: index === null ? undefined : p.migration.rules[index],
      notes: p.migration.notes.filter((n) => n.rule === rule.id),
      before: p.alreadyMigrated.includes(rule)
    }
  })
  return [...rows].sort((a, b) => (a.place ?? Infinity) - (b.place ?? Infinity))
}

const oldText = (r: Rule) => `${r.action}${r.products ? `(${r.products.join(",")})` : ""}${r.paused ? " paused" : ""}`

/** The old column's width: narrow panes (80 columns) show the old action alone (managed_challenge, 17, the longest), as the new column shows the rest. */
const oldWidth = (columns: number) => (columns >= 100 ? 22 : 17)

const rowText = (r: Row, columns: number) => {
  const to =
    r.custom !== undefined
      ? `${customAction(r.custom)}${r.custom.enabled ? "" : " off"}`
      : r.before
        ? "migrated before"
        : "left out"
  const what = r.rule.description ?? ("expression" in r.rule.filter ? r.rule.filter.expression : r.rule.filter.id)
  const old = columns >= 100 ? oldText(r.rule) : r.rule.action
  return `${(r.place === undefined ? "-" : `#${r.place}`).padEnd(4)}${old.padEnd(oldWidth(columns))} -> ${to.padEnd(21)} ${what}`
}

type Dialog = { readonly kind: "replay" } | { readonly kind: "apply" }

/** Title, header, notes 3, zone notes, replay 2, working. */
const Chrome = 9

export function CustomRulesMigration({
  zone,
  plan,
  active,
  height,
  onApplied
}: {
  readonly zone: { readonly id: string; readonly name: string }
  readonly plan: string | undefined
  readonly active: boolean
  readonly height: number
  readonly onApplied: () => void
}) {
  const { query } = useZoneQuery(zone.id, () => previewMigration(zone.id, plan))
  const preview = query._tag === "Success" ? query.value : undefined
  const rows = preview === undefined ? [] : rowsOf(preview)
  const listRows = Math.max(2, height - Chrome)
  const columns = usePaneSize().columns
  const cursor = useListCursor(rows.length, listRows, [zone.id])
  const current = rows[cursor.index]
  const [dialog, setDialog] = useZoneScoped<Dialog>(zone.id)
  const [replay, setReplay] = useZoneScoped<MigrationReplay>(zone.id)
  // The replay's whole list of differences, over the preview until esc.
  const [replayShown, setReplayShown] = useZoneScoped<true>(zone.id)
  const notify = useNotify()
  const { run, busy } = useActions()
  const close = () => setDialog(undefined)

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (preview === undefined || busy !== undefined) return false
      switch (press.name) {
        case "p":
          setDialog({ kind: "replay" })
          return true
        case "v":
          if (replay === undefined) return false
          setReplayShown(true)
          return true
        case "a":
          if (preview.migration.rules.length === 0) {
            notify.warn("nothing to apply: no firewall rule of this zone becomes a custom rule")
            return true
          }
          setDialog({ kind: "apply" })
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.tab,
      active: active && dialog === undefined && replayShown === undefined,
      // p, v and a act once the preview is read and nothing runs: listed only then, so a key pressed
      // on the word of the footer is never dropped.
      hints: [
        { keys: "↑↓", label: "rules" },
        ...(preview === undefined || busy !== undefined
          ? []
          : [
              { keys: "p", label: "replay traffic" },
              ...(replay !== undefined ? [{ keys: "v", label: "replay's differences" }] : []),
              { keys: "a", label: "apply" }
            ])
      ]
    }
  )

  if (dialog !== undefined && active && preview !== undefined) {
    if (dialog.kind === "replay")
      return (
        <TextPrompt
          key="replay"
          title={`Replay traffic through the old and the new rules of ${zone.name}`}
          help="a traffic file: one JSON request per line"
          check={(t) => (t.trim() === "" ? "file: a path is needed" : undefined)}
          submitLabel="replay"
          onSubmit={(file) => {
            close()
            run(
              replayMigration(preview, file.trim()),
              (report) => {
                setReplay(report)
                setReplayShown(true)
              },
              "replay the traffic"
            )
          }}
          onCancel={close}
        />
      )
    const pause = rulesToPause(preview)
    const left = preview.migration.entries.filter((e) => e.custom_rule === null).length
    return (
      <ConfirmDialog
        title={`Migrate the firewall rules of ${zone.name}?`}
        lines={[
          `1. PUT the custom phase (http_request_firewall_custom) entry point with ${preview.migration.rules.length} rules${preview.existing.length > 0 ? `, then the ${preview.existing.length} there now, kept` : ""}.`,
          `2. Pause ${pause.length} firewall ${pause.length === 1 ? "rule that now has" : "rules that now have"} a custom rule (paused: true).`,
          left === 0
            ? "Every rule has a custom rule."
            : left === 1
              ? "1 rule with no equivalent is left as it is (its note says why)."
              : `${left} rules with no equivalent are left as they are (their notes say why).`
        ]}
        confirmLabel="apply"
        onConfirm={() => {
          close()
          run(
            applyMigration(zone.id, preview),
            (r) => {
              notify.done(`Wrote ${r.written} custom rules on ${zone.name}; paused ${r.paused} firewall rules`)
              onApplied()
            },
            "apply the migration"
          )
        }}
        onCancel={close}
      />
    )
  }

  if (replay !== undefined && replayShown === true)
    return (
      <CustomRulesReplayView
        replay={replay}
        active={active}
        height={height}
        onClose={() => setReplayShown(undefined)}
      />
    )

  const zoneNotes = preview?.migration.notes.filter((n) => n.rule === undefined) ?? []
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        Migrate {zone.name} to custom rules <Text dimColor>· old rule -&gt; new rule, in run order</Text>
      </Text>
      {query._tag === "Loading" ? <Loading what="the migration preview" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not read the firewall rules" error={query.error} /> : null}
      {preview !== undefined && rows.length === 0 ? (
        <Text>No firewall rules on this zone: nothing to migrate.</Text>
      ) : null}
      {rows.length > 0 ? (
        <List
          items={rows}
          index={cursor.index}
          height={listRows}
          header={`${"NEW".padEnd(4)}${"OLD".padEnd(oldWidth(columns))}    ${"CUSTOM RULE".padEnd(21)} DESCRIPTION`}
          row={(r) => rowText(r, columns)}
          rowKey={(r) => r.rule.id}
          focused={active}
        />
      ) : null}
      <Box height={3} flexShrink={0} overflow="hidden" flexDirection="column">
        {current !== undefined ? (
          <Text wrap="wrap">
            <Text dimColor>{current.custom?.expression ?? ""}</Text>
            {current.notes.map((n) => `\n${n.severity}: ${n.message}`).join("")}
          </Text>
        ) : null}
      </Box>
      {preview !== undefined && preview.existing.length > 0 ? (
        // Rules migrated before are left out (their custom rules stay as they are): say so first.
        <Text color="yellow" wrap="truncate-end">
          {`a keeps the ${preview.existing.length} custom rules`}
          {preview.alreadyMigrated.length > 0
            ? `; leaves out ${preview.alreadyMigrated.length} rules migrated before`
            : ""}
        </Text>
      ) : (
        <Text dimColor wrap="truncate-end">
          {zoneNotes.length > 0 ? `${zoneNotes.map((n) => n.code).join(", ")}: ${zoneNotes[0]!.message}` : " "}
        </Text>
      )}
      <Box height={2} flexShrink={0} overflow="hidden">
        <Text wrap="wrap">{replay !== undefined ? replayLine(replay) : " "}</Text>
      </Box>
      {busy !== undefined ? <Text color="cyan">… working</Text> : <Text> </Text>}
    </Box>
  )
}
