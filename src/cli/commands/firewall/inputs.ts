/**
 * What each `edgectl firewall` handler takes: the options its command declares (./index.ts), as
 * parsed. Declared apart from the tree so that the handlers (./run.ts) need nothing of it; the
 * tree's `Command.make` checks that each command's options parse into its handler's input.
 */
import type * as Option from "effect/Option"
import type { FirewallAction } from "../../../domain/firewall.js"
import type { Target } from "../../options.js"

interface OnZone extends Target {
  readonly zone: string
}
interface ById extends OnZone {
  readonly id: string
}

interface Inputs {
  readonly filtersList: OnZone & { readonly expression: Option.Option<string> }
  readonly filtersCreate: OnZone & {
    readonly expression: string
    readonly description: Option.Option<string>
    readonly ref: Option.Option<string>
    readonly paused: boolean
  }
  readonly filtersGet: ById
  readonly filtersUpdate: ById & {
    readonly expression: Option.Option<string>
    readonly description: Option.Option<string>
    readonly paused: Option.Option<"true" | "false">
  }
  readonly filtersDelete: ById & { readonly yes: boolean }
  readonly rulesList: OnZone & { readonly action: Option.Option<FirewallAction> }
  readonly rulesCreate: OnZone & {
    readonly expression: Option.Option<string>
    readonly filterId: Option.Option<string>
    readonly action: FirewallAction
    readonly priority: Option.Option<string>
    readonly description: Option.Option<string>
    readonly products: Option.Option<string>
    readonly paused: boolean
    readonly combined: boolean
  }
  readonly rulesGet: ById
  readonly rulesUpdate: ById & {
    readonly action: Option.Option<FirewallAction>
    readonly priority: Option.Option<string>
    readonly description: Option.Option<string>
    readonly products: Option.Option<string>
    readonly filterId: Option.Option<string>
    readonly pause: boolean
    readonly resume: boolean
  }
  readonly rulesDelete: ById & { readonly yes: boolean; readonly deleteFilterIfUnused: boolean }
  readonly validate: Target & { readonly expression: string }
  readonly migrate: OnZone & {
    readonly yes: boolean
    readonly dryRun: boolean
    readonly deleteOld: boolean
    readonly rollback: boolean
    readonly replay: Option.Option<string>
  }
  readonly test: OnZone & { readonly request: string }
  readonly legacyList: OnZone
  readonly lockdownsMigrate: OnZone & {
    readonly yes: boolean
    readonly dryRun: boolean
    readonly deleteOld: boolean
    readonly rollback: boolean
    readonly replay: Option.Option<string>
  }
  readonly rateLimitsMigrate: Inputs["lockdownsMigrate"]
}

export type Parsed<K extends keyof Inputs> = Inputs[K]
