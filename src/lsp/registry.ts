/**
 * What the language server and `edgectl check` know beyond rule expressions, as one value: the
 * checks of JSON document kinds other areas own (the WAF documents), hover and completion per
 * document kind, the Terraform rewrites of previous-WAF resources and of firewall resources (in
 * HCL and in JSON, with the cache of module pins they read). Built here, at the edge, once per
 * server or run, and passed down, so a feature is added by listing it here (no module registers
 * itself, no module keeps state).
 */
import { deprecationScanner, type DeprecationScanner } from "./deprecations.js"
import type { JsonFeatures } from "./features.js"
import type { DocumentKind } from "./findings.js"
import { firewallRuleFeatures } from "./firewall-features.js"
import type { JsonCheck } from "./json-doc.js"
import { withSchemaCompletion } from "./json-schema-complete.js"
import { JSON_SCHEMAS } from "./json-schemas.js"
import { kvBulkFeatures } from "./kv-bulk-features.js"
import type { TerraformWiring } from "./terraform/analyze.js"
import { firewallRewrite } from "./terraform/firewall-rewrite.js"
import { legacyJsonRewrite } from "./terraform/json-legacy.js"
import { firewallJsonRewrite } from "./terraform/json-rewrite.js"
import { legacyRewrite } from "./terraform/legacy-rewrite.js"
import { terraformHelp } from "./terraform/help.js"
import { terraformRewrite } from "./terraform/waf-rewrite.js"
import type { ModulePins } from "./terraform/version.js"
import { wafConfigCheck, wafExportCheck, wafExportFeatures } from "./waf-documents.js"
import { wafConfigFeatures } from "./waf-features.js"

export interface DocumentRegistry {
  /** Tried in order before the built-in JSON kinds (rules bodies, KV bulk files): the first that matches wins. */
  readonly jsonChecks: ReadonlyArray<JsonCheck>
  readonly jsonFeatures: ReadonlyMap<DocumentKind, JsonFeatures>
  readonly terraform: TerraformWiring
  /** The deprecation scanner's findings in any document it reads (src/deprecations; `edgectl scan`'s). */
  readonly deprecations: DeprecationScanner
}

export const documentRegistry = (): DocumentRegistry => {
  const pins: ModulePins = new Map()
  return {
    jsonChecks: [wafExportCheck, wafConfigCheck],
    jsonFeatures: new Map<DocumentKind, JsonFeatures>([
      ["waf-config", withSchemaCompletion(wafConfigFeatures, JSON_SCHEMAS.get("waf-config.schema.json")!)],
      ["waf-export", wafExportFeatures],
      ["kv-bulk", kvBulkFeatures],
      [
        "rules-json",
        withSchemaCompletion(firewallRuleFeatures, JSON_SCHEMAS.get("custom-rules.schema.json")!, (name) =>
          /\.custom-rules\.json$/i.test(name)
        )
      ],
      ["terraform", terraformHelp(pins)]
    ]),
    terraform: {
      rewrite: terraformRewrite,
      firewall: firewallRewrite,
      firewallJson: firewallJsonRewrite,
      legacy: legacyRewrite,
      legacyJson: legacyJsonRewrite,
      pins
    },
    deprecations: deprecationScanner()
  }
}
