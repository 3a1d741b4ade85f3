import * as Schema from "effect/Schema"

export const Account = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: Schema.optional(Schema.String),
  created_on: Schema.optional(Schema.String),
  settings: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
export type Account = typeof Account.Type

export const Membership = Schema.Struct({
  id: Schema.String,
  status: Schema.optional(Schema.String),
  account: Schema.Struct({ id: Schema.String, name: Schema.optional(Schema.String) }),
  roles: Schema.optional(Schema.Array(Schema.String))
})
export type Membership = typeof Membership.Type

export const TokenVerification = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  // Left out when unset, never sent as null (the platform's clients type them as optional strings);
  // a null read from elsewhere is taken as unset.
  expires_on: Schema.optionalWith(Schema.String, { nullable: true }),
  not_before: Schema.optionalWith(Schema.String, { nullable: true })
})
export type TokenVerification = typeof TokenVerification.Type
