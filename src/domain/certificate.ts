import * as Schema from "effect/Schema"

export const Certificate = Schema.Struct({
  id: Schema.String,
  hosts: Schema.Array(Schema.String),
  issuer: Schema.optional(Schema.String),
  signature: Schema.optional(Schema.String),
  status: Schema.String,
  bundle_method: Schema.optional(Schema.String),
  zone_id: Schema.optional(Schema.String),
  uploaded_on: Schema.optional(Schema.String),
  modified_on: Schema.optional(Schema.String),
  expires_on: Schema.optional(Schema.String),
  priority: Schema.optional(Schema.NullOr(Schema.Number))
})
export type Certificate = typeof Certificate.Type

export const CertificatePack = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  hosts: Schema.Array(Schema.String),
  primary_certificate: Schema.optional(Schema.NullOr(Schema.String)),
  // Older platform answers leave a pack's status out; read as "" (unknown), never guessed.
  status: Schema.optionalWith(Schema.String, { default: () => "" }),
  certificates: Schema.optionalWith(Schema.Array(Certificate), { default: () => [] }),
  created_on: Schema.optional(Schema.String),
  validity_days: Schema.optional(Schema.Number),
  validation_method: Schema.optional(Schema.String),
  certificate_authority: Schema.optional(Schema.String),
  cloudflare_branding: Schema.optional(Schema.Boolean)
})
export type CertificatePack = typeof CertificatePack.Type
