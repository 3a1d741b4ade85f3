/**
 * The cloudflare provider version a Terraform file pins (`terraform { required_providers {
 * cloudflare = { version = "…" } } }`) and what the ruleset rewrite must be for it: block syntax
 * with `status` (3.17–3.35), block syntax with `enabled` and `ref` (4.2–4.x), attribute syntax
 * (5.x), and the import id of that version (`zone/…` up to 4.x, `zones/…` in 5.x).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { parseTree, type Node } from "jsonc-parser"
import type { Range } from "../findings.js"
import { parseHcl, stringValue, type HclNode } from "../hcl.js"

export type ProviderMajor = 3 | 4 | 5

export interface ProviderTarget {
  /** The constraint as written, when the file pins one. */
  readonly constraint: string | undefined
  /** The `version = "…"` string, for an edit of the pin (when it is in this file). */
  readonly pinRange: Range | undefined
  /** The other files of the module that hold the constraint, when this one has none. */
  readonly pinFiles?: ReadonlyArray<string>
  /** The major version the rewrite is written for: the highest one the constraint admits (what `terraform init -upgrade` selects). */
  readonly major: ProviderMajor
  /** A constraint within the same major that the rewrite needs instead of the file's (it admits versions without `status` / settable `ref`). */
  readonly pinWithinMajor: string | undefined
  /**
   * The pin admits only 1.x or 2.x: `pinWithinMajor` is then a major provider upgrade for every
   * resource of the module, which the rewrite never makes by itself (./upgrade.ts offers it).
   */
  readonly majorUpgrade?: boolean
}

type Version = [number, number, number]
const parse = (v: string): Version | undefined => {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(v.trim())
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined
}
const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]

/** Terraform's version constraint syntax: `,`-separated `op version` parts, all of which must hold. */
export const admits = (constraint: string, version: string): boolean => {
  const v = parse(version)
  if (v === undefined) return false
  return constraint.split(",").every((part) => {
    const m = /^\s*(~>|>=|<=|!=|=|>|<)?\s*(\S+)\s*$/.exec(part)
    if (m === null) return false
    const segments = m[2]!.replace(/^v/, "").split(".").length
    const c = parse(m[2]!)
    if (c === undefined) return false
    const d = cmp(v, c)
    switch (m[1] ?? "=") {
      case "=":
        return d === 0
      case "!=":
        return d !== 0
      case ">":
        return d > 0
      case ">=":
        return d >= 0
      case "<":
        return d < 0
      case "<=":
        return d <= 0
      default: {
        // `~> 3.35` admits 3.35 up to 4.0 (excluded); `~> 3.35.0` up to 3.36; `~> 5` all of 5.x.
        if (d < 0) return false
        const upper: Version = segments >= 3 ? [c[0], c[1] + 1, 0] : [c[0] + 1, 0, 0]
        return cmp(v, upper) < 0
      }
    }
  })
}

// The releases where what the rewrite may write changes (reference: terraform-ruleset-versions.md).
const LANDMARKS = [
  "2.26.0",
  "3.0.0",
  "3.16.0",
  "3.17.0",
  "3.35.0",
  "3.99.0",
  "4.0.0",
  "4.1.0",
  "4.2.0",
  "4.52.5",
  "4.99.0",
  "5.0.0",
  "5.19.0",
  "5.99.0",
  "6.0.0"
]

/**
 * The cloudflare provider's `version` in the file's `required_providers`, as a node; else the
 * legacy `provider "cloudflare" { version = "…" }` (Terraform 0.12 and earlier; the provider's
 * version 3 upgrade guide still writes it), which Terraform 0.13+ still reads, with a warning.
 */
const pinNode = (root: HclNode): HclNode | undefined => requiredPinNode(root) ?? legacyPinNode(root)

const legacyPinNode = (root: HclNode): HclNode | undefined => {
  for (const top of root.namedChildren[0]?.namedChildren ?? []) {
    if (top?.type !== "block" || top.namedChildren[0]?.text !== "provider") continue
    const label = top.namedChildren.find((c) => c?.type === "string_lit")
    if (label === undefined || label === null || stringValue(label) !== "cloudflare") continue
    for (const a of top.namedChildren.find((c) => c?.type === "body")?.namedChildren ?? []) {
      if (a?.type !== "attribute" || a.namedChildren[0]?.text !== "version") continue
      const v = a.namedChildren[1]?.namedChildren[0]?.namedChildren[0]
      if (v?.type === "string_lit") return v
    }
  }
  return undefined
}

const requiredPinNode = (root: HclNode): HclNode | undefined => {
  for (const top of root.namedChildren[0]?.namedChildren ?? []) {
    if (top?.type !== "block" || top.namedChildren[0]?.text !== "terraform") continue
    const body = top.namedChildren.find((c) => c?.type === "body")
    for (const rp of body?.namedChildren ?? []) {
      if (rp?.type !== "block" || rp.namedChildren[0]?.text !== "required_providers") continue
      for (const a of rp.namedChildren.find((c) => c?.type === "body")?.namedChildren ?? []) {
        if (a?.type !== "attribute" || a.namedChildren[0]?.text !== "cloudflare") continue
        // Terraform 0.12's form: `cloudflare = "~> 2.0"`.
        const legacy = a.namedChildren[1]?.namedChildren[0]?.namedChildren[0]
        if (legacy?.type === "string_lit") return legacy
        const obj = a.namedChildren[1]?.namedChildren[0]?.namedChildren[0]
        if (obj?.type !== "object") continue
        for (const e of obj.namedChildren) {
          if (e?.type === "object_elem" && e.namedChildren[0]?.text === "version")
            return e.namedChildren[1]?.namedChildren[0]?.namedChildren[0] ?? undefined
        }
      }
    }
  }
  return undefined
}

export const hasPin = (root: HclNode): boolean => pinNode(root) !== undefined

const pinOf = (root: HclNode): string | undefined => {
  const node = pinNode(root)
  return node?.type === "string_lit" ? stringValue(node) : undefined
}

/**
 * The pins read from a module's files, by file: the editor checks on every change, so a module's
 * other files are parsed again only when they change. One per server (../registry.ts makes it).
 */
export type ModulePins = Map<string, { readonly mtimeMs: number; readonly pin: string | undefined }>

/** The `mtimeMs` of an editor's buffer of a module file: its pin wins over the file on disk until the buffer closes. */
const BUFFER = -1

/**
 * An open editor buffer of a module file (`versions.tf` edited, unsaved): its pin is what the
 * module's other files read, as Terraform will once it is saved. `text` undefined: closed.
 */
export const setModuleBuffer = async (pins: ModulePins, file: string, text: string | undefined): Promise<void> => {
  if (text === undefined) {
    if (pins.get(file)?.mtimeMs === BUFFER) pins.delete(file)
    return
  }
  pins.set(file, { mtimeMs: BUFFER, pin: await pinOfText(file, text) })
}

const pinOfFile = async (pins: ModulePins, file: string, mtimeMs: number): Promise<string | undefined> => {
  const cached = pins.get(file)
  if (cached?.mtimeMs === mtimeMs || cached?.mtimeMs === BUFFER) return cached.pin
  const pin = await pinOfText(file, fs.readFileSync(file, "utf8"))
  pins.set(file, { mtimeMs, pin })
  return pin
}

const pinOfText = async (file: string, text: string): Promise<string | undefined> => {
  let pin: string | undefined
  if (file.endsWith(".json")) {
    if (text.includes("provider")) pin = jsonPinNode(parseTree(text) ?? null)?.value as string | undefined
  } else if (text.includes("provider")) {
    const tree = await parseHcl(text)
    try {
      pin = pinOf(tree.rootNode)
    } finally {
      tree.delete()
    }
  }
  return pin
}

/**
 * Terraform JSON's pin (`"terraform": {"required_providers": {"cloudflare": {"version": "…"}}}`, or
 * the 0.12 string form), as its string node; blocks may be written as arrays of objects.
 */
export const jsonPinNode = (root: Node | null): Node | undefined => {
  const prop = (n: Node | undefined, key: string) =>
    n?.type === "object" ? n.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1] : undefined
  const items = (n: Node | undefined) => (n === undefined ? [] : n.type === "array" ? (n.children ?? []) : [n])
  for (const t of items(prop(root ?? undefined, "terraform")))
    for (const rp of items(prop(t, "required_providers"))) {
      const c = prop(rp, "cloudflare")
      const v = c?.type === "string" ? c : prop(c, "version")
      if (v?.type === "string") return v
    }
  // The legacy `"provider": {"cloudflare": {"version": "…"}}` (or a list of such blocks).
  for (const p of items(prop(root ?? undefined, "provider")))
    for (const c of items(prop(p, "cloudflare"))) {
      const v = prop(c, "version")
      if (v?.type === "string") return v
    }
  return undefined
}

/**
 * The constraint the other `*.tf` and `*.tf.json` files of the document's directory (its Terraform module) put on
 * the provider, all of them together as Terraform combines them; none for a document that is not
 * a file on disk.
 */
export const modulePin = async (
  name: string,
  pins: ModulePins = new Map()
): Promise<{ readonly constraint: string; readonly files: ReadonlyArray<string> } | undefined> => {
  if (name === "") return undefined
  let file: string
  try {
    file = name.startsWith("file:") ? fileURLToPath(name) : path.resolve(name)
  } catch {
    return undefined
  }
  const dir = path.dirname(file)
  const module = (f: string) => (f.endsWith(".tf") || f.endsWith(".tf.json")) && f !== path.basename(file)
  let entries: Array<string>
  try {
    entries = fs.readdirSync(dir).filter(module)
  } catch {
    entries = []
  }
  const found: Array<{ file: string; constraint: string }> = []
  for (const f of entries.sort()) {
    const full = path.join(dir, f)
    let c: string | undefined
    try {
      c = await pinOfFile(pins, full, pins.get(full)?.mtimeMs === BUFFER ? BUFFER : fs.statSync(full).mtimeMs)
    } catch {
      continue
    }
    if (c !== undefined) found.push({ file: f, constraint: c })
  }
  return found.length === 0
    ? undefined
    : { constraint: found.map((x) => x.constraint).join(", "), files: found.map((x) => x.file) }
}

/** The landmark and mentioned versions a constraint admits, sorted, the highest taken out, and its major. */
const admittedBy = (constraint: string) => {
  const mentioned = constraint.split(",").map((p) => p.replace(/^\s*(~>|>=|<=|!=|=|>|<)?\s*/, "").trim())
  const admitted = [...LANDMARKS, ...mentioned]
    .filter((v) => admits(constraint, v))
    .map(parse)
    .filter((v) => v !== undefined)
  const highest = admitted.sort(cmp).pop()
  const major: ProviderMajor = highest === undefined || highest[0] <= 3 ? 3 : highest[0] === 4 ? 4 : 5
  return { admitted, highest, major }
}

/** Whether some release satisfies a constraint (all of a module's pins, joined): else `terraform init` fails. */
export const satisfiable = (constraint: string): boolean => admittedBy(constraint).highest !== undefined

/**
 * The major version `terraform init -upgrade` selects under a constraint, as released (1.x and
 * 2.x too; 5.x is the latest), and 5 for a constraint no release satisfies.
 */
export const majorOf = (constraint: string): number => {
  if (lastMajor?.constraint !== constraint)
    lastMajor = { constraint, major: Math.min(admittedBy(constraint).highest?.[0] ?? 5, 5) }
  return lastMajor.major
}
// Each firewall resource's warning asks (../firewall-unsupported.ts), always about the file's one
// constraint: a pure answer, kept for the next call (it tried every landmark version: ~35% of a
// 1,000-resource check).
let lastMajor: { readonly constraint: string; readonly major: number } | undefined

/** What to write for the file's pin, or for `fallback` (the module's) when the file has none. */
export const providerTarget = (
  root: HclNode,
  fallback?: { readonly constraint: string; readonly files: ReadonlyArray<string> }
): ProviderTarget => {
  const node = pinNode(root)
  const own = node?.type === "string_lit" ? stringValue(node) : undefined
  return targetOf(
    own === undefined ? undefined : { constraint: own, range: { start: node!.startIndex, end: node!.endIndex } },
    fallback
  )
}

/** The same for a file whose own pin (its constraint and where it is written) was read by its syntax's reader. */
export const targetOf = (
  own: { readonly constraint: string; readonly range: Range } | undefined,
  fallback?: { readonly constraint: string; readonly files: ReadonlyArray<string> }
): ProviderTarget => {
  const constraint = own?.constraint ?? fallback?.constraint
  // Without a pin the previous-WAF resources can only be working on 3.35: the last release that has them.
  if (constraint === undefined)
    return { constraint: undefined, pinRange: undefined, major: 3, pinWithinMajor: undefined }
  const { admitted, highest, major } = admittedBy(constraint)
  const inMajor = admitted.filter((v) => v[0] === major)
  const pinWithinMajor =
    major === 3 &&
    (highest === undefined || !admits(constraint, "3.35.0") || inMajor.some((v) => cmp(v, [3, 17, 0]) < 0))
      ? "~> 3.35"
      : major === 4 && inMajor.some((v) => cmp(v, [4, 2, 0]) < 0)
        ? ">= 4.2.0, < 5.0.0"
        : undefined
  const majorUpgrade = pinWithinMajor !== undefined && highest !== undefined && highest[0] < 3
  return own !== undefined
    ? { constraint, pinRange: own.range, major, pinWithinMajor, ...(majorUpgrade ? { majorUpgrade } : {}) }
    : {
        constraint,
        pinRange: undefined,
        pinFiles: fallback!.files,
        major,
        pinWithinMajor,
        ...(majorUpgrade ? { majorUpgrade } : {})
      }
}

/** `terraform import` ids of a zone's ruleset for the provider major. */
export const importId = (major: ProviderMajor, zone: string): string =>
  `${major === 5 ? "zones" : "zone"}/${zone}/<ruleset_id>`

/** The constraint that selects a major version. */
export const pinFor = (major: ProviderMajor): string =>
  major === 3 ? "~> 3.35" : major === 4 ? ">= 4.2.0, < 5.0.0" : "~> 5"
