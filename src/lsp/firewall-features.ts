/**
 * Hover and completion in firewall-rule documents (JSON bodies of /firewall/rules): the actions and
 * the products a `bypass` skips, from the platform's own lists (src/domain/firewall.ts), the
 * lists the body check enforces.
 */
import { findNodeAtOffset, parseTree, type Node } from "jsonc-parser"
import { BypassProducts, FirewallActions } from "../domain/firewall.js"
import type { CompletionResult, HoverResult, JsonFeatures } from "./features.js"
import { rangeOf } from "./json-path.js"

const ACTION_DOC: Readonly<Record<(typeof FirewallActions)[number], string>> = {
  block: "blocks the request (HTTP 403)",
  challenge: "an interactive challenge",
  js_challenge: "a JavaScript challenge; clients without JavaScript fail it",
  managed_challenge: "a challenge the platform picks (non-interactive when it can)",
  allow: "lets the request through; later firewall rules are not evaluated",
  log: "only logs the match; the request goes on (Enterprise)",
  bypass: "skips the products named in `products` for the request; the other rules still run"
}
const PRODUCT_DOC: Readonly<Record<(typeof BypassProducts)[number], string>> = {
  zoneLockdown: "Zone Lockdown",
  uaBlock: "User Agent Blocking",
  bic: "Browser Integrity Check",
  hot: "Hotlink Protection",
  securityLevel: "Security Level (IP reputation challenges)",
  rateLimit: "Rate Limiting (previous version)",
  waf: "the WAF managed rules (previous version)"
}

/** A string value: of which property, and whether it is an element of that property's array. */
const placeOf = (n: Node | undefined): { name: string; inArray: boolean } | undefined => {
  if (n?.type !== "string") return undefined
  const holder = n.parent?.type === "array" ? n.parent : n
  const p = holder.parent
  if (p?.type !== "property" || p.children?.[1] !== holder) return undefined
  return { name: p.children![0]!.value as string, inArray: holder !== n }
}

const hover = (text: string, offset: number): HoverResult | undefined => {
  const root = parseTree(text)
  const node = root && findNodeAtOffset(root, offset)
  const place = placeOf(node)
  if (place === undefined) return undefined
  const v = node!.value as string
  if (place.name === "action" && !place.inArray && v in ACTION_DOC)
    return { markdown: `\`${v}\`: ${ACTION_DOC[v as keyof typeof ACTION_DOC]}`, range: rangeOf(node!) }
  if (place.name === "products" && place.inArray && v in PRODUCT_DOC)
    return { markdown: `\`${v}\`: bypass ${PRODUCT_DOC[v as keyof typeof PRODUCT_DOC]}`, range: rangeOf(node!) }
  return undefined
}

const complete = (text: string, offset: number): CompletionResult | undefined => {
  const root = parseTree(text)
  const node = root && findNodeAtOffset(root, offset)
  const place = placeOf(node)
  if (place === undefined) return undefined
  const replace = rangeOf(node!)
  if (place.name === "action" && !place.inArray) {
    return {
      replace,
      items: FirewallActions.map((a) => ({
        label: a,
        kind: "enum" as const,
        detail: ACTION_DOC[a],
        insertText: JSON.stringify(a)
      }))
    }
  }
  if (place.name === "products" && place.inArray) {
    // The products already listed are not offered again.
    const listed = new Set((node!.parent!.children ?? []).filter((c) => c !== node).map((c) => c.value))
    return {
      replace,
      items: BypassProducts.filter((p) => !listed.has(p)).map((p) => ({
        label: p,
        kind: "enum" as const,
        detail: PRODUCT_DOC[p],
        insertText: JSON.stringify(p)
      }))
    }
  }
  return undefined
}

export const firewallRuleFeatures: JsonFeatures = { hover, complete }
