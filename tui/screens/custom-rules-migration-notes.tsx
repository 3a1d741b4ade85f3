/**
 * One firewall rule's migration read whole: its old and new form, its expression and every note,
 * wrapped and scrolled as every long text is (ScrollText: the preview's notes box has room for
 * three lines only); esc or enter closes.
 */
import type { CustomRule, MigrationNote } from "../../src/domain/custom-rule.js"
import type { Rule } from "../../src/domain/firewall.js"
import { ScrollText } from "../components/scroll-text.js"
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
  return (
    <ScrollText
      title={`Notes of rule ${rule.id}`}
      paragraphs={[
        `firewall rule ${rule.id}: ${rule.action}${rule.paused ? " (paused)" : ""}${rule.description !== undefined ? ` · ${rule.description}` : ""}`,
        `becomes: ${custom !== undefined ? `${customAction(custom)}${custom.enabled === false ? " (disabled)" : ""}` : "nothing (left out)"}`,
        `expression: ${"expression" in rule.filter ? rule.filter.expression : `(filter ${rule.filter.id} was deleted)`}`,
        "",
        ...(notes.length === 0 ? ["no notes: the rule maps as it is"] : notes.map((n) => `${n.severity}: ${n.message}`))
      ]}
      height={height}
      active={active}
      closeKeys={["enter"]}
      closeLabel="back"
      onClose={onClose}
    />
  )
}
