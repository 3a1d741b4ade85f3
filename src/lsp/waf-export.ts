/**
 * Previous-WAF exports (`edgectl waf export`, format `edgectl.waf-export/v1`): the migration shown
 * in the document, from `src/waf`'s `planMigration` (the same call as `waf config` and `waf
 * preview`). Blockers are errors, what is not migrated warnings, the mapping information; a code
 * action writes the generated configuration next to the export.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { ArrayFormatter } from "effect/ParseResult"
import { findNodeAtLocation, getNodeValue, type Node } from "jsonc-parser"
import { WafConfig, WafExport } from "../domain/waf.js"
import { PREVIOUS_OWASP_PACKAGE } from "../waf/catalog.js"
import { ACTION_MAP, planMigration, sensitivityLabel, SENSITIVITY_MAP, type SensitivityKey } from "../waf/mapping.js"
import { finding, type Finding, type Fix } from "./findings.js"
import { nameNode, nodeAtPath, rangeOf } from "./json-path.js"

const EXPORT_FORMAT = "edgectl.waf-export/v1"
const decode = Schema.decodeUnknownEither(WafExport)

export const isWafExport = (root: Node): boolean =>
  root.type === "object" && findNodeAtLocation(root, ["format"])?.value === EXPORT_FORMAT

const encodeConfig = Schema.encodeSync(WafConfig)
/** The configuration `waf config --json` prints for the zone, as file text (encoded by the wire schema: same fields, same order). */
const configText = (doc: WafExport): string => `${JSON.stringify(encodeConfig(planMigration(doc).config), null, 2)}\n`

/** `zone.waf-export.json` -> `zone.waf-config.json`; `x.json` -> `x.config.json`. */
const configFileName = (exportName: string): string => {
  const base = exportName.split("/").pop() ?? exportName
  return base.includes("waf-export")
    ? base.replace("waf-export", "waf-config")
    : base.replace(/(\.jsonc?)?$/, ".config.json")
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** What a sensitivity or an action becomes after migration (hover and information). */
export const sensitivityNote = (s: string): string | undefined =>
  s === "off"
    ? "Off: the OWASP Core Ruleset is not deployed"
    : s in SENSITIVITY_MAP
      ? `${sensitivityLabel(s as SensitivityKey)} on the OWASP Core Ruleset`
      : undefined
export const actionNote = (a: string): string | undefined =>
  a in ACTION_MAP
    ? `${cap(a)} ${ACTION_MAP[a as keyof typeof ACTION_MAP] === a ? "stays" : "becomes"} ${ACTION_MAP[a as keyof typeof ACTION_MAP]} on the OWASP Core Ruleset's score rule${a === "simulate" ? " (Simulate becomes Log)" : ""}`
    : undefined

export interface ExportCheck {
  readonly findings: Array<Finding>
  readonly actions: Array<Fix>
}

export const checkWafExport = (root: Node, uri: string): ExportCheck => {
  const decoded = decode(getNodeValue(root), { errors: "all" })
  if (Either.isLeft(decoded)) {
    const issues = ArrayFormatter.formatErrorSync(decoded.left)
    return {
      findings: issues.map((i) => {
        const node = nodeAtPath(root, i.path as Array<string | number>)
        return finding(
          "error",
          "waf-export-schema",
          `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`,
          rangeOf(node)
        )
      }),
      actions: []
    }
  }
  const doc = decoded.right
  const plan = planMigration(doc)
  const out: Array<Finding> = []
  const at = (...path: Array<string | number>) => nodeAtPath(root, path)

  for (const b of plan.blockers) {
    if (b.code === "uri_override") {
      doc.overrides.forEach((o, i) => {
        const command = `edgectl waf overrides delete --zone ${doc.zone.name} ${o.id}`
        out.push(
          finding(
            "error",
            "waf-uri-override",
            `URI-based override ${o.id} (${o.urls.join(", ")}) blocks the migration: delete it before migrating`,
            rangeOf(at("overrides", i, "id")),
            {
              hint: `run \`${command}\``,
              fixes: [{ title: `Delete override ${o.id}: ${command}`, command }]
            }
          )
        )
      })
    } else if (b.code === "too_many_rules") {
      out.push(finding("error", "waf-too-many-rules", b.message, rangeOf(nameNode(at("firewall_rules")))))
    } else if (b.code === "expression_too_long") {
      const i = doc.firewall_rules.findIndex((r) => b.message.includes(`firewall rule ${r.id} `))
      out.push(
        finding(
          "error",
          "waf-expression-too-long",
          b.message,
          rangeOf(i >= 0 ? at("firewall_rules", i, "expression") : nameNode(at("firewall_rules")))
        )
      )
    } else out.push(finding("error", `waf-${b.code}`, b.message, rangeOf(nameNode(at("format")))))
  }

  doc.groups.forEach((g, i) => {
    if (g.package_id === PREVIOUS_OWASP_PACKAGE && g.mode === "off") {
      out.push(
        finding(
          "warning",
          "waf-not-migrated",
          `OWASP group ${g.name} is off: OWASP group overrides are not migrated (no rule equivalence); recreate it as a tag override`,
          rangeOf(at("groups", i, "mode"))
        )
      )
    }
  })
  doc.rules.forEach((r, i) => {
    if (r.package_id === PREVIOUS_OWASP_PACKAGE && r.mode === "off") {
      out.push(
        finding(
          "warning",
          "waf-not-migrated",
          `OWASP rule ${r.id} (${r.description}) is off: OWASP rule overrides are not migrated; recreate it as a rule override`,
          rangeOf(at("rules", i, "mode"))
        )
      )
    }
  })
  for (const n of plan.notMigrated) {
    const m = /^firewall rule (\S+)/.exec(n.what)
    const i = m ? doc.firewall_rules.findIndex((r) => r.id === m[1]) : -1
    if (i >= 0)
      out.push(finding("warning", "waf-not-migrated", `${n.what}: ${n.why}`, rangeOf(at("firewall_rules", i, "id"))))
  }

  doc.packages.forEach((p, i) => {
    if (p.id !== PREVIOUS_OWASP_PACKAGE) return
    const s = p.sensitivity ?? "default"
    const sn = sensitivityNote(s)
    if (sn !== undefined)
      out.push(
        finding(
          "information",
          "waf-mapping",
          `sensitivity ${cap(s)} -> ${sn.replace(/^.*?-> /, "")}`,
          rangeOf(p.sensitivity ? at("packages", i, "sensitivity") : at("packages", i, "id"))
        )
      )
    if (p.action_mode !== undefined && s !== "off")
      out.push(
        finding("information", "waf-mapping", actionNote(p.action_mode)!, rangeOf(at("packages", i, "action_mode")))
      )
  })
  for (const row of plan.rows) {
    const m = /^firewall rule (\S+)/.exec(row.setting)
    const i = m ? doc.firewall_rules.findIndex((r) => r.id === m[1]) : -1
    if (i >= 0)
      out.push(
        finding(
          "information",
          "waf-mapping",
          `bypasses the WAF today: becomes a ${row.next}`,
          rangeOf(at("firewall_rules", i, "id"))
        )
      )
  }

  const name = configFileName(uri)
  const blocked =
    plan.blockers.length > 0
      ? ` (the zone cannot migrate yet: ${plan.blockers.length} blocker${plan.blockers.length === 1 ? "" : "s"})`
      : ""
  const actions: Array<Fix> = [
    { title: `Generate the new WAF configuration (${name})${blocked}`, create: { name, text: configText(doc) } }
  ]
  return { findings: out, actions }
}
