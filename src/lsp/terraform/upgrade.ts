/**
 * A module pinned to provider 1.x or 2.x: the rewrites are written for 3.35 (`status` needs 3.17),
 * so the pin must move to `~> 3.35`: a major provider upgrade for every cloudflare resource of the
 * module, not a detail of one rewrite. Said once, on the pin, with what else 3.x changes (the
 * provider's "Upgrading to version 3 (from 2.x)" guide), and offered as its own fix, so that the
 * user chooses: the rewrites never move such a pin by themselves.
 */
import { finding, type Finding, type Range } from "../findings.js"
import { satisfiable, type ProviderTarget } from "./version.js"

/** What 3.0 changes, by resource type (the upgrade guide's list; SDK v2 turned maps into blocks). */
const CHANGES: ReadonlyArray<readonly [string, string]> = [
  ["cloudflare_access_rule", "`configuration` becomes a block"],
  ["cloudflare_custom_ssl", "`custom_ssl_options` becomes a block"],
  ["cloudflare_load_balancer", "a rule's `fixed_response` becomes a block, its `status_code` a number"],
  ["cloudflare_record", "`data` becomes a block"],
  ["cloudflare_custom_hostname", "`status` becomes computed, `settings` optional"]
]

export const majorUpgradeFinding = (
  target: ProviderTarget,
  /** Where to say it when the pin is in another file of the module (the first resource the rewrite is for). */
  fallback: Range,
  /** The resource types of this file. */
  types: ReadonlyArray<string>
): Finding | undefined => {
  if (!target.majorUpgrade || target.pinWithinMajor === undefined) return undefined
  const here = CHANGES.filter(([t]) => types.includes(t)).map(([t, c]) => `${t}: ${c}`)
  const where = target.pinFiles?.length ? ` (in ${target.pinFiles.join(", ")})` : ""
  return finding(
    "information",
    "terraform-provider-major-upgrade",
    `the pin "${target.constraint}"${where} admits only provider ${target.constraint !== undefined && /\b1\./.test(target.constraint) ? "1.x" : "2.x"}, and the rewrite needs 3.17 or later: moving it to "${target.pinWithinMajor}" is a major upgrade (to 3.x) of every cloudflare resource of the module — Terraform 0.14 or later, maps become blocks (cloudflare_access_rule, cloudflare_custom_ssl, cloudflare_load_balancer, cloudflare_record), the provider's User-Agent changes${here.length ? `; in this file: ${here.join("; ")}` : ""}`,
    target.pinRange ?? fallback,
    {
      hint: `upgrade to the latest 2.x first, then to "${target.pinWithinMajor}", and check terraform plan for every resource (the provider's version 3 upgrade guide)`,
      ...(target.pinRange !== undefined
        ? {
            fixes: [
              {
                title: `Move the provider pin to "${target.pinWithinMajor}" (a major upgrade to 3.x for every cloudflare resource of the module)`,
                edits: [{ range: target.pinRange, newText: JSON.stringify(target.pinWithinMajor) }]
              }
            ]
          }
        : {})
    }
  )
}

/**
 * The module's pins together (this file's and its other files', as Terraform combines them) admit
 * no release: `terraform init` fails, and a rewrite for either pin is a guess. Said on this file's
 * pin, else where the rewrite is offered.
 */
export const pinConflictFinding = (
  own: { readonly constraint: string; readonly range: Range } | undefined,
  module: { readonly constraint: string; readonly files: ReadonlyArray<string> } | undefined,
  fallback: Range
): Finding | undefined => {
  const parts = [
    ...(own !== undefined ? [`"${own.constraint}" (this file)`] : []),
    ...(module !== undefined ? [`"${module.constraint}" (${module.files.join(", ")})`] : [])
  ]
  const joined = [own?.constraint, module?.constraint].filter((c) => c !== undefined).join(", ")
  if (parts.length === 0 || joined === "" || satisfiable(joined)) return undefined
  return finding(
    "warning",
    "terraform-pin-conflict",
    `the module's cloudflare provider pins admit no version together: ${parts.join(" and ")}; terraform init fails, and the rewrite is written for this file's pin only`,
    own?.range ?? fallback,
    { hint: "make the module's required_providers constraints agree (one versions.tf)" }
  )
}
