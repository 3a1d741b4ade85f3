/** `edgectl invites list|accept|reject`. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import type { Invite } from "../../domain/invite.js"
import { listInvites, respondInvite } from "../../services/identity-service.js"
import { target } from "../options.js"
import { printJson, printLine, printTable } from "../output.js"
import { positional, run } from "../run.js"

const list = Command.make("list", target, (o) =>
  Effect.gen(function* () {
    const invites = yield* run("invites list", o, listInvites())
    if (o.json) return printJson(invites)
    printTable(
      ["ID", "ACCOUNT", "INVITED BY", "ROLES", "STATUS", "EXPIRES"],
      invites.map((i) => [
        i.id,
        i.organization_name,
        i.invited_by,
        (i.roles ?? []).map(String).join(", "),
        i.status,
        i.expires_on?.slice(0, 10)
      ])
    )
  })
).pipe(Command.withDescription("list your invites to accounts"))

const respond = (verb: "accept" | "reject", status: "accepted" | "rejected") =>
  Command.make(verb, { ...target, id: Args.text({ name: "invite-id" }) }, (o) =>
    Effect.gen(function* () {
      const id = yield* positional("<invite-id>", o.id)
      const invite: Invite = yield* run(`invites ${verb}`, o, respondInvite(id, status), (e, on) =>
        e._tag === "NotFound" ? `run \`edgectl invites list${on}\` to see your invites` : undefined
      )
      if (o.json) return printJson(invite)
      printLine(
        `${status === "accepted" ? "Accepted" : "Rejected"} the invite to ${invite.organization_name ?? invite.organization_id}.`
      )
    })
  ).pipe(Command.withDescription(`${verb} an invite`))

export const invites = Command.make("invites").pipe(
  Command.withDescription("invites to accounts"),
  Command.withSubcommands([list, respond("accept", "accepted"), respond("reject", "rejected")])
)
