/**
 * A zone's firewall filters (`f` on the firewall rules): each with the rules that use it, `/`
 * narrows them (expression, description, id), `e` edits a filter's expression (checked as typed,
 * then a confirmation naming the rules it changes, `v` its PUT), `d` deletes a filter no rule uses
 * (a red confirmation, `v` its DELETE). A filter a rule uses is not deleted from here: the notice
 * names the rule, which is deleted or pointed elsewhere first (the platform would leave that rule
 * on a deleted filter). Every write goes through the firewall service, as `edgectl firewall
 * filters update|delete` does.
 */
import { Box, Text } from "ink"
import type { Filter, Rule } from "../../src/domain/firewall.js"
import type { Plan } from "../../src/rules/index.js"
import {
  allFilters,
  deleteFilter,
  deleteFilterRequest,
  updateFilter,
  updateFilterRequest
} from "../../src/services/firewall-service.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { FilterBar, filterListHints, filterListKey, filterMatches, useFilterInput } from "../components/filter-bar.js"
import { List, ListStatus, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { TextPrompt } from "../components/text-prompt.js"
import { useActions } from "../actions.js"
import { useHoldKeys, useKeys } from "../keys.js"
import { useNotify } from "../notices.js"
import { useEffectQuery } from "../runtime.js"
import { useZoneScoped } from "../state.js"
import { liveDiagnostic, numbers, otherUsers, ruleName } from "./firewall-table.js"

type Dialog =
  | { readonly kind: "edit"; readonly filter: Filter }
  | { readonly kind: "save"; readonly filter: Filter; readonly expression: string }
  | { readonly kind: "delete"; readonly filter: Filter }

/** Lines besides the rows: title, filter bar, position, the filter under the cursor 3, working. */
const Chrome = 7

/** `#1, #3` or `unused`: the rules (in evaluation order) that use the filter. */
const usersText = (rules: ReadonlyArray<Rule>, f: Filter) => {
  const users = otherUsers(rules, f.id)
  return users.length === 0 ? "unused" : numbers(rules, users)
}

export function FiltersView({
  zone,
  rules,
  plan,
  active,
  height,
  priority,
  onRulesChanged,
  onClose
}: {
  readonly zone: { readonly id: string; readonly name: string }
  /** The zone's rules in evaluation order (the table's numbers). */
  readonly rules: ReadonlyArray<Rule>
  readonly plan: Plan | undefined
  readonly active: boolean
  readonly height: number
  readonly priority: number
  /** A filter's edit changes what its rules match: the rules are read again. */
  readonly onRulesChanged: () => void
  readonly onClose: () => void
}) {
  const { query, refresh } = useEffectQuery(() => allFilters(zone.id), [zone.id])
  const filters = query._tag === "Success" ? query.value : []
  const [dialog, setDialog] = useZoneScoped<Dialog>(zone.id)
  const rows = Math.max(2, height - Chrome)
  const bar = useFilterInput({
    active: active && dialog === undefined,
    onMove: (press) => cursor.move(press),
    what: "expression, description, id"
  })
  const shown = filters.filter((f) => filterMatches(bar, f.expression, f.description, f.id))
  const cursor = useListCursor(shown.length, rows, [zone.id, bar.text], { items: shown, key: (f) => f.id })
  useHoldKeys(active && query._tag === "Loading")
  const current = shown[cursor.index]
  const notify = useNotify()
  const { run, busy } = useActions()
  const close = () => setDialog(undefined)

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      switch (press.name) {
        case "/":
          return filterListKey(bar, press)
        case "escape":
        case "backspace":
          // A kept filter is cleared first; then back to the rules.
          if (!filterListKey(bar, press)) onClose()
          return true
        case "e":
          if (current === undefined) return (notify.warn("no filter selected"), true)
          setDialog({ kind: "edit", filter: current })
          return true
        case "d": {
          if (current === undefined) return (notify.warn("no filter selected"), true)
          const users = otherUsers(rules, current.id)
          if (users.length > 0) {
            notify.warn(
              `filter ${current.id} is used by ${users.map((u) => ruleName(rules, u)).join(", ")}: delete that rule, or point it at another filter, first`
            )
            return true
          }
          setDialog({ kind: "delete", filter: current })
          return true
        }
        case "r":
          notify.clear()
          refresh()
          return true
        default:
          return false
      }
    },
    {
      priority,
      active: active && dialog === undefined && !bar.editing,
      hints: [
        { keys: "↑↓", label: "filters" },
        ...(current !== undefined
          ? [
              { keys: "e", label: "edit expression" },
              { keys: "d", label: "delete unused" }
            ]
          : []),
        ...filterListHints(bar),
        ...(bar.text === "" ? [{ keys: "esc", label: "rules" }] : []),
        { keys: "r", label: "refresh" }
      ]
    }
  )

  const dialogView = () => {
    if (dialog === undefined) return null
    const f = dialog.filter
    switch (dialog.kind) {
      case "edit":
        return (
          <TextPrompt
            key={`edit-${f.id}`}
            title={`Expression of filter ${f.id}`}
            help={`checked as you type; used by ${usersText(rules, f)}`}
            initial={f.expression}
            check={(t) => liveDiagnostic(t, plan)}
            newlines="keep"
            submitLabel="review"
            onSubmit={(expression) =>
              expression === f.expression
                ? (close(), notify.done(`Nothing changed on filter ${f.id}`))
                : setDialog({ kind: "save", filter: f, expression })
            }
            onCancel={close}
          />
        )
      case "save": {
        const users = otherUsers(rules, f.id)
        return (
          <ConfirmDialog
            title={`Save the expression of filter ${f.id}?`}
            lines={[
              `Now: ${f.expression}`,
              `New: ${dialog.expression}`,
              users.length === 0
                ? "No rule uses it."
                : `${users.length === 1 ? "Rule" : "Rules"} ${users.map((u) => ruleName(rules, u)).join(", ")} match the new expression at once.`
            ]}
            confirmLabel="save"
            requests={[updateFilterRequest(zone.id, f, { expression: dialog.expression })]}
            onConfirm={() => {
              close()
              run(
                updateFilter(zone.id, f.id, { expression: dialog.expression }),
                () => {
                  notify.done(`Saved the expression of filter ${f.id}`)
                  refresh()
                  onRulesChanged()
                },
                "save the filter",
                { where: zone.name, what: `edited filter ${f.id}: expression ${dialog.expression}` }
              )
            }}
            onCancel={close}
          />
        )
      }
      case "delete":
        return (
          <ConfirmDialog
            title={`Delete filter ${f.id}? No rule uses it.`}
            lines={[`Expression: ${f.expression}`]}
            confirmLabel="delete"
            destructive
            requests={[deleteFilterRequest(zone.id, f.id)]}
            onConfirm={() => {
              close()
              run(
                deleteFilter(zone.id, f.id),
                () => {
                  notify.done(`Deleted filter ${f.id}`)
                  refresh()
                },
                "delete the filter",
                { where: zone.name, what: `deleted filter ${f.id} (${f.expression})` }
              )
            }}
            onCancel={close}
          />
        )
    }
  }

  const open = dialogView()
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        Filters of {zone.name} <Text dimColor>· the rules that use each · esc back to the rules</Text>
      </Text>
      {query._tag === "Loading" ? <Loading what="filters" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not read the filters" error={query.error} /> : null}
      {open ?? (
        <Box flexDirection="column">
          <FilterBar filter={bar} what="expression, description, id" />
          {query._tag === "Success" && filters.length === 0 ? (
            <Empty what="No filters on this zone." next="n on the rules creates one with its rule" />
          ) : null}
          {filters.length > 0 && shown.length === 0 ? (
            <Empty what={`No filters match "${bar.text.trim()}".`} next="esc clears the filter" />
          ) : null}
          {shown.length > 0 ? (
            <List
              items={shown}
              index={cursor.index}
              height={rows}
              header={`${"USED BY".padEnd(10)}EXPRESSION`}
              row={(f) =>
                `${usersText(rules, f).padEnd(9)} ${f.paused ? "(paused) " : ""}${f.expression.replace(/\s*\n\s*/g, " ")}`
              }
              rowKey={(f) => f.id}
              focused={active}
            />
          ) : null}
          <Text wrap="truncate-end">
            <ListStatus index={cursor.index} loaded={shown.length} total={shown.length} loading={false} />
            {bar.text !== "" && shown.length > 0 ? <Text dimColor>{` of ${filters.length} filters`}</Text> : " "}
          </Text>
          <Box height={3} flexShrink={0} overflow="hidden">
            <Text dimColor wrap="wrap">
              {current !== undefined
                ? `filter ${current.id}${current.description ? ` · ${current.description}` : ""} · used by ${usersText(rules, current)}: ${current.expression}`
                : ""}
            </Text>
          </Box>
          {busy ? <Text color="cyan">… working</Text> : <Text> </Text>}
        </Box>
      )}
    </Box>
  )
}
