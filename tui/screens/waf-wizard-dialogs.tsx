/**
 * The WAF wizard's (./waf-wizard.tsx) dialogs: the traffic file to replay, the deploy to validation
 * mode, the finish (the user types the zone name: it is irreversible), deleting a blocking override
 * and dropping the edits. Each says what it sends or drops; the wizard does it on confirm.
 */
import { Box, Text } from "ink"
import type { WafOverride } from "../../src/domain/waf.js"
import type { PlannedRequest } from "../../src/domain/request-text.js"
import * as Waf from "../../src/services/waf-migration-service.js"
import type { MigrationMode } from "../../src/waf/state.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import { TextPrompt } from "../components/text-prompt.js"
import { sendingLines, undoLines, type Edited } from "./waf-wizard-data.js"

export type Dialog =
  | { readonly kind: "file" }
  | { readonly kind: "validation" }
  | { readonly kind: "finish" }
  | { readonly kind: "undo" }
  | { readonly kind: "override"; readonly override: WafOverride }

export interface DialogProps {
  readonly dialog: Dialog
  readonly zone: Waf.WafZone
  /** The configuration a deploy sends and the user's edits of it. */
  readonly edited: Edited
  readonly rows: number
  readonly columns: number
  /** The traffic file replayed when the prompt is left empty. */
  readonly file: string
  /** The overrides that block the migration. */
  readonly blocking: ReadonlyArray<WafOverride>
  readonly deployRequest: (mode: MigrationMode) => Array<PlannedRequest>
  readonly close: () => void
  readonly replay: (file: string) => void
  readonly deploy: (mode: MigrationMode) => void
  readonly deleteOverride: (o: WafOverride) => void
  readonly dropEdits: () => void
}

export function WizardDialog(p: DialogProps) {
  const { dialog, zone: z, edited, rows, columns, close } = p
  const then = (f: () => void) => () => {
    close()
    f()
  }
  switch (dialog.kind) {
    case "file":
      return (
        <TextPrompt
          title="Traffic file (JSONL, one request per line)"
          help={`empty for ${p.file}`}
          submitLabel="replay"
          onSubmit={(t) => {
            close()
            p.replay(t.trim() === "" ? p.file : t.trim())
          }}
          onCancel={close}
        />
      )
    case "validation":
      return (
        <ConfirmDialog
          title={`Deploy the new WAF on ${z.name} in validation mode?`}
          lines={[
            "Both versions run side by side, the new one first; finish from this step.",
            ...sendingLines(edited, rows - 6, columns - 4)
          ]}
          confirmLabel="deploy to validation"
          requests={p.deployRequest("validation")}
          height={rows}
          onConfirm={then(() => p.deploy("validation"))}
          onCancel={close}
        />
      )
    case "override": {
      const { override: o } = dialog
      const more = p.blocking.length > 1 ? ` (with ${p.blocking.length - 1} more)` : ""
      return (
        <ConfirmDialog
          title={`Delete the URI-based WAF override ${o.id} of ${z.name}?`}
          lines={[
            `URLs: ${o.urls.join(" ")}${o.description ? ` · ${o.description}` : ""}`,
            `It blocks the migration${more}. Its settings are not kept anywhere else: \`edgectl waf export\` saves them first.`
          ]}
          confirmLabel="delete the override"
          destructive
          requests={[Waf.deleteOverrideRequest(z, o.id)]}
          height={rows}
          onConfirm={then(() => p.deleteOverride(o))}
          onCancel={close}
        />
      )
    }
    case "undo":
      return (
        <ConfirmDialog
          title={`Drop your edits to the overrides of ${z.name}?`}
          lines={undoLines(edited, rows - 6)}
          confirmLabel="drop the edits"
          destructive
          onConfirm={then(p.dropEdits)}
          onCancel={close}
        />
      )
    case "finish":
      return (
        <Box flexDirection="column">
          {sendingLines(edited, rows - 8, columns).map((l, i) => (
            <Text key={i} wrap="wrap" {...(edited.edits ? { color: "yellow" } : {})}>
              {l}
            </Text>
          ))}
          <TextPrompt
            title={`Finish the WAF migration of ${z.name}? This is irreversible: the previous WAF is turned off for good.`}
            help={`type the zone name (${z.name}) to confirm; esc, then v, shows the request it sends`}
            check={(t) => (t === z.name ? undefined : `type ${z.name} exactly`)}
            submitLabel="finish the migration"
            onSubmit={then(() => p.deploy("pending"))}
            onCancel={close}
          />
        </Box>
      )
  }
}
