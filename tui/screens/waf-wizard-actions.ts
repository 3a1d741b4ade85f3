/**
 * The WAF wizard's (./waf-wizard.tsx) actions: replay a traffic file, deploy (to validation mode or
 * finishing), delete a blocking override. Each is one WafMigration service call with its notice;
 * the hook keeps what they leave to show (the replay's report, what a deploy sent).
 */
import { useContext, useState } from "react"
import type { WafOverride } from "../../src/domain/waf.js"
import * as Waf from "../../src/services/waf-migration-service.js"
import { configSummary } from "../../src/waf/config-diff.js"
import { noRequestProblem } from "../../src/rules/traffic-line.js"
import type { MigrationMode } from "../../src/waf/state.js"
import { useActions } from "../actions.js"
import { withMigrationTarget } from "../migration-target.js"
import { useNotify } from "../notices.js"
import { ObjectsDirContext } from "./objects-data.js"
import type { Sent } from "./waf-step-views.js"
import type { Data } from "./waf-wizard-data.js"
import type { Replay } from "./waf-wizard-steps.js"

export function useWizardActions(p: {
  readonly zone: Waf.WafZone
  readonly data: Data | undefined
  /** The one record a deploy and a replay take the zone and the configuration from. */
  readonly proposal: Waf.ZoneConfig | undefined
  /** Reads the zone again. */
  readonly refresh: () => void
  /** A deploy sent the edits: they are dropped. */
  readonly dropEdits: () => void
  /** An override was deleted: the cursor goes back to the first. */
  readonly overrideDeleted: () => void
}) {
  const { zone: z, data, proposal, refresh } = p
  const [replay, setReplay] = useState<Replay>({ running: false })
  const [sent, setSent] = useState<Sent | undefined>(undefined)
  const notify = useNotify()
  const { run, start, busy } = useActions()
  // The deploy is journaled where the CLI journals it on the same target (src/services/migration-journal.ts).
  const journaled = withMigrationTarget(useContext(ObjectsDirContext))

  const startReplay = (path: string) => {
    if (!data?.preview || !proposal) return
    const basis = { data, config: proposal.config }
    setReplay({ running: true })
    void start(Waf.replayFile(data.preview.previous, proposal.config, path)).then((r) => {
      if (r === undefined) return
      // A file of no request compares nothing: said as `waf replay` says it.
      const nothing = r.ok ? noRequestProblem(path, r.value) : r.error.message
      setReplay(
        nothing === undefined && r.ok
          ? { running: false, replayed: path, report: r.value, basis }
          : { running: false, error: `error: replay: ${nothing}` }
      )
    })
  }

  const deploy = (mode: MigrationMode) => {
    notify.clear()
    if (!proposal || proposal.zone.id !== z.id) return
    run(
      journaled(Waf.deployZoneConfig(proposal, mode)),
      (d: Waf.Deployed) => {
        notify.done(
          d.step.to === "finished"
            ? `Migration finished: ${proposal.zone.name} runs WAF Managed Rules (entry point version ${d.entrypoint.version}).`
            : `Validation mode: both versions run on ${proposal.zone.name}; review, then finish from the Deploy step.`
        )
        setSent({
          zone: proposal.zone.name,
          to: d.step.to,
          version: d.entrypoint.version,
          summary: configSummary(d.entrypoint)
        })
        p.dropEdits()
        refresh()
      },
      mode === "validation" ? "Deploying to validation mode" : "Finishing the migration",
      {
        where: proposal.zone.name,
        what: mode === "validation" ? "WAF migration: deployed to validation mode" : "WAF migration: finished"
      }
    )
  }

  const deleteOverride = (o: WafOverride) => {
    notify.clear()
    run(
      Waf.deleteOverride(z, o.id),
      () => {
        notify.done(`Deleted override ${o.id} of ${z.name}; the compatibility is checked again`)
        p.overrideDeleted()
        refresh()
      },
      "delete the override",
      { where: z.name, what: `deleted URI-based WAF override ${o.id} (${o.urls.join(" ")})` }
    )
  }

  return { replay, sent, busy, startReplay, deploy, deleteOverride }
}
