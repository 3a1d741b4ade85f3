/**
 * What each `edgectl custom-rules` handler takes: the options its command declares (./index.ts), as
 * parsed. Apart from the tree so that the handlers (./run.ts) need nothing of it.
 */
import type * as Option from "effect/Option"
import type { CustomRuleActions } from "../../../domain/custom-rule.js"
import type { Target } from "../../options.js"

type Action = (typeof CustomRuleActions)[number]

interface OnZone extends Target {
  readonly zone: string
}
interface Position {
  readonly before: Option.Option<string>
  readonly after: Option.Option<string>
  readonly index: Option.Option<number>
}
interface Fields {
  readonly expression: Option.Option<string>
  readonly description: Option.Option<string>
  readonly products: Option.Option<string>
  readonly skipRest: boolean
}

interface Inputs {
  readonly list: OnZone
  readonly add: OnZone &
    Position &
    Fields & {
      readonly action: Action
      readonly disabled: boolean
    }
  readonly update: OnZone &
    Fields & {
      readonly id: string
      readonly action: Option.Option<Action>
      readonly enable: boolean
      readonly disable: boolean
    }
  readonly move: OnZone & Position & { readonly id: string }
  readonly remove: OnZone & { readonly id: string; readonly yes: boolean }
}

export type Parsed<K extends keyof Inputs> = Inputs[K]
