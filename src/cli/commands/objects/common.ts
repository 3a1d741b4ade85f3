/** What every `edgectl objects` command shares: the common options, the state directory, a failure. */
import * as Option from "effect/Option"
import * as path from "node:path"
import { DEFAULT_PERSIST_TO } from "../../../objects/ids.js"
import { quote } from "../../hints.js"
import { CliFailure } from "../../run.js"
import type { Common } from "./options.js"

/** ` --persist-to DIR` as given (or nothing): a command a message suggests acts on the same state. */
export const stateFlag = (o: Common) => (Option.isSome(o.persistTo) ? ` --persist-to ${quote(o.persistTo.value)}` : "")

export const stateDir = (o: Common) => path.resolve(Option.getOrElse(o.persistTo, () => DEFAULT_PERSIST_TO))
export const failure = (what: string, e: unknown) =>
  new CliFailure({ text: `error: ${what}: ${e instanceof Error ? e.message : String(e)}`, exitCode: 1 })
