/**
 * The deprecation scanner on one file's text: API paths (every language), SDK calls (by language),
 * rules-language fields and skipped legacy products in expressions, headers and variables, and
 * Terraform resources and attributes by the provider version the module pins. Pure: the caller
 * reads files and gives the pin; `edgectl scan`, `edgectl check` and the editor all call this.
 */
import { deprecations, severityOf, stateOn, stateText, type Deprecation, type DeprecationState } from "./catalog.js"
import { pathUses } from "./api-paths.js"
import {
  attributeUses,
  compareVersions,
  hclBlocks,
  jsonBlocks,
  lowestAllowed,
  parseVersion,
  pinIn,
  versionText,
  type Version
} from "./terraform.js"

export type Language = "shell" | "ts" | "py" | "go" | "terraform" | "terraform-json" | "json" | "rules" | "config"

/** A file's language by its name; undefined: the scanner does not read it. */
export const languageOf = (name: string): Language | undefined => {
  const lower = name.toLowerCase()
  const base = lower.slice(Math.max(lower.lastIndexOf("/"), lower.lastIndexOf("\\")) + 1)
  if (base.endsWith(".tf.json")) return "terraform-json"
  if (/^wrangler\.(toml|json|jsonc)$/.test(base)) return "config"
  const ext = base.includes(".") ? base.slice(base.lastIndexOf(".") + 1) : ""
  switch (ext) {
    case "sh":
    case "bash":
    case "zsh":
    case "ps1":
      return "shell"
    case "ts":
    case "tsx":
    case "mts":
    case "cts":
    case "js":
    case "jsx":
    case "mjs":
    case "cjs":
      return "ts"
    case "py":
      return "py"
    case "go":
      return "go"
    case "tf":
      return "terraform"
    case "json":
    case "jsonc":
      return "json"
    case "rules":
      return "rules"
    case "toml":
    case "yaml":
    case "yml":
    case "env":
      return "config"
  }
  return undefined
}

export interface Hit {
  readonly id: string
  /** Which detector found it: an API path, a pattern (SDK call, field, header), a skipped product, Terraform. */
  readonly kind: "api" | "pattern" | "products" | "terraform"
  readonly severity: "error" | "warning" | "information"
  readonly start: number
  readonly end: number
  /** What was found, as one phrase: "PATCH /zones/{id}/settings", "resource cloudflare_rate_limit". */
  readonly what: string
  readonly message: string
  readonly hint: string
  readonly state: DeprecationState
  readonly derived: boolean
  /** The edit that moves it, where it is a rename in place. */
  readonly rewrite?: { readonly start: number; readonly end: number; readonly newText: string }
}

export interface ScanContext {
  readonly now: Date
  /** The provider constraint of the file's Terraform module (another file of its directory may hold it). */
  readonly pin?: string | undefined
}

const regex = (pattern: string, flags: string) => {
  // JSON data cannot say "case-insensitive" but in the pattern: `(?i)` at its start does.
  const ci = pattern.startsWith("(?i)")
  return new RegExp(ci ? pattern.slice(4) : pattern, ci ? `${flags}i` : flags)
}

interface PatternRule {
  readonly d: Deprecation
  readonly re: RegExp
  readonly what: string
  readonly languages: ReadonlyArray<string> | undefined
  readonly rewrite: ReadonlyArray<string> | undefined
  readonly derived: boolean
}

let compiled: { patterns: Array<PatternRule>; products: Map<string, Deprecation> } | undefined
const compile = () => {
  if (compiled !== undefined) return compiled
  const patterns: Array<PatternRule> = []
  const products = new Map<string, Deprecation>()
  for (const d of deprecations) {
    for (const p of [...(d.detect.text ?? []), ...(d.detect.rules ?? []), ...(d.detect.sdk ?? [])])
      patterns.push({
        d,
        re: regex(p.pattern, "g"),
        what: p.what,
        languages: p.languages,
        rewrite: p.rewrite,
        derived: p.derived === true
      })
    for (const p of d.detect.skipProducts ?? []) products.set(p, d)
  }
  compiled = { patterns, products }
  return compiled
}

const hintOf = (d: Deprecation, kind: Hit["kind"]) => {
  // A skip of a legacy product only stops matching what is gone: what to skip instead.
  if (kind === "products")
    return `a skip of it does nothing once the product is gone; ${d.skipReplacement ?? d.replacement}`
  const parts = [d.replacement]
  if (d.move !== undefined) parts.push(`move it with \`${d.move}\``)
  if (d.action !== undefined && kind === "terraform") parts.push(`or ${d.action}`)
  return parts.join("; ")
}

const hit = (
  kind: Hit["kind"],
  d: Deprecation,
  ctx: ScanContext,
  start: number,
  end: number,
  what: string,
  extra: { derived?: boolean; detail?: string; rewrite?: Hit["rewrite"] } = {}
): Hit => {
  const state = stateOn(d, ctx.now)
  const detail = extra.detail !== undefined ? ` (${extra.detail})` : ""
  const derived = extra.derived === true || (d.endOfLifeDerived !== undefined && state.state !== "undated")
  return {
    id: d.id,
    kind,
    severity: severityOf(state),
    start,
    end,
    what,
    message: `${what}: ${d.title}${detail}, ${stateText(d, state)}${derived ? " [derived]" : ""}`,
    hint: hintOf(d, kind),
    state,
    derived,
    ...(extra.rewrite !== undefined ? { rewrite: extra.rewrite } : {})
  }
}

/** The path with its id segments as `{id}`, as a finding names it. */
const shownPath = (p: string) => p.replace(/\/ID(?=\/|$)/g, "/{id}")

const apiHits = (text: string, ctx: ScanContext, out: Array<Hit>) => {
  const uses = pathUses(text)
  if (uses.length === 0) return
  for (const d of deprecations)
    for (const a of d.detect.api ?? []) {
      const re = regex(a.path, "")
      for (const u of uses) {
        if (!re.test(u.path)) continue
        if (u.method !== undefined ? !a.methods.includes(u.method) : a.methodRequired === true) continue
        if (a.bodyHas !== undefined && !regex(a.bodyHas, "").test(text.slice(u.end, u.end + 400))) continue
        const written = text.slice(u.start, u.end)
        const from = a.rewrite?.[0]
        const at = from !== undefined ? written.indexOf(from) : -1
        out.push(
          hit("api", d, ctx, u.start, u.end, `${u.method ?? a.methods.join("|")} ${shownPath(u.path)}`, {
            derived: a.derived === true,
            ...(at >= 0
              ? { rewrite: { start: u.start + at, end: u.start + at + from!.length, newText: a.rewrite![1]! } }
              : {})
          })
        )
      }
    }
}

const patternHits = (text: string, lang: Language, ctx: ScanContext, out: Array<Hit>) => {
  for (const p of compile().patterns) {
    if (p.languages !== undefined && !p.languages.includes(lang)) continue
    p.re.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = p.re.exec(text)) !== null) {
      const start = m.index
      const end = start + m[0].length
      const from = p.rewrite?.[0]
      out.push(
        hit(
          "pattern",
          p.d,
          ctx,
          start,
          end,
          p.languages !== undefined ? `${p.what} (${m[0].replace(/\s*\($/, "")})` : m[0],
          {
            derived: p.derived,
            ...(from !== undefined && m[0].startsWith(from)
              ? { rewrite: { start, end: start + from.length, newText: p.rewrite![1]! } }
              : {})
          }
        )
      )
    }
  }
}

// `products` in a skip rule's parameters: a JSON array, an HCL list, a JS/Python literal.
const PRODUCTS = /\bproducts["']?\s*[:=]\s*\[([^\]]*)\]/g

const productHits = (text: string, ctx: ScanContext, out: Array<Hit>) => {
  const { products } = compile()
  PRODUCTS.lastIndex = 0
  let m: RegExpExecArray | null
  while ((m = PRODUCTS.exec(text)) !== null) {
    const listStart = m.index + m[0].indexOf("[") + 1
    for (const q of m[1]!.matchAll(/["']([A-Za-z]+)["']/g)) {
      const d = products.get(q[1]!)
      if (d === undefined) continue
      const start = listStart + q.index! + 1
      out.push(hit("products", d, ctx, start, start + q[1]!.length, `a skip of the legacy product "${q[1]}"`))
    }
  }
}

/** What the pinned version says of a resource or attribute, for the finding's message. */
const pinDetail = (
  pin: Version | undefined,
  t: { deprecatedFrom?: string; removedIn?: string }
): { detail: string; applies: boolean } => {
  const dep = t.deprecatedFrom !== undefined ? parseVersion(t.deprecatedFrom) : undefined
  const rem = t.removedIn !== undefined ? parseVersion(t.removedIn) : undefined
  if (pin === undefined)
    return {
      detail: `provider version not pinned${dep ? `; deprecated from ${versionText(dep)}` : ""}${rem ? `; not in ${versionText(rem)} and later` : ""}`,
      applies: true
    }
  const p = versionText(pin)
  if (rem !== undefined && compareVersions(pin, rem) >= 0)
    return { detail: `the pinned provider ${p} no longer has it (removed in ${versionText(rem)})`, applies: true }
  if (dep !== undefined && compareVersions(pin, dep) >= 0)
    return { detail: `deprecated in the pinned provider ${p}, since ${versionText(dep)}`, applies: true }
  if (dep !== undefined)
    return { detail: `the pinned provider ${p} predates its deprecation marker (${versionText(dep)})`, applies: true }
  if (rem !== undefined) return { detail: `in the pinned provider ${p}; removed in ${versionText(rem)}`, applies: true }
  return { detail: `in the pinned provider ${p}`, applies: true }
}

const reached = (pin: Version | undefined, t: { deprecatedFrom?: string; removedIn?: string }) => {
  if (pin === undefined) return false
  return [t.deprecatedFrom, t.removedIn].some((v) => {
    const at = v !== undefined ? parseVersion(v) : undefined
    return at !== undefined && compareVersions(pin, at) >= 0
  })
}

const terraformHits = (text: string, json: boolean, ctx: ScanContext, out: Array<Hit>) => {
  const constraint = pinIn(text, json) ?? ctx.pin
  const pin = constraint !== undefined ? lowestAllowed(constraint) : undefined
  const blocks = json ? jsonBlocks(text) : hclBlocks(text)
  for (const d of deprecations)
    for (const t of d.detect.terraform ?? []) {
      const derived = t.derived === true
      if (t.providerArgument !== undefined) {
        const re = json
          ? new RegExp(`"${t.providerArgument}"\\s*:`, "g")
          : new RegExp(`\\b${t.providerArgument}\\s*=`, "g")
        for (const m of text.matchAll(re)) {
          const start = m.index! + (json ? 1 : 0)
          out.push(
            hit(
              "terraform",
              d,
              ctx,
              start,
              start + t.providerArgument.length,
              `provider argument ${t.providerArgument}`
            )
          )
        }
        continue
      }
      // A rename in a later provider (`instead`) concerns a module only once its pin reaches the
      // version that deprecates or removes the old name: before, the new name does not exist yet.
      if (t.instead !== undefined && !reached(pin, t)) continue
      for (const b of blocks) {
        if (t.attribute !== undefined) {
          if (b.kind !== "resource" || b.type !== t.of) continue
          for (const at of attributeUses(text, b, t.attribute, json)) {
            const { detail } = pinDetail(pin, t)
            out.push(
              hit("terraform", d, ctx, at, at + t.attribute.length, `attribute ${t.attribute} of ${t.of}`, {
                derived,
                detail: `${detail}${t.instead ? `; use ${t.instead}` : ""}`
              })
            )
          }
          continue
        }
        const type = b.kind === "resource" ? t.resource : t.data
        if (type === undefined || type !== b.type) continue
        const { detail } = pinDetail(pin, t)
        out.push(
          hit("terraform", d, ctx, b.start, b.end, `${b.kind} ${b.type}`, {
            derived,
            detail: `${detail}${t.instead ? `; use ${t.instead}` : ""}`
          })
        )
      }
    }
}

// Cheap first look: a file that names none of these cannot have a finding.
const ANY =
  /\/zones\/|\/accounts\/|threat_score|geoip|disable_esc|service.key|SERVICE_KEY|products|cloudflare_|=contains:|=starts_with:|=ends_with:|RateLimit|ZoneSettings|Firewall|Filter|\.filters\.|rate_limits|rateLimits|lockdowns|ua_?rules/i

/** The findings in one file, in text order (one per place and deprecation). */
export const scanText = (text: string, lang: Language, ctx: ScanContext): Array<Hit> => {
  if (!ANY.test(text)) return []
  const out: Array<Hit> = []
  apiHits(text, ctx, out)
  patternHits(text, lang, ctx, out)
  productHits(text, ctx, out)
  if (lang === "terraform" || lang === "terraform-json") terraformHits(text, lang === "terraform-json", ctx, out)
  const seen = new Set<string>()
  return out
    .sort((a, b) => a.start - b.start || a.id.localeCompare(b.id))
    .filter((h) => {
      const key = `${h.id}@${h.start}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
}
