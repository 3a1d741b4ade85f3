/**
 * The routes tried before the app, in order: each answers a few reads straight from the store,
 * without the HttpApi app (no fiber, no router, no part of the API built), and declines
 * (`undefined`) anything it does not understand exactly, which the app then answers. They answer
 * only successful reads, byte for byte as the app would (test/server/route-table.test.ts compares
 * both), with the app's own checks, queries and schemas; see route-table.ts for the rule.
 *
 * One list for both doors: the in-process transport (local-transport.ts) tries the routes of the
 * request's part (parts.ts), made with the first request of that part; `edgectl serve` (serve.ts)
 * tries those marked `served`, made when it starts.
 */
import * as Context from "effect/Context"
import { Db } from "../../store/db.js"
import { KvOptions } from "../kv-options.js"
import type { StoreServices } from "../platform.js"
import { makeKvEntriesRoute } from "./kv-entries-route.js"
import { makeKvValueRoute } from "./kv-value-route.js"
import type { PartName } from "./parts.js"
import { makeRouteTable, type TableRequest } from "./route-table.js"

/**
 * A fast route's answer, status 200: JSON text (`application/json`), or a value's bytes
 * (`application/octet-stream`) with the headers that go with them.
 */
export type FastAnswer = string | { readonly value: Uint8Array; readonly headers: Readonly<Record<string, string>> }

/** A route: its answer to `request`, or `undefined`: ask the app. */
export type FastRoute = (request: TableRequest) => FastAnswer | undefined

interface FastRouteEntry {
  readonly name: string
  /** The part of the API that holds every path it answers (test/server/fast-routes.test.ts checks). */
  readonly part: PartName
  /** Tried by `edgectl serve` too; else by the in-process transport only. */
  readonly served: boolean
  /** The route over the store and the KV behaviour the app's handlers have. */
  readonly make: (services: Context.Context<StoreServices>) => FastRoute | Promise<FastRoute>
}

const dbOf = (services: Context.Context<StoreServices>) => Context.get(services, Db).db

export const fastRoutes: ReadonlyArray<FastRouteEntry> = [
  {
    // A zone, its DNS records, and the lists a cold command asks first: zones and accounts.
    name: "zones and accounts (route-table.ts)",
    part: "core",
    served: true,
    make: (services) => makeRouteTable(dbOf(services))
  },
  {
    // Not a platform path: a local export's pages, asked only of the in-process platform.
    name: "a KV namespace's entries, a page (kv-entries-route.ts)",
    part: "kv",
    served: false,
    make: (services) => makeKvEntriesRoute(dbOf(services), Context.get(services, KvOptions))
  },
  {
    // What `kv key get` asks: a cold one then never builds the KV part.
    name: "a KV value (kv-value-route.ts)",
    part: "kv",
    served: false,
    make: (services) => makeKvValueRoute(dbOf(services), Context.get(services, KvOptions))
  },
  {
    // A module of its own, imported with the first firewall request: it loads the firewall contract.
    name: "a zone's firewall rules and filters (firewall-lists-route.ts)",
    part: "firewall",
    served: false,
    make: (services) => import("./firewall-lists-route.js").then((m) => m.makeFirewallListsRoute(dbOf(services)))
  }
]

/** The routes `which` selects, in the list's order, made over `services`. */
export const makeFastRoutes = (
  services: Context.Context<StoreServices>,
  which: (entry: FastRouteEntry) => boolean
): Promise<ReadonlyArray<FastRoute>> => Promise.all(fastRoutes.filter(which).map((entry) => entry.make(services)))

/** The first answer of `routes`, or `undefined`: ask the app. */
export const fastAnswer = (routes: ReadonlyArray<FastRoute>, request: TableRequest): FastAnswer | undefined => {
  for (const route of routes) {
    const answer = route(request)
    if (answer !== undefined) return answer
  }
  return undefined
}
