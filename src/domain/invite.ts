import * as Schema from "effect/Schema"
import { OneOf } from "./params.js"

export const Invite = Schema.Struct({
  id: Schema.String,
  invited_member_id: Schema.NullOr(Schema.String),
  organization_id: Schema.String,
  organization_name: Schema.optional(Schema.String),
  invited_by: Schema.optional(Schema.String),
  invited_member_email: Schema.optional(Schema.String),
  invited_on: Schema.optional(Schema.String),
  expires_on: Schema.optional(Schema.String),
  organization_is_enforcing_twofactor: Schema.optional(Schema.Boolean),
  roles: Schema.optional(Schema.Array(Schema.Unknown)),
  status: Schema.String
})
export type Invite = typeof Invite.Type

/** PATCH /user/invites/{id}: only a response to a pending invite. */
export const InviteResponse = Schema.Struct({ status: OneOf("status", ["accepted", "rejected"]) })
