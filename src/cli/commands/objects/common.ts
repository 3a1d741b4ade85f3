/** What every `edgectl objects` command shares: the common options, the state directory, a failure. */
import * as Option from "effect/Option"
import { stateDir as targetStateDir } from "../../../api/target.js"
import { quote } from "../../hints.js"
import { CliFailure } from "../../run.js"
import type { Common } from "./options.js"

/** ` --persist-to DIR` as given (or nothing): a command a message suggests acts on the same state. */
export const stateFlag = (o: Common) => (Option.isSome(o.persistTo) ? ` --persist-to ${quote(o.persistTo.value)}` : "")

export const stateDir = (o: Common) => targetStateDir({ persistTo: Option.getOrUndefined(o.persistTo) })
export const failure = (what: string, e: unknown) =>
  new CliFailure({ text: `error: ${what}: ${e instanceof Error ? e.message : String(e)}`, exitCode: 1 })
