/**
 * `edgectl kv`: the key-value store, with wrangler's commands and options (`kv namespace`,
 * `kv key`, `kv bulk`). The older colon spelling (`kv:key put …`) still works, with a warning.
 */
import { Command } from "@effect/cli"
import { bulk } from "./bulk.js"
import { key } from "./key.js"
import { namespace } from "./namespace.js"

export const kv = Command.make("kv").pipe(
  Command.withDescription("key-value store: namespaces, keys and bulk files (wrangler's kv commands)"),
  Command.withSubcommands([namespace, key, bulk])
)

const Colon = /^kv:(namespace|key|bulk)$/

/**
 * `kv:namespace` / `kv:key` / `kv:bulk` as the first argument become `kv namespace` etc.; the
 * deprecation warning (as wrangler 3.60+ prints one) is returned for stderr.
 */
export const rewriteColonSpelling = (args: ReadonlyArray<string>): { readonly args: ReadonlyArray<string>; readonly warning?: string } => {
  const first = args.findIndex((a) => !a.startsWith("-"))
  const m = first >= 0 ? Colon.exec(args[first]!) : null
  if (m === null) return { args }
  return {
    args: [...args.slice(0, first), "kv", m[1]!, ...args.slice(first + 1)],
    warning: `warning: "kv:${m[1]}" is deprecated; use "kv ${m[1]}" (with a space)`
  }
}
