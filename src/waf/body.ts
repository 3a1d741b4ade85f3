/**
 * The entry point update's body, checked field by field so that a bad body gets a 400 naming the
 * field: `rules[2].action_parameters.overrides.rules[0].id: ...`. Expressions are checked with
 * src/rules. The final update (`pending`) carries `id`, `version` and `ref` on every rule (empty
 * strings, as the config operation returns them); the validation update omits them.
 *
 * With the catalog `null` (a remote platform, whose managed rulesets edgectl does not know) the ids
 * of managed rulesets, their rules and categories are checked for form only: everything else is
 * checked as the embedded platform checks it, so a `--remote` dry run catches what it can without
 * refusing a rule that exists there but not in this platform's catalog.
 */
import * as Either from "effect/Either"
import { InvalidInput } from "../domain/errors.js"
import type { WafConfig } from "../domain/waf.js"
import { check } from "../rules/index.js"
import { CATALOG, OWASP_SCORE_RULE, type Catalog } from "./catalog.js"
import type { MigrationMode } from "./state.js"

const OVERRIDE_ACTIONS = ["block", "managed_challenge", "js_challenge", "challenge", "log"]
const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const show = (u: unknown) => (u === undefined ? "nothing" : (JSON.stringify(u)?.slice(0, 80) ?? String(u)))

class Bad {
  constructor(
    readonly field: string,
    readonly message: string
  ) {}
}

const want = (cond: boolean, field: string, message: string) => {
  if (!cond) throw new Bad(field, message)
}

const optString = (o: Record<string, unknown>, k: string, at: string) =>
  want(o[k] === undefined || typeof o[k] === "string", `${at}.${k}`, `must be a string, got ${show(o[k])}`)
const optBool = (o: Record<string, unknown>, k: string, at: string) =>
  want(o[k] === undefined || typeof o[k] === "boolean", `${at}.${k}`, `must be true or false, got ${show(o[k])}`)

/** A managed ruleset's id, rule id or category where the catalog is unknown: a non-empty string. */
const FORM_ONLY = "must be a non-empty string"
const named = (u: unknown) => typeof u === "string" && u !== ""

const checkOverrides = (ov: unknown, rulesetId: string, at: string, catalog: Catalog | null) => {
  want(isRecord(ov), at, `must be an object, got ${show(ov)}`)
  const o = ov as Record<string, unknown>
  const ruleset = catalog?.ruleset(rulesetId)
  optBool(o, "enabled", at)
  want(
    o.action === undefined || OVERRIDE_ACTIONS.includes(o.action as string),
    `${at}.action`,
    `must be one of ${OVERRIDE_ACTIONS.join(", ")}, got ${show(o.action)}`
  )
  if (o.categories !== undefined) {
    want(Array.isArray(o.categories), `${at}.categories`, `must be an array, got ${show(o.categories)}`)
    const known = new Set(ruleset?.rules.flatMap((r) => r.categories))
    ;(o.categories as Array<unknown>).forEach((c, i) => {
      const f = `${at}.categories[${i}]`
      want(isRecord(c), f, `must be an object, got ${show(c)}`)
      const cat = (c as Record<string, unknown>).category
      want(
        ruleset === undefined ? named(cat) : typeof cat === "string" && known.has(cat),
        `${f}.category`,
        `${ruleset === undefined ? FORM_ONLY : `must be a category (tag) of ${ruleset.name}`}, got ${show(cat)}`
      )
      optBool(c as Record<string, unknown>, "enabled", f)
      const a = (c as Record<string, unknown>).action
      want(
        a === undefined || OVERRIDE_ACTIONS.includes(a as string),
        `${f}.action`,
        `must be one of ${OVERRIDE_ACTIONS.join(", ")}, got ${show(a)}`
      )
    })
  }
  if (o.rules !== undefined) {
    want(Array.isArray(o.rules), `${at}.rules`, `must be an array, got ${show(o.rules)}`)
    const ids = new Set(ruleset?.rules.map((r) => r.id))
    ;(o.rules as Array<unknown>).forEach((r, i) => {
      const f = `${at}.rules[${i}]`
      want(isRecord(r), f, `must be an object, got ${show(r)}`)
      const rr = r as Record<string, unknown>
      want(
        ruleset === undefined ? named(rr.id) : typeof rr.id === "string" && ids.has(rr.id),
        `${f}.id`,
        `${ruleset === undefined ? FORM_ONLY : `must be the id of a rule of ${ruleset.name}`}, got ${show(rr.id)}`
      )
      optBool(rr, "enabled", f)
      want(
        rr.action === undefined || OVERRIDE_ACTIONS.includes(rr.action as string),
        `${f}.action`,
        `must be one of ${OVERRIDE_ACTIONS.join(", ")}, got ${show(rr.action)}`
      )
      if (rr.score_threshold !== undefined) {
        want(
          rr.id === OWASP_SCORE_RULE,
          `${f}.score_threshold`,
          `only the last OWASP rule (${OWASP_SCORE_RULE}) takes a score threshold`
        )
        const t = rr.score_threshold
        want(
          typeof t === "number" && Number.isInteger(t) && t >= 1 && t <= 1000,
          `${f}.score_threshold`,
          `must be an integer between 1 and 1000, got ${show(t)}`
        )
      }
    })
  }
}

const checkRule = (u: unknown, i: number, mode: MigrationMode | undefined, catalog: Catalog | null) => {
  const at = `rules[${i}]`
  want(isRecord(u), at, `must be an object, got ${show(u)}`)
  const r = u as Record<string, unknown>
  if (mode === "pending") {
    for (const k of ["id", "version", "ref"]) {
      want(
        typeof r[k] === "string",
        `${at}.${k}`,
        r[k] === undefined
          ? `the final update (waf_migration=pending) must carry id, version and ref as the config operation returns them (empty strings); ${k} is missing`
          : `must be a string, got ${show(r[k])}`
      )
    }
  } else if (mode === "validation") {
    for (const k of ["id", "version", "ref"]) {
      want(
        r[k] === undefined,
        `${at}.${k}`,
        `the validation update (waf_migration=validation) omits id, version and ref; remove ${k}`
      )
    }
  } else {
    for (const k of ["id", "version", "ref"]) optString(r, k, at)
  }
  want(
    r.action === "execute" || r.action === "skip",
    `${at}.action`,
    `must be execute or skip in the http_request_firewall_managed phase, got ${show(r.action)}`
  )
  want(typeof r.expression === "string", `${at}.expression`, `must be a string, got ${show(r.expression)}`)
  const c = check(r.expression as string)
  if (!c.valid) {
    const d = c.diagnostics.find((x) => x.severity === "error")!
    throw new Bad(`${at}.expression`, `${d.message} (at character ${d.range.start})`)
  }
  optBool(r, "enabled", at)
  optString(r, "description", at)
  const p = r.action_parameters
  const pat = `${at}.action_parameters`
  want(isRecord(p), pat, `must be an object, got ${show(p)}`)
  const ap = p as Record<string, unknown>
  const known = catalog?.managed.map((m) => m.id)
  const isManaged = (id: unknown) => (known === undefined ? named(id) : typeof id === "string" && known.includes(id))
  if (r.action === "execute") {
    want(
      isManaged(ap.id),
      `${pat}.id`,
      `${known === undefined ? `must be a managed ruleset id, a non-empty string` : `must be a managed ruleset id (${known.join(" or ")})`}, got ${show(ap.id)}`
    )
    optString(ap, "version", pat)
    if (ap.overrides !== undefined) checkOverrides(ap.overrides, ap.id as string, `${pat}.overrides`, catalog)
  } else {
    const given = ["ruleset", "rulesets", "rules"].filter((k) => ap[k] !== undefined)
    want(
      given.length === 1,
      pat,
      `a skip rule gives exactly one of ruleset, rulesets and rules, got ${given.length === 0 ? "none" : given.join(", ")}`
    )
    if (ap.ruleset !== undefined)
      want(ap.ruleset === "current", `${pat}.ruleset`, `must be "current", got ${show(ap.ruleset)}`)
    if (ap.rulesets !== undefined) {
      want(
        Array.isArray(ap.rulesets),
        `${pat}.rulesets`,
        `must be an array of managed ruleset ids, got ${show(ap.rulesets)}`
      )
      ;(ap.rulesets as Array<unknown>).forEach((id, j) =>
        want(isManaged(id), `${pat}.rulesets[${j}]`, `must be a managed ruleset id, got ${show(id)}`)
      )
    }
    if (ap.rules !== undefined) {
      want(isRecord(ap.rules), `${pat}.rules`, `must be an object of ruleset id to rule ids, got ${show(ap.rules)}`)
      for (const [rs, ids] of Object.entries(ap.rules as Record<string, unknown>)) {
        const ruleset = catalog?.ruleset(rs)
        want(
          catalog === null ? rs !== "" : ruleset !== undefined,
          `${pat}.rules`,
          `${show(rs)} is not a managed ruleset id`
        )
        want(Array.isArray(ids), `${pat}.rules.${rs}`, `must be an array of rule ids, got ${show(ids)}`)
        const have = new Set(ruleset?.rules.map((x) => x.id))
        ;(ids as Array<unknown>).forEach((id, j) =>
          want(
            ruleset === undefined ? named(id) : typeof id === "string" && have.has(id),
            `${pat}.rules.${rs}[${j}]`,
            `${ruleset === undefined ? FORM_ONLY : `must be a rule id of ${ruleset.name}`}, got ${show(id)}`
          )
        )
      }
    }
  }
}

/** The body as a configuration, or InvalidInput naming the first bad field. */
export const checkEntrypointBody = (
  body: unknown,
  mode: MigrationMode | undefined,
  catalog: Catalog | null = CATALOG
): Either.Either<WafConfig, InvalidInput> => {
  try {
    want(isRecord(body), "body", `must be an object with name and rules, got ${show(body)}`)
    const b = body as Record<string, unknown>
    optString(b, "name", "body")
    optString(b, "description", "body")
    want(Array.isArray(b.rules), "rules", `must be an array of ruleset rules, got ${show(b.rules)}`)
    ;(b.rules as Array<unknown>).forEach((r, i) => checkRule(r, i, mode, catalog))
    return Either.right({
      name: (b.name as string | undefined) ?? "default",
      ...(typeof b.description === "string" ? { description: b.description } : {}),
      rules: b.rules as WafConfig["rules"]
    })
  } catch (e) {
    if (e instanceof Bad) return Either.left(new InvalidInput({ message: `${e.field}: ${e.message}` }))
    throw e
  }
}
