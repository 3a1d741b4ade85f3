/**
 * What each firewall migration command (`firewall migrate`, `firewall lockdowns migrate`,
 * `firewall rate-limits migrate`) does with its options, written once: the usage checks, the
 * journals' place on the chosen target, then the shared runner's flow, or with `--replay FILE` the
 * command's replay of its plan (the journal's "before" after an apply), printed by `reportReplay`.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ClientEnv } from "../../../api/client.js"
import type { V4Error } from "../../../domain/errors.js"
import type { Zone } from "../../../domain/zone.js"
import type { MigrationStep } from "../../../domain/migration.js"
import type { Journal, MigrationTarget } from "../../../services/migration-journal.js"
import { resolveZone } from "../../../services/zones-service.js"
import { migrationTargetLayer } from "../../environment.js"
import { checkReplayFile, flowUsage, runFlow, type FlowPlan, type MigrationFlow } from "../../migration-runner.js"
import { opt } from "../../options.js"
import { isRemote, type CliFailure } from "../../run.js"
import { runFw } from "./common.js"
import type { Context } from "./hints.js"
import type { Parsed } from "./options.js"
import { reportReplay, type AnyReplay } from "./migrate-replay.js"

export const migrationCommand = <P extends FlowPlan, J extends Journal<MigrationStep, unknown>>(
  what: string,
  o: Parsed<"migrate" | "lockdownsMigrate" | "rateLimitsMigrate">,
  flow: MigrationFlow<P, J>,
  replay: (zone: Zone, file: string) => Effect.Effect<AnyReplay, V4Error | CliFailure, ClientEnv | MigrationTarget>,
  context: Context
) =>
  Effect.gen(function* () {
    const replayFile = opt(o.replay)
    const bad = flowUsage(o, replayFile)
    if (bad !== undefined) return yield* Effect.fail(bad)
    if (replayFile !== undefined) yield* checkReplayFile(what, replayFile)
    const journals = migrationTargetLayer({ remote: isRemote(o), persistTo: Option.getOrUndefined(o.persistTo) })
    const work = Effect.gen(function* () {
      if (replayFile === undefined) return yield* runFlow(flow, o)
      const z = yield* resolveZone(o.zone)
      return yield* reportReplay(what, o, z.name, yield* replay(z, replayFile))
    })
    return yield* runFw(what, o, context, Effect.provide(work, journals))
  })
