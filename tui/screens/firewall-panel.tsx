/**
 * A zone's firewall rules (the zone's Firewall tab): the rules in evaluation order with action,
 * paused state and expression; a new rule typed with live diagnostics from the rules checker under
 * the expression (the recommended two-step create); pause/resume; delete (destructive dialog);
 * testing a request typed as JSON. The panel only calls the firewall service.
 */
import * as Effect from "effect/Effect"
import { Box, Text } from "ink"
import { useState } from "react"
import { BypassProducts, FirewallActions, isDeletedFilter, type FirewallAction, type FirewallDecision, type Rule } from "../../src/domain/firewall.js"
import { check, orderRules, validateRequest, type Plan } from "../../src/rules/index.js"
import { allRules, createRuleTwoStep, deleteRule, setRulePaused, testRequest } from "../../src/services/firewall.js"
import { cells, flexWidth } from "../components/columns.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { List, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { TextPrompt } from "../components/text-prompt.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useActions } from "../actions.js"
import { useNotify } from "../notices.js"
import { useEffectQuery } from "../runtime.js"
import { usePaneSize } from "../terminal.js"

type Dialog =
  | { readonly kind: "expression" }
  | { readonly kind: "action"; readonly expression: string }
  | { readonly kind: "products"; readonly expression: string }
  | { readonly kind: "pause"; readonly rule: Rule }
  | { readonly kind: "delete"; readonly rule: Rule }
  | { readonly kind: "request" }

const Plans: ReadonlyArray<string> = ["free", "pro", "business", "enterprise"]

/** The checker's first error for what is typed so far (shown live under the field), or undefined. */
export const liveDiagnostic = (text: string, plan?: Plan): string | undefined => {
  if (text.trim() === "") return "type a filter expression, e.g. http.request.uri.path contains \"/admin\""
  const e = check(text, plan !== undefined ? { plan } : {}).diagnostics.find((d) => d.severity === "error")
  if (e === undefined) return undefined
  return `error[${e.code}] at ${e.range.start + 1}: ${e.message}${e.hint !== undefined ? ` · ${e.hint}` : ""}`
}

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

const expressionOf = (r: Rule) => (isDeletedFilter(r.filter) ? `(filter ${r.filter.id} was deleted)` : r.filter.expression)

const decisionText = (d: FirewallDecision) =>
  d.rule === null
    ? `no rule decides: the request goes through (${d.evaluated} evaluated${d.logged.length > 0 ? `, logged by ${d.logged.length}` : ""})`
    : `${d.action!.toUpperCase()} by ${d.rule.description ?? d.rule.id} (rule ${d.evaluated} in order${d.logged.length > 0 ? `, logged by ${d.logged.length}` : ""}${d.bypassed.length > 0 ? `, bypassed ${d.bypassed.flatMap((b) => b.products).join(", ")}` : ""})`

/** Lines besides the rows: title, header, detail 2, test, working. */
const Chrome = 6

export interface FirewallPanelProps {
  readonly zone: { readonly id: string; readonly name: string; readonly plan?: { readonly legacy_id?: string | undefined } | undefined }
  readonly active: boolean
  readonly height: number
  /** The key layer: the zone's tab (default) or the Firewall screen. */
  readonly priority?: number
}

export function FirewallPanel({ zone, active, height, priority = KeyLayer.tab }: FirewallPanelProps) {
  const plan = Plans.includes(zone.plan?.legacy_id ?? "") ? (zone.plan!.legacy_id as Plan) : undefined
  const { query, refresh } = useEffectQuery(() => Effect.map(allRules(zone.id), (rs) => orderRules(rs as ReadonlyArray<Rule & { action: FirewallAction }>)), [zone.id])
  const rules: ReadonlyArray<Rule> = query._tag === "Success" ? query.value : []
  const rows = Math.max(2, height - Chrome)
  const cursor = useListCursor(rules.length, rows, [zone.id])
  const current = rules[cursor.index]
  const [dialog, setDialog] = useState<Dialog | undefined>(undefined)
  const notify = useNotify()
  const { run, busy } = useActions()
  const [tested, setTested] = useState<string | undefined>(undefined)


  const create = (expression: string, action: FirewallAction, products?: ReadonlyArray<string>) => {
    setDialog(undefined)
    run(
      createRuleTwoStep(zone.id, { expression }, { action, ...(products ? { products } : {}) }),
      (r) => {
        notify.done(`Created filter ${r.filter.id} and rule ${r.rule.id} (${action})`)
        refresh()
      },
      "create the rule"
    )
  }

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      const needRule = () => {
        notify.warn(busy ? "busy: wait for the last change" : "no rule selected: n creates one")
        return true
      }
      switch (press.name) {
        case "n":
          setDialog({ kind: "expression" })
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
      active: active && dialog === undefined,
      hints: [
        { keys: "↑↓", label: "rules" },
        { keys: "n", label: "new rule" },
        ...(current !== undefined ? [{ keys: "p", label: current.paused ? "resume" : "pause" }, { keys: "d", label: "delete" }] : []),
        { keys: "t", label: "test request" },
        { keys: "r", label: "refresh" }
      ]
    }
  )

  const columns = usePaneSize().columns
  const expr = flexWidth(columns, [3, 8, 17, 6, 24])
  const header = cells([["#", 3], ["PRIORITY", 8], ["ACTION", 17], ["PAUSED", 6], ["DESCRIPTION", 24], ["EXPRESSION", expr]])
  const row = (r: Rule) =>
    cells([
      [String(rules.indexOf(r) + 1), 3],
      [r.priority === null ? "none" : String(r.priority), 8],
      [r.action, 17],
      [r.paused ? "paused" : "", 6],
      [r.description ?? "", 24],
      [expressionOf(r), expr]
    ])

  const dialogView = () => {
    if (dialog === undefined || !active) return null
    switch (dialog.kind) {
      case "expression":
        return (
          <TextPrompt
            key="expression"
            title={`New firewall rule on zone ${zone.name}: its filter expression`}
            help="checked as you type; a new filter is created, then the rule"
            check={(t) => liveDiagnostic(t, plan)}
            submitLabel="choose the action"
            onSubmit={(expression) => setDialog({ kind: "action", expression })}
            onCancel={() => setDialog(undefined)}
          />
        )
      case "action":
        return (
          <TextPrompt
            key="action"
            title="Action"
            help={FirewallActions.join(", ")}
            check={(t) => ((FirewallActions as ReadonlyArray<string>).includes(t.trim()) ? undefined : `one of ${FirewallActions.join(", ")}`)}
            submitLabel="create"
            onSubmit={(a) =>
              a.trim() === "bypass" ? setDialog({ kind: "products", expression: dialog.expression }) : create(dialog.expression, a.trim() as FirewallAction)
            }
            onCancel={() => setDialog(undefined)}
          />
        )
      case "products":
        return (
          <TextPrompt
            key="products"
            title="What bypass skips (comma-separated)"
            help={BypassProducts.join(", ")}
            check={(t) => {
              const ps = t.split(",").map((s) => s.trim()).filter((s) => s !== "")
              const bad = ps.find((p) => !(BypassProducts as ReadonlyArray<string>).includes(p))
              return ps.length === 0 ? "at least one product" : bad !== undefined ? `unknown product ${bad}` : undefined
            }}
            submitLabel="create"
            onSubmit={(t) => create(dialog.expression, "bypass", t.split(",").map((s) => s.trim()).filter((s) => s !== ""))}
            onCancel={() => setDialog(undefined)}
          />
        )
      case "pause": {
        const r = dialog.rule
        return (
          <ConfirmDialog
            title={`${r.paused ? "Resume" : "Pause"} rule ${r.description ?? r.id}?`}
            lines={[r.paused ? `It will ${r.action} matching requests again.` : "It stops running until resumed (p)."]}
            confirmLabel={r.paused ? "resume" : "pause"}
            onConfirm={() => {
              setDialog(undefined)
              run(setRulePaused(zone.id, r.id, !r.paused), (u) => (notify.done(`${u.paused ? "Paused" : "Resumed"} rule ${u.description ?? u.id}`), refresh()), "pause the rule")
            }}
            onCancel={() => setDialog(undefined)}
          />
        )
      }
      case "delete": {
        const r = dialog.rule
        return (
          <ConfirmDialog
            title={`Delete rule ${r.description ?? r.id}?`}
            lines={[`${r.action}: ${expressionOf(r)}`, `Its filter ${r.filter.id} stays (other rules may use it).`]}
            confirmLabel="delete"
            destructive
            onConfirm={() => {
              setDialog(undefined)
              run(deleteRule(zone.id, r.id), () => (notify.done(`Deleted rule ${r.description ?? r.id}; its filter stays`), refresh()), "delete the rule")
            }}
            onCancel={() => setDialog(undefined)}
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
              setDialog(undefined)
              run(testRequest(zone.id, JSON.parse(t)), (d) => (setTested(decisionText(d)), notify.clear()), "test the request")
            }}
            onCancel={() => setDialog(undefined)}
          />
        )
    }
  }

  const open = dialogView()
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold>
        Firewall rules of {zone.name} <Text dimColor>(evaluation order: priority, then action)</Text>
      </Text>
      {query._tag === "Loading" ? <Loading what="firewall rules" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not read the firewall rules" error={query.error} /> : null}
      {open ?? (
        <Box flexDirection="column">
          {query._tag === "Success" && rules.length === 0 ? <Empty what="No firewall rules on this zone." next="n creates one (a filter, then the rule); t tests a request" /> : null}
          {rules.length > 0 ? <List items={rules} index={cursor.index} height={rows} row={row} rowKey={(r) => r.id} header={header} focused={active} /> : null}
          <Box height={2} flexShrink={0} overflow="hidden">
            <Text dimColor wrap="wrap">
              {current !== undefined ? `rule ${current.id} · filter ${current.filter.id}${current.products ? ` · skips ${current.products.join(", ")}` : ""}: ${expressionOf(current)}` : ""}
            </Text>
          </Box>
          <Text wrap="truncate-end">{tested !== undefined ? <Text><Text dimColor>test: </Text>{tested}</Text> : " "}</Text>
          {busy ? <Text color="cyan">… working</Text> : <Text> </Text>}
        </Box>
      )}
    </Box>
  )
}
