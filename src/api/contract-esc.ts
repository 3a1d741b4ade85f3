/**
 * The ESC disable-settings endpoints (area B) of the v4 contract: GET, POST and DELETE of
 * `disable_esc` on a zone and on an account. The group is added to `V4Api` in contract.ts (with the
 * authentication middleware there, so this file needs nothing from it).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Authentication, groupOf, onObject, platformApi } from "./contract-core.js"
import * as Schema from "effect/Schema"
import { EscAnswer, EscChangeBody } from "../domain/esc.js"
import { lazily, lazyRecord } from "./contract-lazy.js"

const ZoneId = Schema.Struct({ zone_id: Schema.String })
const AccountId = Schema.Struct({ account_id: Schema.String })

export const EscEndpoints = lazyRecord({
  getZoneEsc: () =>
    HttpApiEndpoint.get("getZone", "/zones/:zone_id/disable_esc").setPath(ZoneId).addSuccess(EscAnswer).pipe(onObject),
  setZoneEsc: () =>
    HttpApiEndpoint.post("setZone", "/zones/:zone_id/disable_esc")
      .setPath(ZoneId)
      .setPayload(EscChangeBody)
      .addSuccess(EscAnswer)
      .pipe(onObject),
  deleteZoneEsc: () =>
    HttpApiEndpoint.del("deleteZone", "/zones/:zone_id/disable_esc")
      .setPath(ZoneId)
      .addSuccess(EscAnswer)
      .pipe(onObject),
  getAccountEsc: () =>
    HttpApiEndpoint.get("getAccount", "/accounts/:account_id/disable_esc")
      .setPath(AccountId)
      .addSuccess(EscAnswer)
      .pipe(onObject),
  setAccountEsc: () =>
    HttpApiEndpoint.post("setAccount", "/accounts/:account_id/disable_esc")
      .setPath(AccountId)
      .setPayload(EscChangeBody)
      .addSuccess(EscAnswer)
      .pipe(onObject),
  deleteAccountEsc: () =>
    HttpApiEndpoint.del("deleteAccount", "/accounts/:account_id/disable_esc")
      .setPath(AccountId)
      .addSuccess(EscAnswer)
      .pipe(onObject)
})

export const EscGroup = lazily(() => class EscGroup extends groupOf("esc", EscEndpoints) {})

/** The ESC part of the API on its own (local mode builds only the parts a command calls). */
export const EscApi = lazily(
  () => class EscApi extends platformApi(HttpApi.make("v4").add(EscGroup().middleware(Authentication))) {}
)
