/**
 * A URI-based override's create / update body, checked field by field (the platform's rules: `urls`
 * required, `groups` or `rules` required on create, actions from the previous WAF's five).
 */
import * as Either from "effect/Either"
import { InvalidInput } from "../domain/errors.js"
import type { WafOverride } from "../domain/waf.js"
import { CATALOG } from "../waf/catalog.js"

const ACTIONS = ["default", "disable", "simulate", "block", "challenge"]
const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const show = (u: unknown) => (u === undefined ? "nothing" : (JSON.stringify(u) ?? String(u)).slice(0, 80))
const bad = (field: string, message: string) => Either.left(new InvalidInput({ message: `${field}: ${message}` }))

export const checkOverrideBody = (
  body: unknown,
  id: string,
  update: boolean
): Either.Either<WafOverride, InvalidInput> => {
  if (!isRecord(body)) return bad("body", `must be an object with urls and rules or groups, got ${show(body)}`)
  const { urls, rules, groups, rewrite_action, description, priority, paused } = body
  if (
    !Array.isArray(urls) ||
    urls.length === 0 ||
    !urls.every((u) => typeof u === "string" && u.length > 0 && u.length <= 2048)
  ) {
    return bad("urls", `must be a non-empty array of URL patterns (at most 2,048 characters each), got ${show(urls)}`)
  }
  if (rules === undefined && groups === undefined)
    return bad("rules", "an override needs rules or groups (or both), got neither")
  if (update && (rules === undefined || rewrite_action === undefined))
    return bad(rules === undefined ? "rules" : "rewrite_action", "an update sends id, urls, rules and rewrite_action")
  if (rules !== undefined) {
    if (!isRecord(rules)) return bad("rules", `must be an object of rule id to action, got ${show(rules)}`)
    for (const [k, v] of Object.entries(rules)) {
      if (CATALOG.rule(k) === undefined) return bad(`rules.${k}`, "no rule of the previous WAF has this id")
      if (!ACTIONS.includes(v as string))
        return bad(`rules.${k}`, `must be one of ${ACTIONS.join(", ")}, got ${show(v)}`)
    }
  }
  if (groups !== undefined) {
    if (!isRecord(groups)) return bad("groups", `must be an object of group id to mode, got ${show(groups)}`)
    for (const [k, v] of Object.entries(groups)) {
      if (CATALOG.group(k) === undefined) return bad(`groups.${k}`, "no group of the previous WAF has this id")
      if (v !== "on" && v !== "off" && !ACTIONS.includes(v as string))
        return bad(`groups.${k}`, `must be on, off, default or disable, got ${show(v)}`)
    }
  }
  if (rewrite_action !== undefined) {
    if (!isRecord(rewrite_action)) return bad("rewrite_action", `must be an object, got ${show(rewrite_action)}`)
    for (const [k, v] of Object.entries(rewrite_action)) {
      if (!ACTIONS.includes(k))
        return bad(`rewrite_action.${k}`, `is not an action; the keys are ${ACTIONS.join(", ")}`)
      if (!ACTIONS.includes(v as string))
        return bad(`rewrite_action.${k}`, `must be one of ${ACTIONS.join(", ")}, got ${show(v)}`)
    }
  }
  if (
    description !== undefined &&
    description !== null &&
    (typeof description !== "string" || description.length > 1024)
  ) {
    return bad(
      "description",
      `must be a string of at most 1,024 characters, got ${typeof description === "string" ? `${description.length} characters` : show(description)}`
    )
  }
  if (
    priority !== undefined &&
    (typeof priority !== "number" || !Number.isInteger(priority) || Math.abs(priority) > 1e9)
  ) {
    return bad("priority", `must be an integer between -1000000000 and 1000000000, got ${show(priority)}`)
  }
  if (paused !== undefined && typeof paused !== "boolean")
    return bad("paused", `must be true or false, got ${show(paused)}`)
  return Either.right({
    id,
    description: (description as string | null | undefined) ?? null,
    urls: urls as Array<string>,
    priority: (priority as number | undefined) ?? 1,
    paused: (paused as boolean | undefined) ?? false,
    ...(groups !== undefined ? { groups: groups as Record<string, string> } : {}),
    ...(rules !== undefined ? { rules: rules as Record<string, string> } : {}),
    ...(rewrite_action !== undefined
      ? { rewrite_action: rewrite_action as WafOverride["rewrite_action"] & object }
      : {})
  })
}
