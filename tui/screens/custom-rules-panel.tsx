/**
 * The zone's custom rules (the `http_request_firewall_custom` phase) on its Firewall tab, `c`: in
 * the order they run, with action, enabled and expression; `e` enables or disables one and `d`
 * deletes one, each after a confirmation. Its dialogs are kept with their zone (useZoneScoped).
 */
import { Box, Text } from "ink"
import type { ZoneRule } from "../../src/domain/ruleset.js"
import { deleteCustomRule, getCustomRules, updateCustomRule } from "../../src/services/rulesets-service.js"
import { useActions } from "../actions.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { List, useListCursor } from "../components/list.js"
import { Empty, ErrorView, Loading } from "../components/states.js"
import { KeyLayer, useKeys } from "../keys.js"
import { useNotify } from "../notices.js"
import { useEffectQuery } from "../runtime.js"
import { useZoneScoped } from "../state.js"

/** A custom rule's action as one word or two: a skip names what it skips. */
export const customAction = (r: {
  readonly action: string
  readonly action_parameters?:
    | {
        readonly ruleset?: string | undefined
        readonly products?: ReadonlyArray<string> | undefined
        readonly phases?: ReadonlyArray<string> | undefined
      }
    | undefined
}): string => {
  if (r.action !== "skip") return r.action
  const p = r.action_parameters
  if (p?.ruleset === "current") return "skip rest"
  return `skip ${[...(p?.products ?? []), ...(p?.phases ?? [])].join(",")}`
}

const rowText = (r: ZoneRule, i: number) =>
  `${`#${i + 1}`.padEnd(4)}${customAction(r).padEnd(22)} ${(r.enabled ? "on" : "off").padEnd(4)}${r.expression}`

type Dialog = { readonly kind: "toggle" | "delete"; readonly rule: ZoneRule; readonly place: number }

/** Title, header, description 2, working. */
const Chrome = 5

export function CustomRulesPanel({
  zone,
  active,
  height
}: {
  readonly zone: { readonly id: string; readonly name: string }
  readonly active: boolean
  readonly height: number
}) {
  const { query, refresh } = useEffectQuery(() => getCustomRules(zone.id), [zone.id])
  const ruleset = query._tag === "Success" ? query.value : null
  const rules = ruleset?.rules ?? []
  const listRows = Math.max(2, height - Chrome)
  const cursor = useListCursor(rules.length, listRows, [zone.id])
  const current = rules[cursor.index]
  const [dialog, setDialog] = useZoneScoped<Dialog>(zone.id)
  const notify = useNotify()
  const { run, busy } = useActions()
  const close = () => setDialog(undefined)

  useKeys(
    (press) => {
      if (cursor.move(press)) return true
      if (current === undefined || busy !== undefined) return false
      switch (press.name) {
        case "e":
        case "d":
          setDialog({ kind: press.name === "e" ? "toggle" : "delete", rule: current, place: cursor.index + 1 })
          return true
        default:
          return false
      }
    },
    {
      priority: KeyLayer.tab,
      active: active && dialog === undefined,
      hints:
        current === undefined
          ? []
          : [
              { keys: "↑↓", label: "rules" },
              { keys: "e", label: current.enabled ? "disable" : "enable" },
              { keys: "d", label: "delete" }
            ]
    }
  )

  if (dialog !== undefined && active && ruleset !== null) {
    const r = dialog.rule
    const name = `#${dialog.place}${r.description ? ` (${r.description})` : ""}`
    if (dialog.kind === "toggle")
      return (
        <ConfirmDialog
          title={`${r.enabled ? "Disable" : "Enable"} custom rule ${name}?`}
          lines={[`${customAction(r)}: ${r.expression}`]}
          confirmLabel={r.enabled ? "disable" : "enable"}
          onConfirm={() => {
            close()
            const { id: _id, version: _v, last_updated: _t, ...rest } = r
            run(
              updateCustomRule(zone.id, ruleset.id, r.id, { ...rest, enabled: !r.enabled }),
              () => (notify.done(`${r.enabled ? "Disabled" : "Enabled"} custom rule ${name}`), refresh()),
              "change the custom rule"
            )
          }}
          onCancel={close}
        />
      )
    return (
      <ConfirmDialog
        title={`Delete custom rule ${name}?`}
        lines={[`${customAction(r)}: ${r.expression}`, "It stops running at once; the ruleset keeps a new version."]}
        confirmLabel="delete"
        destructive
        onConfirm={() => {
          close()
          run(
            deleteCustomRule(zone.id, ruleset.id, r.id),
            () => (notify.done(`Deleted custom rule ${name}`), refresh()),
            "delete the custom rule"
          )
        }}
        onCancel={close}
      />
    )
  }

  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        Custom rules of {zone.name} <Text dimColor>· http_request_firewall_custom, in run order</Text>
      </Text>
      {query._tag === "Loading" ? <Loading what="custom rules" /> : null}
      {query._tag === "Failure" ? <ErrorView what="could not read the custom rules" error={query.error} /> : null}
      {query._tag === "Success" && rules.length === 0 ? (
        <Empty what="No custom rules on this zone." next="m previews the migration of its firewall rules" />
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
  )
}
