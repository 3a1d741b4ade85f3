/** wrangler's old `kv:namespace` spelling, rewritten before the command line is parsed. */
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
