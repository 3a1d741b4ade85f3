/**
 * The zone's custom rules (the `http_request_firewall_custom` phase) on its Firewall tab, `c`, in
 * the order they run, with the firewall panel's keys: enter shows one whole, `n` adds one and `e`
 * edits one (./custom-rule-form.tsx), `p` disables or enables, `d` deletes (each after a
 * confirmation), `K`/`J` move one up or down and `o` to a place. Every write goes through the
 * rulesets service (locally and with --remote) and answers the whole ruleset, which the list shows
 * at once, the cursor on the rule written; a refusal shows whole in the panel. The dialogs, the
 * detail view and the refusal are kept with their zone (useZoneScoped).
 */
import type * as Effect from "effect/Effect"
import { Box, Text } from "ink"
import { useEffect, useState } from "react"
import type { ZoneRule, ZoneRuleset } from "../../src/domain/ruleset.js"
import type { Plan } from "../../src/rules/index.js"
import * as Rs from "../../src/services/rulesets-service.js"
import { useActions } from "../actions.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { List, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { TextPrompt } from "../components/text-prompt.js"
import type { UiError } from "../errors.js"
import { KeyLayer, useHoldKeys, useKeys } from "../keys.js"
import { useNotify } from "../notices.js"
import type { Services } from "../runtime.js"
import { useZoneScoped } from "../state.js"
import { CustomRuleDetail, customAction, ruleLabel } from "./custom-rule-detail.js"
import { CustomRuleForm } from "./custom-rule-form.js"
import { useZoneQuery } from "./custom-rules-query.js"

const rowText = (r: ZoneRule, i: number) =>
  `${`#${i + 1}`.padEnd(4)}${customAction(r).padEnd(22)} ${(r.enabled ? "on" : "off").padEnd(4)}${r.expression}`

type Dialog =
  | { readonly kind: "add" }
  | { readonly kind: "edit" | "toggle" | "delete" | "place"; readonly rule: ZoneRule; readonly place: number }

/** A write the platform refused, as the panel shows it until the next key. */
interface Refusal {
  readonly what: string
  readonly error: UiError
}

/** Title, header, description 2, working. */
const Chrome = 5

const Plans: ReadonlyArray<string> = ["free", "pro", "business", "enterprise"]

/** What the platform's refusal of a rule write calls for. */
const refusalHint = (e: UiError) =>
  e.code === undefined
    ? "r reads the rules again"
    : /at most .* custom rules/.test(e.message)
      ? "the plan's limit: delete (d) or merge rules first"
      : /expression/.test(e.message)
        ? "correct the expression: n adds a rule, e edits one"
        : "r reads the rules again; e edits, n adds"

export function CustomRulesPanel({
  zone,
  active,
  height
}: {
  readonly zone: {
    readonly id: string
    readonly name: string
    readonly plan?: { readonly legacy_id?: string | undefined } | undefined
  }
  readonly active: boolean
  readonly height: number
}) {
  const plan = Plans.includes(zone.plan?.legacy_id ?? "") ? (zone.plan!.legacy_id as Plan) : undefined
  const { query, refresh } = useZoneQuery(zone.id, () => Rs.getCustomRules(zone.id))
  // A write answers the whole ruleset: shown at once, and while the list is read again.
  const [written, setWritten] = useZoneScoped<{ readonly rs: ZoneRuleset | null }>(zone.id)
  // The write's answer wins over the list read before it, until the list is read again: a key that
  // waited for the write acts on the rules it left (issue 29: `K K K` moved a rule two places).
  const read = query._tag === "Success" ? query.value : undefined
  useEffect(() => {
    if (read !== undefined) setWritten(undefined)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new answer of the list clears it
  }, [read])
  const ruleset = written !== undefined ? written.rs : (read ?? null)
  const rules = ruleset?.rules ?? []
  const listRows = Math.max(2, height - Chrome)
  const cursor = useListCursor(rules.length, listRows, [zone.id], { items: rules, key: (r) => r.id })
  const current = rules[cursor.index]
  const [dialog, setDialog] = useZoneScoped<Dialog>(zone.id)
  const [detailOn, setDetail] = useZoneScoped<true>(zone.id)
  const [refusal, setRefusal] = useZoneScoped<Refusal>(zone.id)
  // The rule the cursor goes to once the list has it (the one added, edited or moved).
  const [focus, setFocus] = useZoneScoped<string>(zone.id)
  const [busy, setBusy] = useState<string | undefined>(undefined)
  // Keys pressed while a write runs wait for its answer (issue 29: `K K K` moved a rule two places).
  // ... and keys pressed before the rules are read wait for them (a `G` then has a last row to go to).
  useHoldKeys(busy !== undefined || (active && query._tag === "Loading" && written === undefined))
  const notify = useNotify()
  const { start } = useActions()
  const close = () => setDialog(undefined)

  const focusAt = focus === undefined ? -1 : rules.findIndex((r) => r.id === focus)
  useEffect(() => {
    if (focusAt < 0) return
    if (focusAt !== cursor.index) cursor.moveBy(focusAt - cursor.index)
    else setFocus(undefined)
  })

  /** Sends a write; its answer replaces the list, `pick` names the rule the cursor goes to. */
  const write = (
    what: string,
    effect: Effect.Effect<ZoneRuleset | null, unknown, Services>,
    done: (rs: ZoneRuleset | null) => string,
    pick?: (rs: ZoneRuleset | null) => string | undefined
  ) => {
    setBusy(what)
    setRefusal(undefined)
    void start(effect).then((r) => {
      if (r === undefined) return
      setBusy(undefined)
      if (!r.ok) return setRefusal({ what, error: r.error })
      setWritten({ rs: r.value })
      const id = pick?.(r.value)
      if (id !== undefined) setFocus(id)
      notify.done(`${done(r.value)} on ${zone.name}`)
      refresh()
    })
  }
  const placeOf = (rs: ZoneRuleset | null, id: string | undefined) =>
    (rs?.rules.findIndex((r) => r.id === id) ?? -1) + 1

  const move = (rule: ZoneRule, position: Rs.RulePosition, name: string) =>
    write(
      "move the custom rule",
      Rs.moveCustomRule(zone.id, ruleset!.id, rule.id, position),
      (rs) => `Moved custom rule ${name} to #${placeOf(rs, rule.id)}`,
      () => rule.id
    )

  useKeys(
    (press) => {
      // The key that dismisses a refusal does only that: it was pressed to read past it.
      if (refusal !== undefined) {
        setRefusal(undefined)
        return true
      }
      if (cursor.move(press)) return true
      if (press.name === "r") {
        refresh()
        return true
      }
      if (busy !== undefined) return false
      if (press.name === "n") {
        // Unread rules are not "no rules": a rule added then would create the entry point blind.
        if (query._tag !== "Success" && written === undefined)
          notify.warn("the custom rules are not read yet: r reads them")
        else setDialog({ kind: "add" })
        return true
      }
      if (current === undefined || ruleset === null) return false
      const at = cursor.index
      switch (press.name) {
        case "enter":
          setDetail(detailOn === true ? undefined : true)
          return true
        case "escape":
        case "backspace":
          if (detailOn !== true) return false
          setDetail(undefined)
          return true
        case "e":
          setDialog({ kind: "edit", rule: current, place: at + 1 })
          return true
        case "p":
          setDialog({ kind: "toggle", rule: current, place: at + 1 })
          return true
        case "d":
          setDialog({ kind: "delete", rule: current, place: at + 1 })
          return true
        case "o":
          setDialog({ kind: "place", rule: current, place: at + 1 })
          return true
        case "K":
        case "J": {
          const up = press.name === "K"
          const next = rules[at + (up ? -1 : 1)]
          if (next === undefined) notify.warn(`#${at + 1} is already ${up ? "first" : "last"}`)
          else move(current, up ? { before: next.id } : { after: next.id }, ruleLabel(current, at + 1))
          return true
        }
        default:
          return false
      }
    },
    {
      priority: KeyLayer.tab,
      active: active && dialog === undefined,
      // A refusal takes every key to dismiss it: the footer says only that, not the tab's keys below.
      modal: refusal !== undefined,
      hints:
        refusal !== undefined
          ? [{ keys: "any key", label: "dismiss", keep: 2 }]
          : [
              { keys: "n", label: "new", keep: 2 },
              ...(current === undefined
                ? []
                : [
                    { keys: "e", label: "edit", keep: 2 },
                    { keys: "p", label: current.enabled ? "disable" : "enable", keep: 2 },
                    { keys: "d", label: "delete", keep: 2 },
                    { keys: "K/J", label: "move up/down" },
                    { keys: "o", label: "move to" },
                    { keys: "enter", label: detailOn === true ? "list" : "details" },
                    ...(detailOn === true ? [{ keys: "esc", label: "list", keep: 2 }] : [])
                  ]),
              { keys: "r", label: "refresh" }
            ]
    }
  )

  const dialogView = () => {
    // Kept (hidden) while the screen is covered, so what is typed in it outlives a too-small terminal.
    if (dialog === undefined) return null
    if (dialog.kind === "add")
      return (
        <CustomRuleForm
          plan={plan}
          count={rules.length}
          onCancel={close}
          onSubmit={(rule, position) => {
            close()
            const before = new Set(rules.map((r) => r.id))
            write(
              "add the custom rule",
              ruleset === null
                ? Rs.createCustomRules(zone.id, [rule])
                : Rs.addCustomRule(zone.id, ruleset.id, rule, position),
              (rs) => {
                const added = rs?.rules.find((r) => !before.has(r.id))
                return added ? `Added custom rule ${ruleLabel(added, placeOf(rs, added.id))}` : "Added a custom rule"
              },
              (rs) => rs?.rules.find((r) => !before.has(r.id))?.id
            )
          }}
        />
      )
    if (ruleset === null) return null
    const r = dialog.rule
    const name = ruleLabel(r, dialog.place)
    switch (dialog.kind) {
      case "edit":
        return (
          <CustomRuleForm
            plan={plan}
            rule={r}
            place={dialog.place}
            count={rules.length}
            onCancel={close}
            onSubmit={(rule) => {
              close()
              write(
                "edit the custom rule",
                Rs.updateCustomRule(zone.id, ruleset.id, r.id, rule),
                (rs) => `Saved custom rule ${ruleLabel(rs?.rules.find((x) => x.id === r.id) ?? r, dialog.place)}`,
                () => r.id
              )
            }}
          />
        )
      case "place":
        return (
          <TextPrompt
            key="place"
            title={`Move custom rule ${name} to place`}
            help={`1 to ${rules.length}; it runs there, the others keep their order`}
            check={(t) => {
              const n = Number(t.trim())
              return Number.isInteger(n) && n >= 1 && n <= rules.length
                ? undefined
                : `place: expected a whole number from 1 to ${rules.length}, got ${JSON.stringify(t)}`
            }}
            submitLabel="move"
            onSubmit={(t) => {
              close()
              move(r, { index: Number(t.trim()) }, name)
            }}
            onCancel={close}
          />
        )
      case "toggle":
        return (
          <ConfirmDialog
            title={`${r.enabled ? "Disable" : "Enable"} custom rule ${name}?`}
            lines={[
              `${customAction(r)}: ${r.expression}`,
              r.enabled ? "It stops running until enabled again (p)." : "It runs again at its place."
            ]}
            confirmLabel={r.enabled ? "disable" : "enable"}
            onConfirm={() => {
              close()
              const { id: _id, version: _v, last_updated: _t, ...rest } = r
              write(
                "change the custom rule",
                Rs.updateCustomRule(zone.id, ruleset.id, r.id, { ...rest, enabled: !r.enabled }),
                () => `${r.enabled ? "Disabled" : "Enabled"} custom rule ${name}`,
                () => r.id
              )
            }}
            onCancel={close}
          />
        )
      case "delete":
        return (
          <ConfirmDialog
            title={`Delete custom rule ${name}?`}
            lines={[
              `${customAction(r)}: ${r.expression}`,
              "It stops running at once; the ruleset keeps a new version."
            ]}
            confirmLabel="delete"
            destructive
            onConfirm={() => {
              close()
              write(
                "delete the custom rule",
                Rs.deleteCustomRule(zone.id, ruleset.id, r.id),
                () => `Deleted custom rule ${name}`
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
        Custom rules of {zone.name} <Text dimColor>· http_request_firewall_custom, in run order</Text>
      </Text>
      {refusal !== undefined ? (
        <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor="red" paddingX={1}>
          <Text color="red" wrap="wrap">
            could not {refusal.what}: {refusal.error.message}
            {refusal.error.code !== undefined ? ` [code ${refusal.error.code}]` : ""}
          </Text>
          <Text dimColor wrap="wrap">
            nothing was written · hint: {refusalHint(refusal.error)} · any key dismisses
          </Text>
        </Box>
      ) : null}
      {open ??
        (detailOn === true && current !== undefined ? (
          <CustomRuleDetail rule={current} place={cursor.index + 1} height={Math.max(3, height - 1)} />
        ) : (
          <Box flexDirection="column">
            {query._tag === "Loading" && written === undefined ? <Loading what="custom rules" /> : null}
            {query._tag === "Failure" ? <ErrorView what="could not read the custom rules" error={query.error} /> : null}
            {query._tag === "Success" && rules.length === 0 ? (
              <Empty
                what="No custom rules on this zone."
                next="n adds one; m previews the migration of its firewall rules"
              />
            ) : null}
            {rules.length > 0 ? (
              <List
                items={rules.map((r, i) => ({ r, i }))}
                index={cursor.index}
                height={listRows}
                header={`${"#".padEnd(4)}${"ACTION".padEnd(22)} ${"ON".padEnd(4)}EXPRESSION`}
                row={({ r, i }) => rowText(r, i)}
                rowKey={({ r }) => r.id}
                focused={active}
              />
            ) : null}
            <Box height={2} flexShrink={0} overflow="hidden">
              <Text dimColor wrap="wrap">
                {current !== undefined ? `${current.description ?? "no description"} · ref ${current.ref}` : ""}
              </Text>
            </Box>
            {busy !== undefined ? <Text color="cyan">… working</Text> : <Text> </Text>}
          </Box>
        ))}
    </Box>
  )
}
