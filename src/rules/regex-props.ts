/**
 * Unicode property names: the Rust crate matches them loosely (`greek`, `Greek`, `sc=Greek`,
 * `Letter`, `L`); JavaScript wants canonical spellings, so candidates are tried in turn.
 */
// `Letter`, `L`); JavaScript wants canonical spellings, so candidates are tried in turn.

const propertyCache = new Map<string, string | null>()

const titleCase = (s: string) =>
  s
    .split(/[_\s-]+/)
    .filter((w) => w !== "")
    .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase())
    .join("_")

const works = (body: string) => {
  try {
    new RegExp(`\\p{${body}}`, "v")
    return true
  } catch {
    return false
  }
}

/** The JavaScript spelling of a Rust Unicode class name, or undefined when there is none. */
export const resolveProperty = (name: string): string | undefined => {
  const cached = propertyCache.get(name)
  if (cached !== undefined) return cached ?? undefined
  const found = resolveUncached(name)
  propertyCache.set(name, found ?? null)
  return found
}

const KEYS: Record<string, string> = {
  sc: "Script",
  script: "Script",
  scx: "Script_Extensions",
  script_extensions: "Script_Extensions",
  gc: "General_Category",
  general_category: "General_Category"
}

const resolveUncached = (name: string): string | undefined => {
  const eq = name.split(/[=:]/)
  if (eq.length === 2) {
    const key = KEYS[eq[0]!.trim().toLowerCase().replace(/[\s-]/g, "_")]
    if (key === undefined) return undefined
    for (const v of valueCandidates(eq[1]!.trim())) if (works(`${key}=${v}`)) return `${key}=${v}`
    return undefined
  }
  const special: Record<string, string> = { any: "Any", ascii: "ASCII", assigned: "Assigned" }
  const s = special[name.toLowerCase()]
  if (s) return s
  for (const v of valueCandidates(name)) {
    if (works(v)) return v
    if (works(`Script=${v}`)) return `Script=${v}`
  }
  return undefined
}

const valueCandidates = (v: string): ReadonlyArray<string> => {
  const compact = v.replace(/[\s-]/g, "_")
  const out = [v, compact, titleCase(compact)]
  if (compact.length <= 2) out.push(compact[0]!.toUpperCase() + compact.slice(1).toLowerCase())
  return [...new Set(out)]
}
