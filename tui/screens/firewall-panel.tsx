/**
 * A zone's firewall rules (the zone's Firewall tab, and the Firewall screen): the rules in
 * evaluation order, named by their place (#n) and description; enter shows one rule whole (its
 * whole expression, its filter and the rules sharing it); n creates, e edits priority and
 * description, p pauses or resumes, d deletes (and offers the filter), t tests a request typed as
 * JSON. The panel only calls the firewall service; the dialogs are in ./firewall-flows.tsx.
 */
import * as Effect from "effect/Effect"
import { Box, Text } from "ink"
import { useRef } from "react"
import { isDeletedFilter, type Rule } from "../../src/domain/firewall.js"
import { validateRequest, type Plan } from "../../src/rules/index.js"
import { allRules, setRulePaused, testRequest, updateRuleRequest } from "../../src/services/firewall-service.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { DetailBox } from "../components/detail-box.js"
import { FilterBar, filterListHints, filterListKey, filterMatches, useFilterInput } from "../components/filter-bar.js"
import { List, ListStatus, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { TextPrompt } from "../components/text-prompt.js"
import { KeyLayer, useHoldKeys, useKeys } from "../keys.js"
import { useActions } from "../actions.js"
import { useNotify } from "../notices.js"
import { useZoneScoped } from "../state.js"
import { useEffectQuery } from "../runtime.js"
import { usePaneSize } from "../terminal.js"
import { FiltersView } from "./firewall-filters.js"
import { DeleteRuleFlow } from "./firewall-delete.js"
import { CreateRuleFlow, EditRuleFlow, type CreateStep } from "./firewall-flows.js"
import {
  decisionText,
  expressionOf,
  inEvaluationOrder,
  otherUsers,
  priorityText,
  ruleName,
  ruleNumber,
  ruleSummary,
  ruleTable
} from "./firewall-table.js"

export { liveDiagnostic } from "./firewall-table.js"

type Dialog =
  | { readonly kind: "create"; readonly start?: CreateStep; readonly combined?: boolean | undefined }
  | { readonly kind: "edit"; readonly rule: Rule }
  | { readonly kind: "pause"; readonly rule: Rule }
  | { readonly kind: "delete"; readonly rule: Rule; readonly deleted?: { readonly name: string } }
  | { readonly kind: "request" }

const Plans: ReadonlyArray<string> = ["free", "pro", "business", "enterprise"]

const requestProblem = (text: string): string | undefined => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return `not JSON yet: ${(e as Error).message}`
  }
  const p = validateRequest(value)[0]
  return p === undefined ? undefined : `${p.field || "request"}: ${p.message}`
}

/** Lines besides the rows: title, filter, header, position, summary 2, test, working. */
const Chrome = 8

/** One rule whole: what the table cuts (the expression), its filter and who else uses it. */
function RuleDetail({ rules, rule, height }: { rules: ReadonlyArray<Rule>; rule: Rule; height: number }) {
  const others = otherUsers(rules, rule.filter.id, rule.id)
  const fields: Array<readonly [string, string]> = [
    ["action", `${rule.action}${rule.products ? ` (skips ${rule.products.join(", ")})` : ""}`],
    ["priority", rule.priority === null ? "none (runs after every rule with a priority)" : priorityText(rule)],
    ["paused", rule.paused ? "yes" : "no"],
    [
      "filter",
      `${rule.filter.id}${isDeletedFilter(rule.filter) ? " (deleted)" : rule.filter.paused ? " (paused)" : ""}`
    ],
    [
      "shared",
      others.length > 0
        ? `also used by ${others.map((o) => ruleName(rules, o)).join(", ")}`
        : "no other rule uses this filter"
    ],
    ["rule id", rule.id]
  ]
  return (
    <DetailBox
      title={`Rule ${ruleName(rules, rule)}`}
      fields={fields}
      textLabel="expression"
      text={isDeletedFilter(rule.filter) ? expressionOf(rule) : rule.filter.expression}
      height={height}
    />
  )
}

export interface FirewallPanelProps {
  readonly zone: {
    readonly id: string
    readonly name: string
    readonly plan?: { readonly legacy_id?: string | undefined } | undefined
  }
  readonly active: boolean
  readonly height: number
  /** The key layer: the zone's tab (default) or the Firewall screen. */
  readonly priority?: number
}

export function FirewallPanel({ zone, active, height, priority = KeyLayer.tab }: FirewallPanelProps) {
  const plan = Plans.includes(zone.plan?.legacy_id ?? "") ? (zone.plan!.legacy_id as Plan) : undefined
  const { query, refresh } = useEffectQuery(() => Effect.map(allRules(zone.id), inEvaluationOrder), [zone.id])
  // A dialog belongs to the zone it was opened on (a `:` jump can change the zone under an open
  // one, or while its action runs): it never shows on, or acts for, another zone.
  const [dialog, setDialog] = useZoneScoped<Dialog>(zone.id)
  // While the rules are read again after a write, the last list stays (of this zone only), so the
  // cursor follows its rule by id to its new place: issue 29 found it kept the row number after an
  // edit that reordered, and the next `d`/`p` then aimed at another rule.
  const last = useRef<{ readonly zoneId: string; readonly rules: ReadonlyArray<Rule> } | undefined>(undefined)
  if (query._tag === "Success") last.current = { zoneId: zone.id, rules: query.value }
  const rules: ReadonlyArray<Rule> =
    query._tag === "Success" ? query.value : last.current?.zoneId === zone.id ? last.current.rules : []
  const rows = Math.max(2, height - Chrome)
  // `/` narrows the table to the rules whose description, expression, action or id hold the text;
  // a rule keeps its #n (its place among all the zone's rules).
  const filter = useFilterInput({
    active: active && dialog === undefined,
    onMove: (press) => cursor.move(press),
    what: "description, expression, action"
  })
  const shown = rules.filter((r) => filterMatches(filter, r.description, expressionOf(r), r.action, r.id))
  const cursor = useListCursor(shown.length, rows, [zone.id, filter.text], { items: shown, key: (r) => r.id })
  // Keys pressed before the zone's rules are first read wait for them (`j` then has a row to go to).
  useHoldKeys(active && query._tag === "Loading" && last.current?.zoneId !== zone.id)
  const current = shown[cursor.index]
  // Per zone, like the test answer: the detail view of one zone's rule never opens on another's.
  const [detailOn, setDetailOn] = useZoneScoped<true>(zone.id)
  const detail = detailOn === true
  // `f`: the zone's filters instead of the rules (./firewall-filters.tsx), kept with the zone.
  const [filtersOn, setFiltersOn] = useZoneScoped<true>(zone.id)
  const setDetail = (on: boolean) => setDetailOn(on ? true : undefined)
  const notify = useNotify()
  const { run, busy } = useActions()
  // Kept with the zone it was run on: another zone's answer is never shown.
  const [test, setTested] = useZoneScoped<string>(zone.id)
  const close = () => setDialog(undefined)
  // A change to the rules makes the last test's answer stale: it goes.
  const changed = () => {
    setTested(undefined)
    refresh()
  }
  const flow = { zone, rules, run, notify, refresh: changed, onClose: close }

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      const needRule = () => {
        notify.warn(busy ? "busy: wait for the last change" : "no rule selected: n creates one")
        return true
      }
      switch (press.name) {
        case "enter":
          if (current === undefined) return false
          setDetail(!detail)
          return true
        case "escape":
        case "backspace":
          // The detail view goes back to the table; from the table, a kept filter is cleared, and
          // then the screen or tab goes back.
          if (!detail) return filterListKey(filter, press)
          setDetail(false)
          return true
        case "/":
          if (detail) return false
          return filterListKey(filter, press)
        case "n":
          setDialog({ kind: "create" })
          return true
        case "N":
          setDialog({ kind: "create", combined: true })
          return true
        case "f":
          setFiltersOn(true)
          return true
        case "e":
          if (current === undefined || busy) return needRule()
          setDialog({ kind: "edit", rule: current })
          return true
        case "p":
          if (current === undefined || busy) return needRule()
          setDialog({ kind: "pause", rule: current })
          return true
        case "d":
          if (current === undefined || busy) return needRule()
          setDialog({ kind: "delete", rule: current })
          return true
        case "t":
          setDialog({ kind: "request" })
          return true
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
      active: active && dialog === undefined && !filter.editing && filtersOn === undefined,
      hints: [
        ...(current !== undefined ? [{ keys: "enter", label: detail ? "table" : "details" }] : []),
        ...(detail ? [{ keys: "esc", label: "table" }] : []),
        { keys: "n", label: "new" },
        ...(current !== undefined
          ? [
              { keys: "e", label: "edit" },
              { keys: "d", label: "delete" },
              { keys: "p", label: current.paused ? "resume" : "pause" }
            ]
          : []),
        { keys: "t", label: "test" },
        // Listed in ? help; the footer drops them first (the tab's m and c stay at 100 columns).
        { keys: "N", label: "new in one call", keep: -1 },
        { keys: "f", label: "filters", keep: -1 },
        { keys: "↑↓", label: "rules" },
        ...(detail ? [] : filterListHints(filter)),
        { keys: "r", label: "refresh" }
      ]
    }
  )

  const columns = usePaneSize().columns
  const table = ruleTable(columns)

  const dialogView = () => {
    // Kept (hidden) while the screen is covered, so what is typed in it outlives a too-small terminal.
    if (dialog === undefined) return null
    switch (dialog.kind) {
      case "create":
        return (
          <CreateRuleFlow
            key={JSON.stringify([dialog.start ?? null, dialog.combined === true])}
            {...flow}
            plan={plan}
            start={dialog.start}
            combined={dialog.combined === true}
            onReopen={(start) => setDialog({ kind: "create", start, combined: dialog.combined })}
          />
        )
      case "edit":
        return <EditRuleFlow {...flow} rule={dialog.rule} />
      case "delete":
        return (
          <DeleteRuleFlow
            key={String(dialog.deleted !== undefined)}
            {...flow}
            rule={dialog.rule}
            deleted={dialog.deleted}
            onReopen={(deleted) => setDialog({ kind: "delete", rule: dialog.rule, deleted })}
          />
        )
      case "pause": {
        const r = dialog.rule
        const name = ruleName(rules, r)
        return (
          <ConfirmDialog
            title={`${r.paused ? "Resume" : "Pause"} rule ${name}?`}
            lines={[r.paused ? `It will ${r.action} matching requests again.` : "It stops running until resumed (p)."]}
            confirmLabel={r.paused ? "resume" : "pause"}
            requests={[updateRuleRequest(zone.id, r, { paused: !r.paused })]}
            onConfirm={() => {
              close()
              run(
                setRulePaused(zone.id, r.id, !r.paused),
                (u) => (notify.done(`${u.paused ? "Paused" : "Resumed"} rule ${name}`), changed()),
                "pause the rule",
                { where: zone.name, what: `${r.paused ? "resumed" : "paused"} firewall rule ${name}` }
              )
            }}
            onCancel={close}
          />
        )
      }
      case "request":
        return (
          <TextPrompt
            key="request"
            title={`Test a request to zone ${zone.name}`}
            help='JSON: field to value, e.g. {"http.request.uri.path": "/admin", "ip.src": "192.0.2.1"}'
            check={requestProblem}
            submitLabel="test"
            onSubmit={(t) => {
              close()
              run(
                testRequest(zone.id, JSON.parse(t)),
                (d) => (setTested(decisionText(rules, d)), notify.clear()),
                "test the request"
              )
            }}
            onCancel={close}
          />
        )
    }
  }

  const open = dialogView()
  if (filtersOn === true && open === null)
    return (
      <FiltersView
        zone={zone}
        rules={rules}
        plan={plan}
        active={active}
        height={height}
        priority={priority}
        onRulesChanged={changed}
        onClose={() => setFiltersOn(undefined)}
      />
    )
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        Firewall rules of {zone.name} <Text dimColor>· in evaluation order (priority, then action)</Text>
      </Text>
      {query._tag === "Loading" ? <Loading what="firewall rules" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not read the firewall rules" error={query.error} /> : null}
      {open ??
        (detail && current !== undefined ? (
          <RuleDetail rules={rules} rule={current} height={Math.max(3, height - 1)} />
        ) : (
          <Box flexDirection="column">
            <FilterBar filter={filter} what="description, expression, action" />
            {query._tag === "Success" && rules.length === 0 ? (
              <Empty
                what="No firewall rules on this zone."
                next="n creates one (a filter, then the rule); t tests a request"
              />
            ) : null}
            {rules.length > 0 && shown.length === 0 ? (
              <Empty what={`No rules match "${filter.text.trim()}".`} next="esc clears the filter" />
            ) : null}
            {shown.length > 0 ? (
              <List
                items={shown}
                index={cursor.index}
                height={rows}
                row={(r) => table.row(r, ruleNumber(rules, r))}
                rowKey={(r) => r.id}
                header={table.header}
                focused={active}
              />
            ) : null}
            <Text wrap="truncate-end">
              <ListStatus index={cursor.index} loaded={shown.length} total={shown.length} loading={false} />
              {filter.text !== "" && shown.length > 0 ? <Text dimColor>{` of ${rules.length} rules`}</Text> : " "}
            </Text>
            <Box height={2} flexShrink={0} overflow="hidden">
              <Text dimColor wrap="wrap">
                {current !== undefined ? ruleSummary(rules, current) : ""}
              </Text>
            </Box>
            <Text wrap="truncate-end">
              {test !== undefined ? (
                <Text>
                  <Text dimColor>test: </Text>
                  {test}
                </Text>
              ) : (
                " "
              )}
            </Text>
            {busy ? <Text color="cyan">… working</Text> : <Text> </Text>}
          </Box>
        ))}
    </Box>
  )
}
