/** What `edgectl kv namespace create|list|rename|delete` do (loaded when one of them runs). */
import * as Effect from "effect/Effect"
import { TitleMaxLength } from "../../../domain/kv-limits.js"
import * as Kv from "../../../services/kv-service.js"
import { opt } from "../../options.js"
import { note, printJson, printLine } from "../../output.js"
import { bindingName, ConfigError, configSnippet, namespaceTitle } from "./project-config.js"
import { confirmOrRefuse } from "../../prompt.js"
import { CliFailure, positional, usage } from "../../run.js"
import { chooseNamespace, ConfigReader, isRemote, runKv } from "./common.js"
import type { Parsed } from "./options.js"

const where = (remote: boolean) =>
  remote ? "on the remote platform" : "on the local platform (--remote for the real one)"

export const namespaceCreate = (o: Parsed<"namespaceCreate">) =>
  Effect.gen(function* () {
    const what = "kv namespace create"
    const name = yield* positional("<namespace>", o.namespace)
    if (name.trim() === "") return yield* Effect.fail(usage("<namespace> is empty"))
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const config = yield* reader.get()
    const env = opt(o.env)
    const preview = opt(o.preview) === true
    const { title, defaultPrefix } = yield* Effect.try({
      try: () => namespaceTitle(config, name, env, preview),
      catch: (e) => new CliFailure({ text: `error: ${what}: ${(e as ConfigError).message}`, exitCode: 1 })
    })
    if (defaultPrefix) {
      note(
        `warning: ${config === undefined ? "no wrangler.json, wrangler.jsonc or wrangler.toml here" : `${config.file} has no "name"`}: the title uses "worker" as its prefix`
      )
    }
    const ns = yield* runKv(what, o, reader, ({ account }) =>
      Effect.flatMap(account, (a) => Kv.createNamespace(a, title))
    )
    if (o.json) return printJson(ns)
    const binding = bindingName(name)
    const file = config?.file ?? "wrangler.toml"
    printLine(`Created KV namespace ${JSON.stringify(ns.title)} (id ${ns.id}) ${where(isRemote(o))}.`)
    printLine(`Add it to ${env ? `the "${env}" environment of ` : ""}${file}:`)
    printLine(configSnippet(config?.format ?? "toml", binding, ns.id, env, preview))
  })

export const namespaceList = (o: Parsed<"namespaceList">) =>
  Effect.gen(function* () {
    const what = "kv namespace list"
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const namespaces = yield* runKv(what, o, reader, ({ account }) =>
      Effect.flatMap(account, (a) => Kv.allNamespaces(a))
    )
    // JSON either way: scripts written for wrangler parse this output.
    printJson(namespaces)
  })

/**
 * The namespace `delete` and `rename` act on: its title (wrangler 4's positional), or --binding /
 * --namespace-id; more than one of them is a usage error.
 */
const namedNamespace = (what: string, o: Parsed<"namespaceDelete"> | Parsed<"namespaceRename">) =>
  Effect.gen(function* () {
    const title = opt(o.name)
    if (title !== undefined) yield* positional("<namespace>", title)
    const given = [title, opt(o.binding), opt(o.namespaceId)].filter((x) => x !== undefined).length
    if (given > 1)
      return yield* Effect.fail(usage("give exactly one of <namespace> (a title), --binding and --namespace-id"))
    const reader = new ConfigReader(what, process.cwd(), opt(o.config))
    const chosen = title === undefined ? yield* chooseNamespace(what, o, reader, true) : undefined
    const find = (account: string) =>
      chosen !== undefined ? Kv.getNamespace(account, chosen.id) : Kv.findNamespaceByTitle(account, title!)
    return { reader, find }
  })

export const namespaceDelete = (o: Parsed<"namespaceDelete">) =>
  Effect.gen(function* () {
    const what = "kv namespace delete"
    const { reader, find } = yield* namedNamespace(what, o)
    const deleted = yield* runKv(what, o, reader, ({ account }) =>
      Effect.gen(function* () {
        const a = yield* account
        const ns = yield* find(a)
        const yes = yield* confirmOrRefuse(
          `Delete KV namespace ${JSON.stringify(ns.title)} (id ${ns.id}) and every key in it? This cannot be undone.`,
          { yes: o.yes },
          {
            what,
            doing: `deleting namespace ${JSON.stringify(ns.title)} (id ${ns.id})`,
            hint: "pass --yes to delete it"
          }
        )
        if (!yes) return undefined
        yield* Kv.deleteNamespace(a, ns.id)
        return ns
      })
    )
    if (deleted === undefined) {
      note("Not deleted.")
      return
    }
    if (o.json) return printJson(deleted)
    printLine(`Deleted KV namespace ${JSON.stringify(deleted.title)} (id ${deleted.id}).`)
  })

/** wrangler 4's `kv namespace rename [<NAME>] --new-name NEW`: only the title changes. */
export const namespaceRename = (o: Parsed<"namespaceRename">) =>
  Effect.gen(function* () {
    const what = "kv namespace rename"
    const newTitle = o.newName
    if (newTitle.trim() === "" || newTitle.length > TitleMaxLength) {
      return yield* Effect.fail(
        usage(
          `--new-name must be 1 to ${TitleMaxLength} characters, got ${newTitle.trim() === "" ? "an empty title" : `${newTitle.length}`}`
        )
      )
    }
    const { reader, find } = yield* namedNamespace(what, o)
    const renamed = yield* runKv(what, o, reader, ({ account }) =>
      Effect.gen(function* () {
        const a = yield* account
        const ns = yield* find(a)
        const after = yield* Kv.renameNamespace(a, ns.id, newTitle)
        return { before: ns, after }
      })
    )
    if (o.json) return printJson(renamed.after)
    printLine(
      `Renamed KV namespace ${JSON.stringify(renamed.before.title)} (id ${renamed.before.id}) to ${JSON.stringify(renamed.after.title)}.`
    )
  })
