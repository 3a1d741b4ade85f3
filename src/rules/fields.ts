/**
 * What the platform says of a field (name, type, a one-line meaning, plan, phases) and the row
 * format the field tables are written in: `fields-http.ts` (the HTTP scheme's documented field
 * list) and `fields-network.ts` (the network, Magic Firewall, scheme). These tables power type
 * checking, completion and hover.
 */
import { parseTypeName, type Type } from "./types.js"

export type Plan = "free" | "pro" | "business" | "enterprise"

/** Where a field has a value: request phases (the default), response phases, or only in rewrite expressions. */
export type Availability = "request" | "response" | "rewrite"

export interface FieldInfo {
  readonly name: string
  readonly type: Type
  /** The type as the documentation writes it (`Map<Array<String>>`, `IP address`). */
  readonly typeText: string
  /** One line: what the field holds. */
  readonly summary: string
  /** The lowest plan that has the field (absent: every plan). */
  readonly plan?: Plan
  /** Needs a paid add-on on top of the plan (Bot Management, API Shield, ...). */
  readonly addOn?: boolean
  readonly availability: Availability
  /** Set on deprecated aliases: the field to use instead. */
  readonly replacedBy?: string
}

/** A field as its table writes it: name, type as documented, summary, flags (below). */
export type Row = readonly [name: string, type: string, summary: string, flags?: string]

// flags: p=pro b=business e=enterprise +=add-on, R=response phases, W=rewrite only, ~name=deprecated alias of name
export const parseRow = ([name, type, summary, flags = ""]: Row): FieldInfo => {
  const plan: Plan | undefined = flags.includes("e")
    ? "enterprise"
    : flags.includes("b")
      ? "business"
      : flags.includes("p")
        ? "pro"
        : undefined
  const alias = /~(\S+)/.exec(flags)?.[1]
  return {
    name,
    type: parseTypeName(type),
    typeText: type,
    summary,
    ...(plan ? { plan } : {}),
    ...(flags.includes("+") ? { addOn: true } : {}),
    availability: flags.includes("R") ? "response" : flags.includes("W") ? "rewrite" : "request",
    ...(alias ? { replacedBy: alias } : {})
  }
}

/** The documented type names, short so the tables stay one field a line. */
export const S = "String"
export const I = "Integer"
export const B = "Boolean"
export const IP = "IP address"
export const AS = "Array<String>"
export const MAS = "Map<Array<String>>"

const PLAN_ORDER: Record<Plan, number> = { free: 0, pro: 1, business: 2, enterprise: 3 }

export const planAtLeast = (have: Plan, need: Plan): boolean => PLAN_ORDER[have] >= PLAN_ORDER[need]

export const planName = (p: Plan): string =>
  ({ free: "Free", pro: "Pro", business: "Business", enterprise: "Enterprise" })[p]
