/**
 * Firewall filters and rules (area C): the operations users run, over the v4 client. Failures are
 * the client's tagged errors: `InvalidExpression` (with the checker's diagnostics),
 * `DuplicateFilter` (with the existing filter's id), `QuotaExceeded` (with the id of the filter a
 * combined call left behind). A two-step create whose second step fails says which filter exists.
 */
import * as Either from "effect/Either"
import * as Effect from "effect/Effect"
import { call } from "../api/client.js"
import { collectPages } from "../api/pages.js"
import { FirewallEndpoints as E } from "../api/contract-firewall.js"
import type { PlannedRequest } from "../domain/request-text.js"
import { InvalidInput, QuotaExceeded, V4ErrorClasses, type V4Error } from "../domain/errors.js"
import { type Filter, type FirewallAction, type FirewallDecision, type Rule } from "../domain/firewall.js"
import { problemsMessage, readRuleFields } from "../firewall/body.js"
import { ruleWrite, type RuleChanges, type RuleWrite } from "../firewall/rule-input.js"
import { asFirewallRule } from "../firewall/evaluated-rule.js"
import { toWireDiagnostic } from "../firewall/expression.js"
import { firewall, validateRequest, type Request } from "../rules/index.js"

export interface FilterInput {
  readonly expression: string
  readonly description?: string | undefined
  readonly paused?: boolean | undefined
  readonly ref?: string | undefined
}

export interface RuleInput {
  readonly action: FirewallAction
  readonly priority?: number | null | undefined
  readonly description?: string | undefined
  readonly paused?: boolean | undefined
  readonly products?: ReadonlyArray<string> | undefined
}

const zonePath = (zoneId: string) => ({ zone_id: zoneId })

// ---- filters ----

export const allFilters = (zoneId: string) =>
  collectPages((page) => call(E.listFilters, { path: zonePath(zoneId), urlParams: { page, per_page: 100 } }))

export const createFilter = (zoneId: string, f: FilterInput) =>
  Effect.map(call(E.createFilters, { path: zonePath(zoneId), payload: [f] }), (fs) => fs[0]!)

export const getFilter = (zoneId: string, id: string) => call(E.getFilter, { path: { zone_id: zoneId, filter_id: id } })

/** Changes some fields of a filter: reads it, then PUTs it whole (omitted fields would be erased). */
export type FilterChanges = { readonly [K in keyof FilterInput]?: FilterInput[K] | undefined }

const filterWrite = (f: Filter, changes: FilterChanges) => ({ ...f, ...defined(changes) })

export const updateFilter = (zoneId: string, id: string, changes: FilterChanges) =>
  Effect.flatMap(getFilter(zoneId, id), (f) =>
    call(E.updateFilter, { path: { zone_id: zoneId, filter_id: id }, payload: filterWrite(f, changes) })
  )

export const deleteFilter = (zoneId: string, id: string) =>
  Effect.as(call(E.deleteFilter, { path: { zone_id: zoneId, filter_id: id } }), { id })

// ---- rules ----

/** Every rule of the zone, in the platform's listing order. */
export const allRules = (zoneId: string) =>
  collectPages((page) => call(E.listRules, { path: zonePath(zoneId), urlParams: { page, per_page: 100 } }))

export const getRule = (zoneId: string, id: string) => call(E.getRule, { path: { zone_id: zoneId, rule_id: id } })

/** `o` without its undefined fields: a field that may be undefined becomes optional, the others stay required. */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>
}
const defined = <T extends object>(o: T): Defined<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Defined<T>

const ruleBody = (r: RuleInput) =>
  defined({
    action: r.action,
    priority: r.priority,
    description: r.description,
    paused: r.paused,
    products: r.products
  })

/** A rule on an existing filter (reused by as many rules as needed). */
export const createRuleOnFilter = (zoneId: string, filterId: string, r: RuleInput) =>
  Effect.map(
    call(E.createRules, { path: zonePath(zoneId), payload: [{ ...ruleBody(r), filter: { id: filterId } }] }),
    (rs) => rs[0]!
  )

const combinedBody = (filter: FilterInput, r: RuleInput) => [{ ...ruleBody(r), filter: defined(filter) }]

/**
 * The combined call: the filter and the rule in one request (the spec's emergency path). Over the
 * quota the platform may keep the filter and refuse the rule: the QuotaExceeded names it (`filterId`).
 */
export const createRuleCombined = (zoneId: string, filter: FilterInput, r: RuleInput) =>
  Effect.map(call(E.createRules, { path: zonePath(zoneId), payload: combinedBody(filter, r) }), (rs) => rs[0]!)

/** The same error, saying first what exists now; a QuotaExceeded also names the filter left. */
const withFilterLeft = <E extends V4Error>(e: E, filter: Filter): E => {
  // A rule sent with no answer may exist: its own message says so, with the request it names.
  if (e._tag === "NoAnswer") return e
  const message = `filter ${filter.id} was created, the rule was not: ${e.message}`
  const meta = { ...((e.meta as object | undefined) ?? {}), filter_id: filter.id }
  // The same tag as `e` each time (E: the rule's call's failures, kept in the signature).
  const same = (x: V4Error) => x as E
  if (e._tag === "QuotaExceeded") return same(new QuotaExceeded({ code: e.code, message, filterId: filter.id, meta }))
  if (e._tag === "DuplicateFilter")
    return same(new V4ErrorClasses.DuplicateFilter({ code: e.code, message, existingId: e.existingId, meta }))
  if (e._tag === "InvalidExpression")
    return same(new V4ErrorClasses.InvalidExpression({ code: e.code, message, diagnostics: e.diagnostics, meta }))
  const Cls = V4ErrorClasses[e._tag] as unknown as new (args: object) => V4Error
  return same(new Cls({ code: e.code, message, meta, ...(e._tag === "ApiError" ? { status: e.status } : {}) }))
}

/**
 * The recommended two-step flow: create the filter, then the rule referencing it. When the second
 * step fails the error says that the filter exists (`meta.filter_id`, or `filterId` on a quota).
 */
export const createRuleTwoStep = (zoneId: string, filter: FilterInput, r: RuleInput) => {
  // The rule is checked as the platform checks it before the filter exists: a rule refused for its
  // own fields would otherwise leave the filter behind.
  const read = readRuleFields(ruleBody(r))
  if (Either.isLeft(read))
    return Effect.fail(new InvalidInput({ message: problemsMessage(read.left), meta: { problems: read.left } }))
  return Effect.flatMap(createFilter(zoneId, filter), (f) =>
    createRuleOnFilter(zoneId, f.id, r).pipe(
      Effect.map((rule) => ({ rule, filter: f })),
      Effect.mapError((e) => withFilterLeft(e, f))
    )
  )
}

export type { RuleChanges, RuleWrite }

/** PUTs a rule whole (the migration's pause and resume steps: the body is in the plan). */
export const putRule = (zoneId: string, body: RuleWrite) =>
  call(E.updateRule, { path: { zone_id: zoneId, rule_id: body.id }, payload: body })

/** Changes some fields of a rule: reads it and PUTs it whole, referencing its filter by id only. */
export const updateRule = (zoneId: string, id: string, changes: RuleChanges) =>
  Effect.flatMap(getRule(zoneId, id), (rule) => putRule(zoneId, ruleWrite(rule, changes)))

export const setRulePaused = (zoneId: string, id: string, paused: boolean) => updateRule(zoneId, id, { paused })

const enc = encodeURIComponent

/**
 * The requests of the writes above, as `--dry-run` and the TUI's `v` show them. An update is the
 * rule read again and PUT whole: from `rule` as last read, its body is this one.
 */
export const updateRuleRequest = (zoneId: string, rule: Rule, changes: RuleChanges): PlannedRequest => ({
  method: "PUT",
  path: `/zones/${enc(zoneId)}/firewall/rules/${enc(rule.id)}`,
  body: ruleWrite(rule, changes)
})
export const createRuleCombinedRequest = (zoneId: string, filter: FilterInput, r: RuleInput): PlannedRequest => ({
  method: "POST",
  path: `/zones/${enc(zoneId)}/firewall/rules`,
  body: combinedBody(filter, r)
})
/** `updateFilter`'s PUT, from `filter` as last read. */
export const updateFilterRequest = (zoneId: string, filter: Filter, changes: FilterChanges): PlannedRequest => ({
  method: "PUT",
  path: `/zones/${enc(zoneId)}/filters/${enc(filter.id)}`,
  body: filterWrite(filter, changes)
})
export const deleteRuleRequest = (zoneId: string, id: string): PlannedRequest => ({
  method: "DELETE",
  path: `/zones/${enc(zoneId)}/firewall/rules/${enc(id)}`
})
export const deleteFilterRequest = (zoneId: string, id: string): PlannedRequest => ({
  method: "DELETE",
  path: `/zones/${enc(zoneId)}/filters/${enc(id)}`
})

/** Deletes a rule; its filter stays unless `deleteFilterIfUnused` and no other rule uses it. */
export const deleteRule = (zoneId: string, id: string, options: { readonly deleteFilterIfUnused?: boolean } = {}) =>
  Effect.as(
    call(E.deleteRule, {
      path: { zone_id: zoneId, rule_id: id },
      urlParams: options.deleteFilterIfUnused === true ? { delete_filter_if_unused: true } : {}
    }),
    { id }
  )

/**
 * The platform's own check of an expression (`/filters/validate-expr`, no zone, so no plan):
 * undefined when it is valid, else the error with the platform's "Filter parsing error" text.
 */
export const validateExpression = (expression: string) =>
  call(E.validateExprPost, { payload: { expression } }).pipe(
    Effect.as(undefined),
    Effect.catchTag("InvalidExpression", (e) => Effect.succeed(e))
  )

// ---- decisions ----

/** Which of the given rules decides the request (src/rules' firewall: the platform's order). */
const decide = (rules: ReadonlyArray<Rule>, request: Request): FirewallDecision => {
  const byId = new Map(rules.map((r) => [r.id, r]))
  const fw = firewall(rules.map(asFirewallRule))
  const d = fw.decide(request)
  return {
    action: d.action ?? null,
    rule: d.rule ? byId.get(d.rule.id)! : null,
    logged: d.logged.map((r) => byId.get(r.id)!),
    bypassed: d.bypassed.map((b) => ({ rule: byId.get(b.rule.id)!, products: b.products })),
    evaluated: d.evaluated,
    invalid: fw.invalid.map((i) => ({ rule: byId.get(i.rule.id)!, diagnostics: i.diagnostics.map(toWireDiagnostic) }))
  }
}

/** Evaluates the zone's active rules against a request (field name to value, see src/rules). */
export const testRequest = (zoneId: string, request: unknown) => {
  const problems = validateRequest(request)
  if (problems.length > 0) {
    const p = problems[0]!
    return Effect.fail(
      // Checked here before any request: no platform answered, so no platform code.
      new InvalidInput({
        message: `request field ${p.field || "(the request)"}: ${p.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`,
        clientSide: true
      })
    )
  }
  return Effect.map(allRules(zoneId), (rules) => ({ ...decide(rules, request as Request), rules: rules.length }))
}
