/**
 * What the Terraform help says of a resource and an attribute, per provider major: shared by the
 * help in `*.tf` (./help.ts) and in `*.tf.json` (./json-help.ts).
 */
import type { Major, TfAttribute, TfResource } from "./attributes.js"
import { majorOf } from "./version.js"

export const describe = (a: TfAttribute, major: Major): string =>
  `\`${a.name}\`: **${a.type}**${a.required ? " (required)" : ""} — ${a.doc}${
    a.values ? `\n\none of: ${a.values.map((v) => `\`${v}\``).join(", ")}` : ""
  }\n\nprovider ${major}.x`

/** The schema's major for a pin: the latest, 5, without one. */
export const majorOfPin = (constraint: string | undefined): Major => {
  if (constraint === undefined) return 5
  const m = majorOf(constraint)
  return m <= 3 ? 3 : m === 4 ? 4 : 5
}

/** A resource type's hover: what it is, the providers that have it, and whether the pinned one does. */
export const resourceDoc = (r: TfResource, major: Major): string => {
  const missing = r.majors.includes(major) ? "" : `\n\n**not in provider ${major}.x**, which the module pins`
  return `\`${r.type}\`: ${r.doc}\n\n${majorsText(r.majors)}${missing}`
}

const majorsText = (majors: ReadonlyArray<Major>) =>
  majors.length === 1 && majors[0] === 3 ? "provider 3.35 and earlier" : `provider ${majors.join(".x, ")}.x`
