/**
 * The Firewall tab's dialogs, each a short flow of TextPrompts and confirmations that offers what
 * the CLI offers: a new rule (expression, action, products for bypass, priority, description; an
 * expression that already has a filter is offered for reuse), editing a rule's priority and
 * description (the delete is ./firewall-delete.tsx). Every field is
 * checked as typed with the rule checks the CLI and the platform use (src/firewall/rule-input.ts),
 * and the whole rule before its filter is created.
 */
import * as Either from "effect/Either"
import * as Effect from "effect/Effect"
import { useState } from "react"
import { BypassProducts, FirewallActions, type Rule } from "../../src/domain/firewall.js"
import {
  checkRule,
  priorityFromText,
  priorityRange,
  type RuleField,
  type RuleText
} from "../../src/firewall/rule-input.js"
import type { Plan } from "../../src/rules/index.js"
import {
  createRuleCombined,
  createRuleCombinedRequest,
  createRuleOnFilter,
  createRuleTwoStep,
  updateRule
} from "../../src/services/firewall-service.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { TextPrompt } from "../components/text-prompt.js"
import type { Services } from "../runtime.js"
import type { Notify } from "../notices.js"
import {
  descriptionCounter,
  inEvaluationOrder,
  liveDiagnostic,
  otherUsers,
  priorityProblem,
  priorityText,
  ruleName
} from "./firewall-table.js"

type Run = <A, E>(
  effect: Effect.Effect<A, E, Services>,
  onOk: (a: A) => void,
  what: string,
  /** A write's place and words, for the session log (`L`). */
  write?: { readonly where: string; readonly what: string }
) => void

export interface FlowProps {
  readonly zone: { readonly id: string; readonly name: string }
  /** The zone's rules in evaluation order (the table's). */
  readonly rules: ReadonlyArray<Rule>
  readonly run: Run
  readonly notify: Notify
  /** Reloads the rules. */
  readonly refresh: () => void
  readonly onClose: () => void
}

/** The first problem of `field` in a rule typed so far, as one readable line. */
const problemOf = (t: RuleText, field: RuleField): string | undefined => {
  const checked = checkRule(t)
  const p = Either.isRight(checked) ? undefined : checked.left.find((x) => x.field === field)
  return p === undefined ? undefined : `${field} ${p.message}`
}

/** Where a rule created now lands in evaluation order, named as the table will name it. */
const nameOfNew = (rules: ReadonlyArray<Rule>, r: Rule) => ruleName(inEvaluationOrder([...rules, r]), r)

/** `#3 bad bots (block)`; a rule without a description is already named by its action (issue 29:
 *  `(block, no description) (block)`). */
const createdName = (rules: ReadonlyArray<Rule>, r: Rule) =>
  `${nameOfNew(rules, r)}${r.description !== undefined && r.description !== "" ? ` (${r.action})` : ""}`

export type CreateStep =
  | { readonly kind: "expression" }
  | { readonly kind: "action"; readonly expression: string }
  | { readonly kind: "products"; readonly expression: string; readonly action: string }
  | { readonly kind: "priority"; readonly expression: string; readonly rule: RuleText }
  | { readonly kind: "description"; readonly expression: string; readonly rule: RuleText }
  | { readonly kind: "reuse"; readonly expression: string; readonly rule: RuleText; readonly filterId: string }
  | { readonly kind: "confirm"; readonly expression: string; readonly rule: RuleText }

/**
 * `n`: a new rule, in the recommended two steps (its filter, then the rule); `N` (`combined`): the
 * same fields, then a confirmation (`v`: the request) of the combined call, `firewall rules create
 * --combined`: one POST with the filter inside. The flow closes while the platform works; a
 * duplicate expression reopens it (`onReopen`) at the reuse question. Over the quota the combined
 * call may create the filter alone: the error says so, and the filters (`f`) show it.
 */
export function CreateRuleFlow({
  zone,
  rules,
  run,
  notify,
  refresh,
  onClose,
  plan,
  start,
  onReopen,
  combined = false
}: FlowProps & {
  readonly plan: Plan | undefined
  readonly start?: CreateStep | undefined
  readonly onReopen: (s: CreateStep) => void
  readonly combined?: boolean
}) {
  const [shown, next] = useState<CreateStep>(start ?? { kind: "expression" })
  const create = (expression: string, rule: RuleText) => {
    const checked = checkRule(rule)
    if (Either.isLeft(checked))
      return notify.warn(`not created: ${checked.left.map((p) => `${p.field} ${p.message}`).join("; ")}`)
    onClose()
    const input = checked.right
    const filter = { expression, description: input.description }
    run(
      (combined
        ? Effect.map(createRuleCombined(zone.id, filter, input), (rule) => ({ rule }))
        : createRuleTwoStep(zone.id, filter, input)
      ).pipe(
        Effect.map((r) => ({ created: r.rule, filterId: undefined as string | undefined })),
        // The expression already has a filter (10102, which names it): offer to reuse it.
        Effect.catchTag("DuplicateFilter", (e) => Effect.succeed({ created: undefined, filterId: e.existingId }))
      ),
      (r) => {
        if (r.created !== undefined) {
          notify.done(`Created ${createdName(rules, r.created)} with a new filter${combined ? " in one call" : ""}`)
          refresh()
        } else onReopen({ kind: "reuse", expression, rule, filterId: r.filterId! })
      },
      "create the rule",
      {
        where: zone.name,
        what: `created a firewall rule (${input.action}) on ${expression}${combined ? " in one call" : ""}`
      }
    )
  }
  const cancel = onClose
  switch (shown.kind) {
    case "expression":
      return (
        <TextPrompt
          key="expression"
          title={`New rule on ${zone.name}${combined ? " in one call" : ""}: its filter expression`}
          help={
            combined
              ? "checked as you type; the filter and the rule go in one request, after a confirmation"
              : "checked as you type; a new filter is created, then the rule"
          }
          check={(t) => liveDiagnostic(t, plan)}
          newlines="keep"
          submitLabel="choose the action"
          onSubmit={(expression) => next({ kind: "action", expression })}
          onCancel={cancel}
        />
      )
    case "action":
      return (
        <TextPrompt
          key="action"
          title="Action"
          help={FirewallActions.join(", ")}
          check={(t) => problemOf({ action: t }, "action")}
          submitLabel="next"
          onSubmit={(a) =>
            a.trim() === "bypass"
              ? next({ kind: "products", expression: shown.expression, action: "bypass" })
              : next({ kind: "priority", expression: shown.expression, rule: { action: a.trim() } })
          }
          onCancel={cancel}
        />
      )
    case "products":
      return (
        <TextPrompt
          key="products"
          title="What bypass skips (comma-separated)"
          help={BypassProducts.join(", ")}
          check={(t) => problemOf({ action: "bypass", products: t }, "products")}
          submitLabel="next"
          onSubmit={(t) =>
            next({ kind: "priority", expression: shown.expression, rule: { action: "bypass", products: t } })
          }
          onCancel={cancel}
        />
      )
    case "priority":
      return (
        <TextPrompt
          key="priority"
          title="Priority (lower runs first)"
          help={`${priorityRange}; empty: none, after every rule with a priority`}
          check={priorityProblem}
          submitLabel="next"
          onSubmit={(t) =>
            next({ kind: "description", expression: shown.expression, rule: { ...shown.rule, priority: t } })
          }
          onCancel={cancel}
        />
      )
    case "description":
      return (
        <TextPrompt
          key="description"
          title="Description (names the rule; optional)"
          help="at most 500 characters; empty: none"
          counter={descriptionCounter}
          check={(t) => problemOf({ ...shown.rule, description: t }, "description")}
          submitLabel={combined ? "review" : "create"}
          onSubmit={(t) =>
            combined
              ? next({ kind: "confirm", expression: shown.expression, rule: { ...shown.rule, description: t } })
              : create(shown.expression, { ...shown.rule, description: t })
          }
          onCancel={cancel}
        />
      )
    case "confirm": {
      const checked = checkRule(shown.rule)
      if (Either.isLeft(checked)) return null
      const rule = checked.right
      return (
        <ConfirmDialog
          title={`Create a ${rule.action} rule on ${zone.name} in one call?`}
          lines={[
            `Expression: ${shown.expression}`,
            "One POST creates the filter and the rule; over the rule quota the platform may keep the filter alone."
          ]}
          confirmLabel="create"
          requests={[
            createRuleCombinedRequest(zone.id, { expression: shown.expression, description: rule.description }, rule)
          ]}
          onConfirm={() => create(shown.expression, shown.rule)}
          onCancel={cancel}
        />
      )
    }
    case "reuse": {
      const users = otherUsers(rules, shown.filterId)
      const rule = checkRule(shown.rule)
      return (
        <ConfirmDialog
          title="This expression already has a filter: reuse it?"
          lines={[
            `Filter ${shown.filterId}: ${shown.expression}`,
            users.length > 0
              ? `Rules using it: ${users.map((u) => ruleName(rules, u)).join(", ")}.`
              : "No rule uses it (a deleted rule's filter stays).",
            "y creates the rule on this filter; n or esc creates nothing."
          ]}
          confirmLabel="create the rule on it"
          onConfirm={() => {
            cancel()
            if (Either.isLeft(rule)) return
            run(
              createRuleOnFilter(zone.id, shown.filterId, rule.right),
              (r) => {
                notify.done(`Created ${createdName(rules, r)} on the existing filter`)
                refresh()
              },
              "create the rule",
              { where: zone.name, what: `created a firewall rule (${rule.right.action}) on filter ${shown.filterId}` }
            )
          }}
          onCancel={cancel}
        />
      )
    }
  }
}

/** `e`: a rule's priority, then its description; empty keeps what is there. */
export function EditRuleFlow({
  zone,
  rules,
  run,
  notify,
  refresh,
  onClose,
  rule
}: FlowProps & { readonly rule: Rule }) {
  const [priority, setPriority] = useState<string | undefined>(undefined)
  const name = ruleName(rules, rule)
  if (priority === undefined) {
    return (
      <TextPrompt
        key="edit-priority"
        title={`Priority of ${name} (now ${priorityText(rule)})`}
        help={`${priorityRange}; empty keeps ${priorityText(rule)}`}
        check={priorityProblem}
        submitLabel="next"
        onSubmit={setPriority}
        onCancel={onClose}
      />
    )
  }
  return (
    <TextPrompt
      key="edit-description"
      title={`Description of ${name}`}
      help={`now ${rule.description ? JSON.stringify(rule.description) : "none"}; at most 500 characters; empty keeps it`}
      counter={descriptionCounter}
      check={(t) => problemOf({ action: rule.action, description: t }, "description")}
      submitLabel="save"
      onSubmit={(t) => {
        onClose()
        const p = priorityFromText(priority)
        const changes = { priority: Either.getOrUndefined(p), description: t === "" ? undefined : t }
        if (changes.priority === undefined && changes.description === undefined)
          return notify.done(`Nothing changed on ${name}`)
        run(
          updateRule(zone.id, rule.id, changes),
          (u) => {
            notify.done(`Saved ${ruleName(inEvaluationOrder(rules.map((x) => (x.id === u.id ? u : x))), u)}`)
            refresh()
          },
          "edit the rule",
          { where: zone.name, what: `edited firewall rule ${rule.id}: ${Object.keys(changes).join(", ")}` }
        )
      }}
      onCancel={onClose}
    />
  )
}
