/** What `edgectl firewall filters list|create|get|update|delete` do (loaded when one of them runs). */
import * as Effect from "effect/Effect"
import * as Fw from "../../../services/firewall-service.js"
import { opt } from "../../options.js"
import { clip, note, printFields, printJson, printLine, printTable } from "../../output.js"
import { confirmOrRefuse } from "../../prompt.js"
import { positional, targetOn, usage } from "../../run.js"
import { shellQuote } from "./hints.js"
import { filterFields, nonEmpty, runFw, withZone } from "./common.js"
import type { Parsed } from "./options.js"

export const filtersList = (o: Parsed<"filtersList">) =>
  Effect.gen(function* () {
    const c = { zone: o.zone }
    const contains = opt(o.expression)
    const filters = yield* runFw(
      "firewall filters list",
      o,
      c,
      withZone(o.zone, (z) => Fw.allFilters(z))
    )
    const shown =
      contains === undefined
        ? filters
        : filters.filter((f) => f.expression.toLowerCase().includes(contains.toLowerCase()))
    if (o.json) return printJson(shown)
    if (shown.length === 0)
      return printLine(
        `No filters on zone ${o.zone}. Create one with: edgectl firewall filters create --zone ${shellQuote(o.zone)} --expression '...'${targetOn(o)}`
      )
    printTable(
      ["ID", "PAUSED", "DESCRIPTION", "EXPRESSION"],
      shown.map((f) => [f.id, f.paused ? "paused" : "", clip(f.description ?? "", 32), clip(f.expression, 60)])
    )
  })

export const filtersCreate = (o: Parsed<"filtersCreate">) =>
  Effect.gen(function* () {
    yield* nonEmpty("--expression", o.expression)
    const c = { zone: o.zone, expression: o.expression }
    const f = yield* runFw(
      "firewall filters create",
      o,
      c,
      withZone(o.zone, (z) =>
        Fw.createFilter(z, {
          expression: o.expression,
          description: opt(o.description),
          ref: opt(o.ref),
          paused: o.paused || undefined
        })
      )
    )
    if (o.json) return printJson(f)
    printLine(
      `Created filter ${f.id} on zone ${o.zone}. Use it: edgectl firewall rules create --zone ${shellQuote(o.zone)} --filter-id ${f.id} --action <action>${targetOn(o)}`
    )
  })

export const filtersGet = (o: Parsed<"filtersGet">) =>
  Effect.gen(function* () {
    yield* positional("<filter-id>", o.id)
    const f = yield* runFw(
      "firewall filters get",
      o,
      { zone: o.zone },
      withZone(o.zone, (z) => Fw.getFilter(z, o.id))
    )
    if (o.json) return printJson(f)
    printFields(filterFields(f))
  })

export const filtersUpdate = (o: Parsed<"filtersUpdate">) =>
  Effect.gen(function* () {
    yield* positional("<filter-id>", o.id)
    const expression = opt(o.expression)
    yield* nonEmpty("--expression", expression)
    const paused = opt(o.paused)
    if (expression === undefined && opt(o.description) === undefined && paused === undefined) {
      return yield* Effect.fail(usage("say what to change: --expression, --description or --paused true|false"))
    }
    const changes = {
      expression,
      description: opt(o.description),
      paused: paused === undefined ? undefined : paused === "true"
    }
    const f = yield* runFw(
      "firewall filters update",
      o,
      { zone: o.zone, expression },
      withZone(o.zone, (z) => Fw.updateFilter(z, o.id, changes))
    )
    if (o.json) return printJson(f)
    printLine(`Updated filter ${f.id}.`)
    printFields(filterFields(f))
  })

export const filtersDelete = (o: Parsed<"filtersDelete">) =>
  Effect.gen(function* () {
    const what = "firewall filters delete"
    yield* positional("<filter-id>", o.id)
    const done = yield* runFw(
      what,
      o,
      { zone: o.zone },
      withZone(o.zone, (z) =>
        Effect.gen(function* () {
          const f = yield* Fw.getFilter(z, o.id)
          const users = (yield* Fw.allRules(z)).filter((r) => r.filter.id === f.id)
          const yes = yield* confirmOrRefuse(
            `Delete filter ${f.id} (${clip(f.expression, 50)})?${users.length > 0 ? ` ${users.length} rule${users.length === 1 ? " uses" : "s use"} it and will point at a deleted filter.` : ""}`,
            { yes: o.yes },
            { what, doing: `deleting filter ${f.id}`, hint: "pass --yes to delete it" }
          )
          if (!yes) return false
          yield* Fw.deleteFilter(z, f.id)
          return true
        })
      )
    )
    if (!done) return note("Not deleted.")
    if (o.json) return printJson({ id: o.id })
    printLine(`Deleted filter ${o.id}.`)
  })
