/**
 * Terraform for the scanner: the cloudflare provider version a module pins (its lowest allowed
 * version), resource and data blocks by type, and attributes inside a resource's block, in HCL
 * (`*.tf`) and in Terraform's JSON syntax (`*.tf.json`).
 */

/** `[major, minor, patch]`. */
export type Version = readonly [number, number, number]

export const parseVersion = (s: string): Version | undefined => {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(s.trim())
  return m === null ? undefined : [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)]
}

export const compareVersions = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]

export const versionText = (v: Version) => v.join(".")

/**
 * The lowest provider version a constraint allows (`~> 4.20`, `>= 4, < 5`, `= 4.52.5`, `4.52.5`),
 * the one whose behaviour a module must be ready for; undefined when the constraint has no lower bound.
 */
export const lowestAllowed = (constraint: string): Version | undefined => {
  let best: Version | undefined
  for (const part of constraint.split(",")) {
    const m = /^\s*(~>|>=|=|>|)\s*(v?\d[\d.]*)\s*$/.exec(part)
    if (m === null) continue
    const v = parseVersion(m[2]!)
    if (v !== undefined && (best === undefined || compareVersions(v, best) > 0)) best = v
  }
  return best
}

const PIN_HCL = /\bcloudflare\s*=\s*\{[^}]*?\bversion\s*=\s*"([^"]+)"/s
const PIN_JSON = /"cloudflare"\s*:\s*\{[^}]*?"version"\s*:\s*"([^"]+)"/s

/** The constraint a Terraform file pins the cloudflare provider to, if it does. */
export const pinIn = (text: string, json: boolean): string | undefined => (json ? PIN_JSON : PIN_HCL).exec(text)?.[1]

export interface Block {
  readonly kind: "resource" | "data"
  readonly type: string
  readonly name: string
  /** The type label's offsets (quotes excluded). */
  readonly start: number
  readonly end: number
  /** The body, braces included (HCL); the object after the type key (JSON). */
  readonly bodyStart: number
  readonly bodyEnd: number
}

/** The offset after the brace that closes the one at `open`, strings and comments skipped. */
const closeBrace = (text: string, open: number): number => {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const ch = text[i]
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++
    } else if (ch === "#" || (ch === "/" && text[i + 1] === "/")) {
      const nl = text.indexOf("\n", i)
      i = nl < 0 ? text.length : nl
    } else if (ch === "{") depth++
    else if (ch === "}" && --depth === 0) return i + 1
  }
  return text.length
}

const HCL_BLOCK = /^[ \t]*(resource|data)[ \t]+"(cloudflare_[a-z0-9_]+)"[ \t]+"([^"]*)"[ \t]*\{/gm

/** The cloudflare resource and data blocks of an HCL file. */
export const hclBlocks = (text: string): Array<Block> => {
  const out: Array<Block> = []
  HCL_BLOCK.lastIndex = 0
  let m: RegExpExecArray | null
  while ((m = HCL_BLOCK.exec(text)) !== null) {
    const start = m.index + m[0].indexOf('"') + 1
    const open = m.index + m[0].length - 1
    out.push({
      kind: m[1] as Block["kind"],
      type: m[2]!,
      name: m[3]!,
      start,
      end: start + m[2]!.length,
      bodyStart: open,
      bodyEnd: closeBrace(text, open)
    })
  }
  return out
}

const JSON_SECTION = /"(resource|data)"\s*:\s*\{/g
const JSON_TYPE = /"(cloudflare_[a-z0-9_]+)"\s*:\s*\{/g

/** The cloudflare resource and data types of a `*.tf.json` file (each type's object as its body). */
export const jsonBlocks = (text: string): Array<Block> => {
  const out: Array<Block> = []
  JSON_SECTION.lastIndex = 0
  let s: RegExpExecArray | null
  while ((s = JSON_SECTION.exec(text)) !== null) {
    const open = s.index + s[0].length - 1
    const close = closeBrace(text, open)
    const section = text.slice(0, close)
    JSON_TYPE.lastIndex = open + 1
    let t: RegExpExecArray | null
    while ((t = JSON_TYPE.exec(section)) !== null) {
      const typeOpen = t.index + t[0].length - 1
      const bodyEnd = closeBrace(text, typeOpen)
      out.push({
        kind: s[1] as Block["kind"],
        type: t[1]!,
        name: "",
        start: t.index + 1,
        end: t.index + 1 + t[1]!.length,
        bodyStart: typeOpen,
        bodyEnd
      })
      JSON_TYPE.lastIndex = bodyEnd
    }
    JSON_SECTION.lastIndex = close
  }
  return out
}

/** Where attribute `name` is set in a block's body (HCL `name =`, JSON `"name":`), each occurrence. */
export const attributeUses = (text: string, b: Block, name: string, json: boolean): Array<number> => {
  const re = json ? new RegExp(`"(${name})"\\s*:`, "g") : new RegExp(`^[ \\t]*(${name})[ \\t]*=`, "gm")
  const body = text.slice(0, b.bodyEnd)
  re.lastIndex = b.bodyStart
  const out: Array<number> = []
  let m: RegExpExecArray | null
  while ((m = re.exec(body)) !== null) {
    // Only the block's own attributes: one level of braces in (a nested block may reuse the name).
    const before = text.slice(b.bodyStart, m.index)
    const depth = (before.match(/\{/g)?.length ?? 0) - (before.match(/\}/g)?.length ?? 0)
    if (depth === (json ? 2 : 1)) out.push(m.index + m[0].indexOf(m[1]!))
  }
  return out
}
