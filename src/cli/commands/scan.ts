/**
 * `edgectl scan [PATH...] [--zone Z]`: every use of a deprecated platform feature in a code base
 * (the scanner of src/deprecations, its list shipped as data), and with `--zone` a zone's live use
 * of legacy products. Exit 1 when something is past its end of life (a CI gate), 0 otherwise.
 */
import * as Command from "@effect/cli/Command"
import { lazyHandlers } from "../lazy.js"
import { scanOptions } from "./scan-options.js"

const handler = lazyHandlers(() => import("./scan-run.js"))

export const scan = Command.make(
  "scan",
  scanOptions,
  handler((m) => m.scanRun)
).pipe(
  Command.withDescription(
    "find uses of deprecated platform APIs, Terraform resources, rule fields and SDK calls, with their dates; exit 1 when one is past its end of life"
  )
)
