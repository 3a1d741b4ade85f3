/**
 * The closures of a compiled expression, node by node: values (fields, literals, calls, indexes)
 * and conditions (comparisons, logical operators). Missing values follow the platform's
 * documentation: any comparison on a missing value is false (`ne` included, unless
 * `missingNotEqual` asks for the open-source engine's behaviour); a missing Boolean is false;
 * `not` of a false comparison is true; `[*]` over a missing value is empty.
 */
import type { Call, Comparison, Expression, IndexKey, Node, Value } from "./ast.js"
import { BUILTINS } from "./builtins.js"
import type { CheckedExpression } from "./check.js"
import type { RequestContext } from "./context.js"
import { format } from "./format.js"
import { predicate, type CompileOptions } from "./predicates.js"
import type { Type } from "./types.js"

type Ev = (ctx: RequestContext) => unknown
type Elems = (ctx: RequestContext) => Array<unknown>
type Val = { readonly each: false; readonly ev: Ev } | { readonly each: true; readonly ev: Elems }
type Cond =
  | { readonly arr: false; readonly ev: (ctx: RequestContext) => boolean }
  | { readonly arr: true; readonly ev: (ctx: RequestContext) => Array<boolean> }

/** Call texts to per-request memo slots, shared by every compiled expression of the process. */
const CALL_SLOTS = new Map<string, number>()

/** Whether a call reads only fields, literals and other such calls (its result depends on the request alone). */
const pureArgs = (n: Call): boolean =>
  n.args.every(
    (a) =>
      a.kind === "field" ||
      a.kind === "string" ||
      a.kind === "bytes" ||
      a.kind === "int" ||
      a.kind === "ip" ||
      (a.kind === "index" && pureIndex(a)) ||
      (a.kind === "call" && a.name !== "any" && a.name !== "all" && pureArgs(a))
  )
const pureIndex = (n: Value): boolean =>
  n.kind === "index" ? pureIndex(n.target) : n.kind === "field" || (n.kind === "call" && pureArgs(n))

const elementsOf = (v: unknown): Array<unknown> => (Array.isArray(v) ? v : v instanceof Map ? [...v.values()] : [])

const getter = (key: IndexKey): ((v: unknown) => unknown) => {
  if (key.kind === "position") {
    const i = key.value
    return (v) => (Array.isArray(v) ? v[i] : undefined)
  }
  if (key.kind === "key") {
    const k = key.value
    return (v) => (v instanceof Map ? v.get(k) : undefined)
  }
  return elementsOf
}

/** Builds the closures of one checked expression; `cond` of its root is the compiled expression. */
export class Compiler {
  constructor(
    private readonly checked: CheckedExpression,
    private readonly options: CompileOptions
  ) {}

  private typeOf(n: Node): Type {
    const t = this.checked.typeOf(n)
    if (t === undefined)
      throw new Error(`compile: no type for a ${n.kind} node at ${n.range.start}; compile only what check() accepted`)
    return t.type
  }

  value(n: Value | Node): Val {
    switch (n.kind) {
      case "field": {
        const id = this.checked.scheme.fieldId(n.name)
        return { each: false, ev: (ctx) => ctx.get(id) }
      }
      case "index": {
        const t = this.value(n.target)
        const get = getter(n.key)
        if (!t.each) {
          const ev = t.ev
          return n.key.kind === "each"
            ? { each: true, ev: (ctx) => elementsOf(ev(ctx)) }
            : { each: false, ev: (ctx) => get(ev(ctx)) }
        }
        const ev = t.ev
        if (n.key.kind === "each") return { each: true, ev: (ctx) => ev(ctx).flatMap(elementsOf) }
        return {
          each: true,
          ev: (ctx) => {
            const out: Array<unknown> = []
            for (const e of ev(ctx)) {
              const x = get(e)
              if (x !== undefined) out.push(x)
            }
            return out
          }
        }
      }
      case "call": {
        const ev = this.call(n)
        if (n.name === "any" || n.name === "all" || !pureArgs(n)) return { each: false, ev }
        // Identical calls across expressions share one result per request.
        const key = `${this.checked.scheme.name}:${format(n as unknown as Expression)}`
        let slot = CALL_SLOTS.get(key)
        if (slot === undefined) CALL_SLOTS.set(key, (slot = CALL_SLOTS.size))
        const id = slot
        return { each: false, ev: (ctx) => ctx.memoized(id, ev) }
      }
      case "string":
      case "bytes":
      case "int":
      case "ip": {
        const v = n.value
        return { each: false, ev: () => v }
      }
      default: {
        const c = this.cond(n as Expression)
        return c.arr ? { each: false, ev: c.ev } : { each: false, ev: c.ev }
      }
    }
  }

  private call(n: Call): Ev {
    if (n.name === "any" || n.name === "all") {
      const all = n.name === "all"
      const arg = n.args[0]!
      const isCondition =
        arg.kind === "comparison" ||
        arg.kind === "logical" ||
        arg.kind === "not" ||
        arg.kind === "group" ||
        arg.kind === "bare"
      if (arg.kind === "comparison") {
        const lhs = this.value(arg.lhs)
        if (lhs.each) {
          // any(x[*] op v) / all(...) as a loop: no intermediate arrays.
          const pred = predicate(arg.operator.name, arg.rhs, this.typeOf(arg.lhs), this.options) as (
            v: unknown,
            ctx: RequestContext
          ) => boolean
          const elems = lhs.ev
          return all
            ? (ctx) => {
                for (const e of elems(ctx)) if (!pred(e, ctx)) return false
                return true
              }
            : (ctx) => {
                for (const e of elems(ctx)) if (pred(e, ctx)) return true
                return false
              }
        }
      }
      if (isCondition) {
        const c = this.cond(arg as Expression)
        const ev = c.ev as (ctx: RequestContext) => Array<boolean>
        return all ? (ctx) => ev(ctx).every((b) => b) : (ctx) => ev(ctx).some((b) => b)
      }
      const v = this.value(arg)
      if (v.each) {
        const ev = v.ev
        return all ? (ctx) => ev(ctx).every((b) => b === true) : (ctx) => ev(ctx).some((b) => b === true)
      }
      const ev = v.ev
      return (ctx) => {
        const a = ev(ctx)
        if (!Array.isArray(a)) return false
        return all ? a.every((b) => b === true) : a.some((b) => b === true)
      }
    }
    if (n.name === "bit_slice") return this.bitSlice(n)
    const args = n.args.map((a) => this.value(a))
    const first = args[0]
    if (n.name === "concat") {
      const arrays = this.typeOf(n.args[0]!).kind === "Array"
      const empty = arrays ? [] : ""
      const evs = args.map((a) => a.ev as Ev)
      const join = (vals: ReadonlyArray<unknown>) =>
        arrays
          ? vals.flatMap((v) => (Array.isArray(v) ? v : []))
          : vals.map((v) => (typeof v === "string" ? v : empty)).join("")
      if (first?.each) {
        const rest = evs.slice(1)
        const ev = first.ev
        return (ctx) => {
          const tail = rest.map((f) => f(ctx))
          return ev(ctx).map((e) => join([e, ...tail]))
        }
      }
      return (ctx) => join(evs.map((f) => f(ctx)))
    }
    const fn = BUILTINS[n.name]
    if (fn === undefined) throw new Error(`compile: \`${n.name}()\` cannot be evaluated in a filter expression`)
    const evs = args.map((a) => a.ev as Ev)
    if (first?.each) {
      const rest = evs.slice(1)
      const ev = first.ev
      return (ctx) => {
        const tail = rest.map((f) => f(ctx))
        const out: Array<unknown> = []
        for (const e of ev(ctx)) {
          const r = fn([e, ...tail])
          if (r !== undefined) out.push(r)
        }
        return out
      }
    }
    if (evs.length === 1) {
      const a = evs[0]!
      return (ctx) => fn([a(ctx)])
    }
    if (evs.length === 2) {
      const [a, b] = evs as [Ev, Ev]
      return (ctx) => fn([a(ctx), b(ctx)])
    }
    return (ctx) => fn(evs.map((f) => f(ctx)))
  }

  private bitSlice(n: Call): Ev {
    const [proto, start, end] = n.args as unknown as [{ value: string }, { value: number }, { value: number }]
    const id = this.checked.scheme.fieldId(proto.value)
    const from = start.value
    const to = end.value
    return (ctx) => {
      const bytes = id < 0 ? undefined : ctx.get(id)
      if (typeof bytes !== "string" || to <= from || to - from > 32 || to > bytes.length * 8) return undefined
      let v = 0
      for (let bit = from; bit < to; bit++) v = v * 2 + ((bytes.charCodeAt(bit >> 3) >> (7 - (bit & 7))) & 1)
      return v
    }
  }

  cond(n: Expression): Cond {
    switch (n.kind) {
      case "constant": {
        const v = n.value
        return { arr: false, ev: () => v }
      }
      case "group":
        return this.cond(n.expression)
      case "not": {
        const c = this.cond(n.operand)
        if (c.arr) {
          const ev = c.ev
          return { arr: true, ev: (ctx) => ev(ctx).map((b) => !b) }
        }
        const ev = c.ev
        return { arr: false, ev: (ctx) => !ev(ctx) }
      }
      case "bare": {
        const v = this.value(n.value)
        if (v.each) {
          const ev = v.ev
          return { arr: true, ev: (ctx) => ev(ctx).map((b) => b === true) }
        }
        if (n.value.kind === "field") {
          const id = this.checked.scheme.fieldId(n.value.name)
          return { arr: false, ev: (ctx) => ctx.get(id) === true }
        }
        const ev = v.ev
        return { arr: false, ev: (ctx) => ev(ctx) === true }
      }
      case "logical":
        return this.logical(
          n.op,
          n.operands.map((o) => this.cond(o))
        )
      case "comparison":
        return this.comparison(n)
      case "invalid":
        throw new Error("compile: the tree has an invalid node; compile only what check() accepted")
    }
  }

  private logical(op: "and" | "or" | "xor", cs: ReadonlyArray<Cond>): Cond {
    if (cs[0]!.arr) {
      const evs = cs.map((c) => c.ev as (ctx: RequestContext) => Array<boolean>)
      const combine =
        op === "and"
          ? (a: boolean, b: boolean) => a && b
          : op === "or"
            ? (a: boolean, b: boolean) => a || b
            : (a: boolean, b: boolean) => a !== b
      return {
        arr: true,
        ev: (ctx) => {
          let out = evs[0]!(ctx).slice()
          for (let i = 1; i < evs.length; i++) {
            const next = evs[i]!(ctx)
            if (next.length < out.length) out = out.slice(0, next.length)
            for (let j = 0; j < out.length; j++) out[j] = combine(out[j]!, next[j]!)
          }
          return out
        }
      }
    }
    const evs = cs.map((c) => c.ev as (ctx: RequestContext) => boolean)
    if (op === "xor") {
      return {
        arr: false,
        ev: (ctx) => {
          let r = false
          for (const e of evs) r = r !== e(ctx)
          return r
        }
      }
    }
    if (evs.length === 2) {
      const [a, b] = evs as [(ctx: RequestContext) => boolean, (ctx: RequestContext) => boolean]
      return { arr: false, ev: op === "and" ? (ctx) => a(ctx) && b(ctx) : (ctx) => a(ctx) || b(ctx) }
    }
    if (op === "and") {
      return {
        arr: false,
        ev: (ctx) => {
          for (let i = 0; i < evs.length; i++) if (!evs[i]!(ctx)) return false
          return true
        }
      }
    }
    return {
      arr: false,
      ev: (ctx) => {
        for (let i = 0; i < evs.length; i++) if (evs[i]!(ctx)) return true
        return false
      }
    }
  }

  private comparison(n: Comparison): Cond {
    const lhsType = this.typeOf(n.lhs)
    const pred = predicate(n.operator.name, n.rhs, lhsType, this.options) as (
      v: unknown,
      ctx: RequestContext
    ) => boolean
    const whenMissing = n.operator.name === "ne" && this.options.missingNotEqual === true
    if (n.lhs.kind === "field") {
      const id = this.checked.scheme.fieldId(n.lhs.name)
      return {
        arr: false,
        ev: (ctx) => {
          const v = ctx.get(id)
          return v === undefined ? whenMissing : pred(v, ctx)
        }
      }
    }
    const lhs = this.value(n.lhs)
    if (lhs.each) {
      const ev = lhs.ev
      return { arr: true, ev: (ctx) => ev(ctx).map((e) => pred(e, ctx)) }
    }
    const ev = lhs.ev
    return {
      arr: false,
      ev: (ctx) => {
        const v = ev(ctx)
        return v === undefined ? whenMissing : pred(v, ctx)
      }
    }
  }
}
