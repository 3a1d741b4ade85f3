/**
 * KV command lines rewritten before they are parsed: wrangler's old `kv:namespace` spelling, and
 * `-` (standard input) as a bulk file.
 */
const Colon = /^kv:(namespace|key|bulk)$/

/**
 * `kv bulk put - --namespace-id N` (and `kv import -`): @effect/cli stops looking for options at an argument that
 * starts with `-`, so a bare `-` before the options hides them. It is moved after them (behind
 * `--`, where nothing is read as an option).
 */
const stdinLast = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const words = args.filter((a) => !a.startsWith("-"))
  if (words[0] !== "kv" || (words[1] !== "bulk" && words[1] !== "import")) return args
  const end = args.indexOf("--")
  const dash = args.indexOf("-")
  if (dash < 0 || (end >= 0 && dash > end)) return args
  const rest = [...args.slice(0, dash), ...args.slice(dash + 1)]
  return end >= 0 ? [...rest.slice(0, end - 1), "--", "-", ...rest.slice(end)] : [...rest, "--", "-"]
}

/**
 * `kv:namespace` / `kv:key` / `kv:bulk` as the first argument become `kv namespace` etc.; the
 * deprecation warning (as wrangler 3.60+ prints one) is returned for stderr.
 */
export const rewriteColonSpelling = (
  args: ReadonlyArray<string>
): { readonly args: ReadonlyArray<string>; readonly warning?: string } => {
  const first = args.findIndex((a) => !a.startsWith("-"))
  const m = first >= 0 ? Colon.exec(args[first]!) : null
  if (m === null) return { args: stdinLast(args) }
  return {
    args: stdinLast([...args.slice(0, first), "kv", m[1]!, ...args.slice(first + 1)]),
    warning: `warning: "kv:${m[1]}" is deprecated; use "kv ${m[1]}" (with a space)`
  }
}
