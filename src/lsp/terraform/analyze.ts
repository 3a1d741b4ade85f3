/**
 * Terraform files (`*.tf`, and `*.tf.json` in Terraform's JSON syntax): a warning on each
 * previous-WAF resource (`cloudflare_waf_package`, `cloudflare_waf_group`, `cloudflare_waf_rule`,
 * `cloudflare_waf_override`: provider 3.35 and earlier) with the rewrite for the pinned provider,
 * a warning on each `cloudflare_filter` / `cloudflare_firewall_rule` (their APIs are unsupported;
 * ../firewall-unsupported.ts) naming the pinned provider, with the rewrite to the zone's custom
 * rules ruleset in either syntax, and the rules expressions of rulesets and filters checked, found
 * in a real HCL tree or JSON tree (never by scanning text).
 */
import { printParseErrorCode, type ParseError } from "jsonc-parser"
import type { CheckOptions } from "../../rules/index.js"
import { checkExpression } from "../expressions.js"
import { finding, type Analysis, type Finding, type Fix } from "../findings.js"
import { FIREWALL_RESOURCES, firewallResourceFinding } from "../firewall-unsupported.js"
import { LEGACY_PRODUCT_RESOURCES } from "./legacy-types.js"
import { forgetChildren, parseHcl, stringValue, type HclNode } from "../hcl.js"
import { rangeOf } from "../json-path.js"
import { jsonResources, type TerraformJsonRewrite } from "./json-resources.js"
import { terraformJsonTree } from "./json-tree.js"
import { majorUpgradeFinding, pinConflictFinding } from "./upgrade.js"
import {
  hasPin,
  jsonPinNode,
  modulePin,
  providerTarget,
  targetOf,
  type ModulePins,
  type ProviderTarget
} from "./version.js"

import {
  EXPRESSION_RESOURCES,
  expressionChecker,
  hclExpressionRegions,
  jsonExpressionRegions,
  type ExpressionChecker,
  type TerraformExpression
} from "./expressions.js"

export const PREVIOUS_WAF_RESOURCES = [
  "cloudflare_waf_package",
  "cloudflare_waf_group",
  "cloudflare_waf_rule",
  "cloudflare_waf_override"
] as const
const isPreviousWaf = (type: string) => (PREVIOUS_WAF_RESOURCES as ReadonlyArray<string>).includes(type)

/** A `resource "<type>" "<name>" { ... }` block with its attributes (literal values only). */
export interface ResourceBlock {
  readonly type: string
  readonly name: string
  readonly node: HclNode
  readonly typeLabel: HclNode
  readonly attributes: ReadonlyMap<
    string,
    { readonly node: HclNode; readonly value: string | number | boolean | undefined }
  >
}

const literal = (expr: HclNode | null): string | number | boolean | undefined => {
  if (expr === null) return undefined
  const s = stringValue(expr)
  if (s !== undefined) return s
  const lit = expr.type === "expression" ? expr.namedChildren[0] : expr
  if (lit?.type === "literal_value") {
    const v = lit.namedChildren[0]
    if (v?.type === "numeric_lit") return Number(v.text)
    if (v?.type === "bool_lit") return v.text === "true"
  }
  return undefined
}

export const resourceBlocks = (root: HclNode): Array<ResourceBlock> => {
  const out: Array<ResourceBlock> = []
  // Each `namedChildren` builds its nodes anew across the wasm boundary: read once per node.
  const visit = (n: HclNode) => {
    const children = n.namedChildren
    if (n.type === "block" && children[0]?.type === "identifier" && children[0].text === "resource") {
      const labels = children.filter((c) => c?.type === "string_lit") as Array<HclNode>
      const body = children.find((c) => c?.type === "body")
      const attributes = new Map<string, { node: HclNode; value: string | number | boolean | undefined }>()
      for (const a of body?.namedChildren ?? []) {
        if (a?.type !== "attribute") continue
        const [key, value] = a.namedChildren
        const name = key?.text
        if (name !== undefined) attributes.set(name, { node: a, value: literal(value ?? null) })
      }
      if (labels.length >= 2)
        out.push({
          type: stringValue(labels[0]!) ?? "",
          name: stringValue(labels[1]!) ?? "",
          node: n,
          typeLabel: labels[0]!,
          attributes
        })
      forgetChildren(n)
      return
    }
    for (const c of children) if (c !== null) visit(c)
  }
  visit(root)
  forgetChildren(root)
  return out
}

// Syntax errors at their place (../hcl-syntax.ts); imported here to keep this edit to one spot.
import { hclSyntaxErrors } from "../hcl-syntax.js"
const syntaxErrors = (root: HclNode): Array<Finding> => hclSyntaxErrors(root)

/**
 * Builds the rewrite of the file's previous-WAF resources (written by the WAF part, which owns the
 * mapping, and handed in through ../registry.ts): a fix per resource it can place, and findings
 * where it cannot tell.
 */
export type TerraformRewrite = (
  text: string,
  blocks: ReadonlyArray<ResourceBlock>,
  target: ProviderTarget,
  checker?: ExpressionChecker,
  expressionsOf?: (block: ResourceBlock) => ReadonlyArray<TerraformExpression>
) => { readonly fixes: ReadonlyMap<ResourceBlock, Fix>; readonly findings: ReadonlyArray<Finding> }

const previousWaf = (type: string, name: string, range: { start: number; end: number }, fix?: Fix): Finding =>
  finding(
    "warning",
    "terraform-previous-waf",
    `${type} "${name}" is a previous-WAF resource: the provider supports it only up to 3.35, and the zone's WAF migration removes what it manages`,
    range,
    {
      hint: "replace it with a cloudflare_ruleset resource in phase http_request_firewall_managed",
      ...(fix ? { fixes: [fix] } : {})
    }
  )

/**
 * The rules expressions of the file checked, in their ruleset's phase (`http_response_*`: the
 * response fields); quoted HCL strings' fixes are written escaped like JSON's (the same escapes).
 */
const checkRegions = (
  regions: ReadonlyArray<TerraformExpression>,
  options: CheckOptions,
  checker: ExpressionChecker
): Array<Finding> =>
  regions.flatMap((r) =>
    checkExpression(
      r,
      r.quoted,
      r.phase?.startsWith("http_response") ? { ...options, phase: "response" } : options,
      checker
    )
  )

/** `*.tf.json`: Terraform's JSON syntax (its expressions checked, the previous-WAF, firewall and legacy products' resources found, the latter two rewritten). */
const analyzeTerraformJson = async (
  text: string,
  options: CheckOptions,
  name: string,
  { firewallJson, legacyJson, pins }: TerraformWiring
): Promise<Analysis> => {
  const errors: Array<ParseError> = []
  const root = terraformJsonTree(text, errors)
  const findings: Array<Finding> = errors.map((e) =>
    finding(
      "error",
      "json-syntax",
      `invalid JSON: ${printParseErrorCode(e.error)
        .replace(/([a-z])([A-Z])/g, "$1 $2")
        .toLowerCase()}`,
      { start: e.offset, end: e.offset + Math.max(1, e.length) }
    )
  )
  if (root === undefined) return { kind: "terraform", findings, expressions: [] }
  const resources = jsonResources(root)
  const firewall = resources.filter((r) => FIREWALL_RESOURCES.includes(r.type))
  const legacy = resources.some((r) => LEGACY_PRODUCT_RESOURCES.includes(r.type))
  // The pin may be in another file of the module (versions.tf, versions.tf.json): read only when this one has none.
  const own = firewall.length > 0 || legacy ? jsonPinNode(root) : undefined
  const target =
    firewall.length === 0 && !legacy
      ? undefined
      : targetOf(
          own === undefined ? undefined : { constraint: own.value as string, range: rangeOf(own) },
          own === undefined ? await modulePin(name, pins) : undefined
        )
  // Fixes only for a file without syntax errors: an edit of a broken file cannot be placed.
  // The diagnostics and the rewrite's mapping check the same filter expressions: each once.
  const checker = expressionChecker()
  const rewritten =
    target && firewall.length > 0 && errors.length === 0 ? firewallJson?.(text, resources, target, checker) : undefined
  // As in HCL: the scanner's findings of the legacy products with their fixes, and what the rewrite says beside them.
  const legacyOut = target && legacy && errors.length === 0 ? legacyJson?.(text, resources, target) : undefined
  const deprecations = (legacyOut?.findings ?? []).filter((f) => f.code.startsWith("DEP-"))
  findings.push(...(legacyOut?.findings ?? []).filter((f) => !f.code.startsWith("DEP-")))
  for (const r of resources) {
    const range = rangeOf(r.typeKey)
    if ((PREVIOUS_WAF_RESOURCES as ReadonlyArray<string>).includes(r.type))
      findings.push(previousWaf(r.type, r.name, range))
    else if (target !== undefined && FIREWALL_RESOURCES.includes(r.type))
      findings.push(
        firewallResourceFinding(
          r.type,
          r.name,
          range,
          { constraint: target.constraint, files: target.pinFiles },
          rewritten?.fixes.get(r)
        )
      )
  }
  findings.push(...(rewritten?.findings ?? []))
  const first = resources.find((r) => FIREWALL_RESOURCES.includes(r.type))
  const upgrade =
    target && first
      ? majorUpgradeFinding(
          target,
          rangeOf(first.typeKey),
          resources.map((r) => r.type)
        )
      : undefined
  if (upgrade !== undefined) findings.push(upgrade)
  const expressions = jsonExpressionRegions(text, root)
  findings.push(...checkRegions(expressions, options, checker))
  findings.sort((a, b) => a.range.start - b.range.start)
  return { kind: "terraform", findings, expressions, ...(deprecations.length > 0 ? { deprecations } : {}) }
}

/** What the Terraform checks are given (../registry.ts): without a rewrite, no fixes; without pins, no cache. */
export interface TerraformWiring {
  readonly rewrite?: TerraformRewrite | undefined
  /** The rewrite of `cloudflare_filter` + `cloudflare_firewall_rule` to the zone's custom rules ruleset. */
  readonly firewall?: TerraformRewrite | undefined
  /** The rewrite of the legacy security products (rate limits, Zone Lockdown, UA rules) to rulesets. */
  readonly legacy?: TerraformRewrite | undefined
  /** The firewall rewrite in Terraform JSON (`*.tf.json`). */
  readonly firewallJson?: TerraformJsonRewrite | undefined
  /** The legacy products' rewrite in Terraform JSON. */
  readonly legacyJson?: TerraformJsonRewrite | undefined
  readonly pins?: ModulePins | undefined
}

/** `name`: the file's path or URI; `*.tf.json` is Terraform's JSON syntax. */
export const analyzeTerraform = async (
  text: string,
  name = "",
  options: CheckOptions = {},
  wiring: TerraformWiring = {}
): Promise<Analysis> => {
  if (/\.tf\.json$/i.test(name)) return analyzeTerraformJson(text, options, name, wiring)
  const { rewrite, firewall: firewallFix, legacy: legacyFix, pins } = wiring
  const tree = await parseHcl(text)
  try {
    const findings = syntaxErrors(tree.rootNode)
    const blocks = resourceBlocks(tree.rootNode)
    const waf = blocks.some((b) => (PREVIOUS_WAF_RESOURCES as ReadonlyArray<string>).includes(b.type))
    const firewall = blocks.some((b) => FIREWALL_RESOURCES.includes(b.type))
    const legacy = blocks.some((b) => LEGACY_PRODUCT_RESOURCES.includes(b.type))
    // The pin may be in another file of the module (versions.tf): read only when this one has none.
    const target =
      waf || firewall || legacy
        ? providerTarget(tree.rootNode, hasPin(tree.rootNode) ? undefined : await modulePin(name, pins))
        : undefined
    const checker = expressionChecker()
    // A block's expressions, found once: the rewrite reads its filters', the checks check them all.
    const regions = new Map<ResourceBlock, ReadonlyArray<TerraformExpression>>()
    const expressionsOf = (b: ResourceBlock) => {
      let r = regions.get(b)
      if (r === undefined) {
        regions.set(b, (r = hclExpressionRegions(text, b.node.namedChildren.find((c) => c?.type === "body") ?? b.node)))
        forgetChildren(b.node)
      }
      return r
    }
    const rewritten = waf && target ? rewrite?.(text, blocks, target, checker, expressionsOf) : undefined
    const custom = firewall && target ? firewallFix?.(text, blocks, target, checker, expressionsOf) : undefined
    // The legacy products' findings: the scanner's own (DEP-*, listed in its order), each with its
    // rewrite's fix, and what the rewrite says of the zones it cannot write.
    const legacyOut = legacy && target ? legacyFix?.(text, blocks, target) : undefined
    const deprecations = (legacyOut?.findings ?? []).filter((f) => f.code.startsWith("DEP-"))
    findings.push(...(legacyOut?.findings ?? []).filter((f) => !f.code.startsWith("DEP-")))
    const first = blocks.find((b) => FIREWALL_RESOURCES.includes(b.type) || isPreviousWaf(b.type))
    const upgrade =
      target && first
        ? majorUpgradeFinding(
            target,
            { start: first.typeLabel.startIndex, end: first.typeLabel.endIndex },
            blocks.map((b) => b.type)
          )
        : undefined
    if (upgrade !== undefined) findings.push(upgrade)
    // This file's pin and the module's other files' together (read only where a rewrite is at stake).
    const at = first && { start: first.typeLabel.startIndex, end: first.typeLabel.endIndex }
    const conflict =
      target === undefined || at === undefined
        ? undefined
        : target.pinRange !== undefined
          ? pinConflictFinding(
              { constraint: target.constraint!, range: target.pinRange },
              await modulePin(name, pins),
              at
            )
          : target.pinFiles !== undefined && target.pinFiles.length > 1
            ? pinConflictFinding(undefined, { constraint: target.constraint!, files: target.pinFiles }, at)
            : undefined
    if (conflict !== undefined) findings.push(conflict)
    for (const b of target ? blocks.filter((x) => FIREWALL_RESOURCES.includes(x.type)) : [])
      findings.push(
        firewallResourceFinding(
          b.type,
          b.name,
          { start: b.typeLabel.startIndex, end: b.typeLabel.endIndex },
          { constraint: target!.constraint, files: target!.pinFiles },
          custom?.fixes.get(b)
        )
      )
    findings.push(...(custom?.findings ?? []))
    for (const b of blocks) {
      if (!(PREVIOUS_WAF_RESOURCES as ReadonlyArray<string>).includes(b.type)) continue
      findings.push(
        previousWaf(
          b.type,
          b.name,
          { start: b.typeLabel.startIndex, end: b.typeLabel.endIndex },
          rewritten?.fixes.get(b)
        )
      )
    }
    findings.push(...(rewritten?.findings ?? []))
    const expressions = blocks
      .filter((b) => (EXPRESSION_RESOURCES as ReadonlyArray<string>).includes(b.type))
      .flatMap((b): Array<TerraformExpression> => {
        const phase = b.attributes.get("phase")?.value
        return expressionsOf(b).map((r) => ({
          ...r,
          phase: typeof phase === "string" ? phase : undefined
        }))
      })
    findings.push(...checkRegions(expressions, options, checker))
    findings.sort((a, b) => a.range.start - b.range.start)
    return { kind: "terraform", findings, expressions, ...(deprecations.length > 0 ? { deprecations } : {}) }
  } finally {
    tree.delete()
  }
}
