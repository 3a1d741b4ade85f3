/**
 * One firewall rule's migration read whole: its old and new form, its expression and every note,
 * wrapped and scrolled with ↑↓ (the preview's notes box has room for three lines only); esc closes.
 */
import { Box, Text } from "ink"
import { useState } from "react"
import type { CustomRule, MigrationNote } from "../../src/domain/custom-rule.js"
import type { Rule } from "../../src/domain/firewall.js"
import { wrapText } from "../components/wrap.js"
import { KeyLayer, useKeys } from "../keys.js"
import { usePaneSize } from "../terminal.js"
import { customAction } from "./custom-rule-detail.js"

export function MigrationNotesView({
  rule,
  custom,
  notes,
  active,
  height,
  onClose
}: {
  readonly rule: Rule
  readonly custom: CustomRule | undefined
  readonly notes: ReadonlyArray<MigrationNote>
  readonly active: boolean
  readonly height: number
  readonly onClose: () => void
}) {
  const width = Math.max(20, usePaneSize().columns - 4)
  const text = [
    `firewall rule ${rule.id}: ${rule.action}${rule.paused ? " (paused)" : ""}${rule.description !== undefined ? ` · ${rule.description}` : ""}`,
    `becomes: ${custom !== undefined ? `${customAction(custom)}${custom.enabled === false ? " (disabled)" : ""}` : "nothing (left out)"}`,
    `expression: ${"expression" in rule.filter ? rule.filter.expression : `(filter ${rule.filter.id} was deleted)`}`,
    "",
    ...(notes.length === 0 ? ["no notes: the rule maps as it is"] : notes.map((n) => `${n.severity}: ${n.message}`))
  ].flatMap((l) => (l === "" ? [""] : wrapText(l, width)))
  const rows = Math.max(1, height - 2)
  const [top, setTop] = useState(0)
  const last = Math.max(0, text.length - rows)
  useKeys(
    (press) => {
      if (press.name === "escape" || press.name === "enter") onClose()
      else if (press.name === "up") setTop((t) => Math.max(0, t - 1))
      else if (press.name === "down") setTop((t) => Math.min(last, t + 1))
      else if (press.name === "pageup") setTop((t) => Math.max(0, t - rows))
      else if (press.name === "pagedown") setTop((t) => Math.min(last, t + rows))
      else return false
      return true
    },
    {
      priority: KeyLayer.dialog,
      active,
      hints: [
        { keys: "↑↓", label: "scroll" },
        { keys: "esc", label: "back" }
      ]
    }
  )
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        Notes of rule {rule.id}{" "}
        <Text dimColor>
          · lines {Math.min(top + 1, text.length)}-{Math.min(top + rows, text.length)} of {text.length}
        </Text>
      </Text>
      {text.slice(top, top + rows).map((l, i) => (
        <Text key={i} wrap="truncate-end">
          {l === "" ? " " : l}
        </Text>
      ))}
    </Box>
  )
}
