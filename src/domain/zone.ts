import * as Schema from "effect/Schema"

const NullableString = Schema.NullOr(Schema.String)

const Plan = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  price: Schema.optional(Schema.Number),
  currency: Schema.optional(Schema.String),
  frequency: Schema.optional(Schema.String),
  is_subscribed: Schema.optional(Schema.Boolean),
  can_subscribe: Schema.optional(Schema.Boolean),
  legacy_id: Schema.optional(Schema.String),
  legacy_discount: Schema.optional(Schema.Boolean),
  externally_managed: Schema.optional(Schema.Boolean)
})
type Plan = typeof Plan.Type

/** The zone as the platform returns it; fields the real platform may omit are optional. */
export const Zone = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: Schema.optional(Schema.String),
  paused: Schema.optional(Schema.Boolean),
  type: Schema.optional(Schema.String),
  development_mode: Schema.optional(Schema.Number),
  name_servers: Schema.optional(Schema.Array(Schema.String)),
  original_name_servers: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  original_registrar: Schema.optional(NullableString),
  original_dnshost: Schema.optional(NullableString),
  created_on: Schema.optional(Schema.String),
  modified_on: Schema.optional(Schema.String),
  activated_on: Schema.optional(NullableString),
  meta: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  owner: Schema.optional(
    Schema.Struct({
      id: Schema.optional(NullableString),
      name: Schema.optional(NullableString),
      email: Schema.optional(NullableString),
      // A string on the platform ("user", "organization"), never sent as null; only id/name/email
      // may be null. A null read from elsewhere is taken as unset.
      type: Schema.optionalWith(Schema.String, { nullable: true })
    })
  ),
  account: Schema.Struct({ id: Schema.String, name: Schema.optional(Schema.String) }),
  plan: Schema.optional(Plan),
  permissions: Schema.optional(Schema.Array(Schema.String)),
  vanity_name_servers: Schema.optional(Schema.Array(Schema.String))
})
export type Zone = typeof Zone.Type
