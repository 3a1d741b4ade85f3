/**
 * Reads the JSON bodies of the filters and firewall-rules endpoints. Pure: every problem of every
 * element is collected (`[1].action must be one of block, ..., got "deny"`), so one answer tells a
 * user everything that is wrong; the expressions themselves are checked by src/firewall/expression.ts.
 */
import * as Either from "effect/Either"
import { BypassProducts, FirewallActions, type FirewallAction } from "../domain/firewall.js"

export const Limits = { description: 500, ref: 50, priority: 2_147_483_647, batch: 1000 } as const

export interface Problem {
  /** Index of the element in the array body; undefined for a single-object body. */
  readonly index: number | undefined
  readonly field: string
  readonly message: string
}

export interface FilterFields {
  readonly expression: string
  readonly paused: boolean
  readonly description: string | null
  readonly ref: string | null
}

export interface FilterUpdate extends FilterFields {
  readonly id: string
}

/** How a rule names its filter: an existing one by id, or a new one (the combined call). */
type FilterRef =
  | { readonly kind: "id"; readonly id: string; readonly given: Partial<FilterFields> }
  | { readonly kind: "new"; readonly filter: FilterFields }

export interface RuleFields {
  readonly action: FirewallAction
  readonly priority: number | null
  readonly paused: boolean
  readonly description: string | null
  readonly ref: string | null
  readonly products: ReadonlyArray<string> | null
}

export interface RuleCreate extends RuleFields {
  readonly filter: FilterRef
}

export interface RuleUpdate extends RuleFields {
  readonly id: string
  /** The filter the rule points to; `given` holds the filter fields the body also sent. */
  readonly filter: { readonly id: string; readonly given: Partial<FilterFields> }
}

export interface PriorityChange {
  readonly id: string
  readonly priority: number | null
}

/** A body read: its value, or every problem it has. */
export type Read<A> = Either.Either<A, ReadonlyArray<Problem>>

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const show = (v: unknown) => {
  const s = JSON.stringify(v)
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s
}

const kind = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `${typeof v} ${show(v)}`

/** Collects problems of one element; `at` prefixes field names with the element's position. */
class Reader {
  readonly problems: Array<Problem> = []
  constructor(readonly index: number | undefined) {}

  private add(field: string, message: string) {
    const where = this.index === undefined ? field : `[${this.index}].${field}`
    this.problems.push({ index: this.index, field, message: `${where} ${message}` })
  }

  string(
    o: Record<string, unknown>,
    field: string,
    opts: { required: boolean; max?: number; nonEmpty?: boolean; label?: string }
  ): string | undefined {
    const name = opts.label ?? field
    const v = o[field]
    if (v === undefined || v === null) {
      if (opts.required) this.add(name, "is required")
      return undefined
    }
    if (typeof v !== "string") return (this.add(name, `must be a string, got ${kind(v)}`), undefined)
    if (opts.nonEmpty && v.trim() === "") return (this.add(name, "must not be empty"), undefined)
    if (opts.max !== undefined && v.length > opts.max) {
      return (this.add(name, `must be at most ${opts.max} characters, got ${v.length}`), undefined)
    }
    return v
  }

  boolean(o: Record<string, unknown>, field: string, label = field): boolean | undefined {
    const v = o[field]
    if (v === undefined || v === null) return undefined
    if (typeof v !== "boolean") return (this.add(label, `must be true or false, got ${kind(v)}`), undefined)
    return v
  }

  priority(o: Record<string, unknown>, required: boolean): number | null {
    const v = o.priority
    if (v === undefined || v === null) {
      if (required && !("priority" in o))
        this.add("priority", "is required (a number, or null to run after every rule with a priority)")
      return null
    }
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > Limits.priority) {
      this.add("priority", `must be an integer between 0 and ${Limits.priority} or null, got ${kind(v)}`)
      return null
    }
    return v
  }

  action(o: Record<string, unknown>): FirewallAction | undefined {
    const v = o.action
    if (v === undefined || v === null)
      return (this.add("action", `is required: one of ${FirewallActions.join(", ")}`), undefined)
    if (typeof v !== "string" || !(FirewallActions as ReadonlyArray<string>).includes(v)) {
      return (this.add("action", `must be one of ${FirewallActions.join(", ")}, got ${kind(v)}`), undefined)
    }
    return v as FirewallAction
  }

  products(o: Record<string, unknown>, action: FirewallAction | undefined): ReadonlyArray<string> | null {
    const v = o.products
    if (v === undefined || v === null) {
      if (action === "bypass")
        this.add("products", `is required with action bypass: one or more of ${BypassProducts.join(", ")}`)
      return null
    }
    if (action !== undefined && action !== "bypass")
      return (this.add("products", `is only allowed with action bypass (the action is ${action})`), null)
    if (!Array.isArray(v) || v.length === 0)
      return (this.add("products", `must be a non-empty array of ${BypassProducts.join(", ")}, got ${kind(v)}`), null)
    const bad = v.find((p) => typeof p !== "string" || !(BypassProducts as ReadonlyArray<string>).includes(p))
    if (bad !== undefined)
      return (this.add("products", `must contain only ${BypassProducts.join(", ")}, got ${kind(bad)}`), null)
    return [...new Set(v as Array<string>)]
  }

  object(v: unknown, field: string): Record<string, unknown> | undefined {
    if (!isRecord(v)) return (this.add(field, `must be an object, got ${kind(v)}`), undefined)
    return v
  }

  fail(field: string, message: string) {
    this.add(field, message)
  }
}

/** The elements of an array body; `single` accepts one object as an array of one (the SDK sends that). */
const elements = (
  body: unknown,
  what: string,
  single: boolean
): Read<{ readonly items: ReadonlyArray<unknown>; readonly single: boolean }> => {
  if (Array.isArray(body)) {
    if (body.length === 0)
      return Either.left([
        { index: undefined, field: "body", message: `body must be a non-empty JSON array of ${what}` }
      ])
    if (body.length > Limits.batch) {
      return Either.left([
        {
          index: undefined,
          field: "body",
          message: `body must hold at most ${Limits.batch} ${what}, got ${body.length}`
        }
      ])
    }
    return Either.right({ items: body, single: false })
  }
  if (single && isRecord(body)) return Either.right({ items: [body], single: true })
  return Either.left([
    { index: undefined, field: "body", message: `body must be a JSON array of ${what}, got ${kind(body)}` }
  ])
}

const readAll = <A>(
  body: unknown,
  what: string,
  single: boolean,
  one: (r: Reader, o: Record<string, unknown>) => A | undefined
): Read<Array<A>> => {
  const els = elements(body, what, single)
  if (Either.isLeft(els)) return Either.left(els.left)
  const problems: Array<Problem> = []
  const out: Array<A> = []
  els.right.items.forEach((el, i) => {
    const r = new Reader(els.right.single ? undefined : i)
    const o = r.object(el, "element")
    const v = o && one(r, o)
    problems.push(...r.problems)
    if (v !== undefined && r.problems.length === 0) out.push(v)
  })
  return problems.length > 0 ? Either.left(problems) : Either.right(out)
}

const filterFields = (r: Reader, o: Record<string, unknown>, prefix = ""): FilterFields | undefined => {
  const expression = r.string(o, "expression", { required: true, nonEmpty: true, label: `${prefix}expression` })
  const paused = r.boolean(o, "paused", `${prefix}paused`) ?? false
  const description =
    r.string(o, "description", { required: false, max: Limits.description, label: `${prefix}description` }) ?? null
  const ref = r.string(o, "ref", { required: false, max: Limits.ref, label: `${prefix}ref` }) ?? null
  return expression === undefined ? undefined : { expression, paused, description, ref }
}

/** The filter fields a body sent along with a filter id (to refuse changing them through the rules route). */
const givenFilterFields = (o: Record<string, unknown>): Partial<FilterFields> => {
  const out: Record<string, unknown> = {}
  for (const k of ["expression", "paused", "description", "ref"] as const) if (o[k] !== undefined) out[k] = o[k]
  return out as Partial<FilterFields>
}

/** POST /filters: `[{expression, paused?, description?, ref?}]`. */
export const readFilterCreates = (body: unknown): Read<Array<FilterFields>> =>
  readAll(body, "filters", false, (r, o) => filterFields(r, o))

/** PUT /filters: each element with its `id`. */
export const readFilterUpdates = (body: unknown): Read<Array<FilterUpdate>> =>
  readAll(body, "filters", false, (r, o) => {
    const id = r.string(o, "id", { required: true, nonEmpty: true })
    const f = filterFields(r, o)
    return id !== undefined && f !== undefined ? { id, ...f } : undefined
  })

/** PUT /filters/{id}: one filter; an `id` in the body must be the path's. */
export const readFilterUpdate = (body: unknown, pathId: string): Read<FilterUpdate> => {
  const r = new Reader(undefined)
  const o = r.object(body, "body")
  if (!o) return Either.left(r.problems)
  const id = r.string(o, "id", { required: false })
  if (id !== undefined && id !== pathId) r.fail("id", `must be the filter id of the path (${pathId}), got ${show(id)}`)
  const f = filterFields(r, o)
  return f !== undefined && r.problems.length === 0 ? Either.right({ id: pathId, ...f }) : Either.left(r.problems)
}

const ruleFields = (r: Reader, o: Record<string, unknown>): RuleFields | undefined => {
  const action = r.action(o)
  const products = r.products(o, action)
  const priority = r.priority(o, false)
  const paused = r.boolean(o, "paused") ?? false
  const description = r.string(o, "description", { required: false, max: Limits.description }) ?? null
  const ref = r.string(o, "ref", { required: false, max: Limits.ref }) ?? null
  return action === undefined ? undefined : { action, priority, paused, description, ref, products }
}

/**
 * The rule fields alone (action, products, priority, paused, description, ref), checked as the
 * rules endpoints check them: the CLI and the TUI check a rule with this before creating its
 * filter, so a refusal of the rule never leaves a filter behind.
 */
export const readRuleFields = (o: Record<string, unknown>): Read<RuleFields> => {
  const r = new Reader(undefined)
  const v = ruleFields(r, o)
  return v !== undefined && r.problems.length === 0 ? Either.right(v) : Either.left(r.problems)
}

/**
 * POST /firewall/rules: each element names an existing filter (`filter: {id}`) or carries a new one
 * (`filter: {expression, ...}`, the combined call). One object is read as an array of one.
 */
export const readRuleCreates = (body: unknown): Read<Array<RuleCreate>> =>
  readAll(body, "rules", true, (r, o) => {
    const fields = ruleFields(r, o)
    if (o.filter === undefined || o.filter === null) {
      r.fail("filter", 'is required: {"id": "<filter id>"} or {"expression": "..."}')
      return undefined
    }
    const f = r.object(o.filter, "filter")
    if (!f) return undefined
    let filter: FilterRef | undefined
    if (f.id !== undefined && f.id !== null) {
      const id = r.string(f, "id", { required: true, nonEmpty: true, label: "filter.id" })
      if (id !== undefined) filter = { kind: "id", id, given: givenFilterFields(f) }
    } else {
      const nf = filterFields(r, f, "filter.")
      if (nf) filter = { kind: "new", filter: nf }
    }
    return fields && filter ? { ...fields, filter } : undefined
  })

const ruleUpdate = (r: Reader, o: Record<string, unknown>, pathId?: string): RuleUpdate | undefined => {
  const id = pathId ?? r.string(o, "id", { required: true, nonEmpty: true })
  if (pathId !== undefined && o.id !== undefined && o.id !== pathId)
    r.fail("id", `must be the rule id of the path (${pathId}), got ${show(o.id)}`)
  const fields = ruleFields(r, o)
  if (o.filter === undefined || o.filter === null) {
    r.fail("filter", 'is required: {"id": "<filter id>"}; a filter is changed with PUT /zones/{zone_id}/filters/{id}')
    return undefined
  }
  const f = r.object(o.filter, "filter")
  if (!f) return undefined
  const filterId = r.string(f, "id", { required: true, nonEmpty: true, label: "filter.id" })
  return id !== undefined && fields && filterId !== undefined
    ? { id, ...fields, filter: { id: filterId, given: givenFilterFields(f) } }
    : undefined
}

/** PUT /firewall/rules: each element with `id`, `action` and `filter.id`; omitted fields are erased. */
export const readRuleUpdates = (body: unknown): Read<Array<RuleUpdate>> =>
  readAll(body, "rules", false, (r, o) => ruleUpdate(r, o))

/** PUT /firewall/rules/{id}. */
export const readRuleUpdate = (body: unknown, pathId: string): Read<RuleUpdate> => {
  const r = new Reader(undefined)
  const o = r.object(body, "body")
  const v = o && ruleUpdate(r, o, pathId)
  return v && r.problems.length === 0 ? Either.right(v) : Either.left(r.problems)
}

/** PATCH /firewall/rules: `[{id, priority}]`. */
export const readPriorityChanges = (body: unknown): Read<Array<PriorityChange>> =>
  readAll(body, "rules", false, (r, o) => {
    const id = r.string(o, "id", { required: true, nonEmpty: true })
    const priority = r.priority(o, true)
    return id === undefined ? undefined : { id, priority }
  })

/** PATCH /firewall/rules/{id}: `{priority}`. */
export const readPriorityChange = (body: unknown, pathId: string): Read<PriorityChange> => {
  const r = new Reader(undefined)
  const o = r.object(body, "body")
  if (!o) return Either.left(r.problems)
  if (o.id !== undefined && o.id !== pathId)
    r.fail("id", `must be the rule id of the path (${pathId}), got ${show(o.id)}`)
  const priority = r.priority(o, true)
  return r.problems.length === 0 ? Either.right({ id: pathId, priority }) : Either.left(r.problems)
}

/** The message of an InvalidInput for problems: the first few, and how many more. */
export const problemsMessage = (problems: ReadonlyArray<Problem>) => {
  const shown = problems.slice(0, 5).map((p) => p.message)
  const more = problems.length - shown.length
  return `invalid request body: ${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`
}
