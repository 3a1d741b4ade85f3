/**
 * The `hint:` line under an error, when the command gave none of its own: it fits the target (a
 * command it suggests carries `--remote` or `--persist-to` as the failed one did; a local failure
 * never points at the network or the credentials' environment variables) and the object that was
 * not found (a rule id suggests listing the zone's rules, not the zones).
 */
import type { V4Error } from "../domain/errors.js"
import { DamagedStore, DamagedStoreHint, NativeModule, RebuildHint } from "../domain/native-module.js"
import { storeConditionHint } from "../domain/store-conditions.js"
import { shellWord as quote } from "../domain/shell-word.js"
import { targetFlags, type HintTarget } from "../domain/target-flags.js"

export { quote, targetFlags, type HintTarget }

/** The objects a "not found" path names, most specific first: the list command that shows them. */
const listings: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => string]> = [
  [/\/zones\/(\w+)\/firewall\/rules\//, (m) => `edgectl firewall rules list --zone ${m[1]}`],
  [/\/zones\/(\w+)\/filters\//, (m) => `edgectl firewall filters list --zone ${m[1]}`],
  [/\/zones\/(\w+)\/firewall\/waf\/overrides\//, (m) => `edgectl waf overrides list --zone ${m[1]}`],
  [/\/invites\//, () => "edgectl invites list"],
  [/\/storage\/kv\/namespaces\//, () => "edgectl kv namespace list"],
  [/\/accounts\/\w+|^no account named/, () => "edgectl accounts list"]
]

/** The objects a written path changes, most specific first: the command that shows whether the write was applied. */
const checks: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => string]> = [
  [
    /\/storage\/kv\/namespaces\/([^/]+)\/(?:bulk|values)/,
    (m) => `edgectl kv key list --namespace-id ${quote(decodeURIComponent(m[1]!))}`
  ],
  [/\/storage\/kv\/namespaces/, () => "edgectl kv namespace list"],
  [/\/zones\/(\w+)\/firewall\/rules/, (m) => `edgectl firewall rules list --zone ${m[1]}`],
  [/\/zones\/(\w+)\/filters/, (m) => `edgectl firewall filters list --zone ${m[1]}`],
  [/\/zones\/(\w+)\/firewall\/waf\/overrides/, (m) => `edgectl waf overrides list --zone ${m[1]}`],
  [/\/zones\/(\w+)\/rulesets/, (m) => `edgectl custom-rules list --zone ${m[1]}`]
]

/** A write that got no answer: look before running it again. */
const noAnswerHint = (e: V4Error & { readonly path: string; readonly method: string }, t: HintTarget) => {
  if (e.method === "GET" || e.method === "HEAD")
    return "the platform did not answer in time: try again, or give it longer with --timeout SECONDS"
  for (const [pattern, command] of checks) {
    const m = pattern.exec(e.path)
    if (m !== null)
      return `run \`${command(m)}${targetFlags(t)}\` to see whether it was applied before running it again`
  }
  return "check on the platform whether it was applied before running it again"
}

const notFoundHint = (e: V4Error, t: HintTarget): string => {
  for (const [pattern, command] of listings) {
    const m = pattern.exec(e.message)
    if (m !== null) return `run \`${command(m)}${targetFlags(t)}\` to see the ids there are`
  }
  return t.remote
    ? "run `edgectl zones list --remote` to see what these credentials can see"
    : `run \`edgectl zones list${targetFlags(t)}\` to see the zones of the local platform`
}

const credentialsHint = (e: V4Error, t: HintTarget): string => {
  if (!t.remote)
    return "the local platform refused its own demo token: its store may be damaged; try another --persist-to directory"
  // 9103 is the platform's answer to an API key and email it does not know.
  const keyPair =
    e.code === 9103 ||
    (e.chain ?? []).some((c) => c.code === 9103) ||
    (!process.env.CLOUDFLARE_API_TOKEN && !!process.env.CLOUDFLARE_API_KEY)
  return keyPair
    ? "the platform does not know this key pair: check CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL"
    : "the platform does not know this token: check CLOUDFLARE_API_TOKEN"
}

/** Why the local platform could not start, each cause with its own way out. */
const localStartHint = (message: string): string => {
  if (/EDGECTL_PLATFORM_NOW/.test(message))
    return "unset EDGECTL_PLATFORM_NOW, or set it to an instant such as 2024-06-01T12:00:00Z"
  if (/EDGECTL_LEGACY_APIS/.test(message)) return "unset EDGECTL_LEGACY_APIS, or set it to served or ended"
  if (/written by a newer edgectl/.test(message))
    return "run the newer edgectl that wrote this state, or pick another state directory with --persist-to DIR"
  if (DamagedStore.test(message)) return DamagedStoreHint
  const condition = storeConditionHint(message)
  if (condition !== undefined) return condition
  return "the state directory must be a directory edgectl can write: pick another with --persist-to DIR"
}

/** The default hint for an error on a target, or undefined when there is nothing useful to add. */
export const defaultHint = (e: V4Error, t: HintTarget): string | undefined => {
  switch (e._tag) {
    case "NotFound":
      return notFoundHint(e, t)
    case "MissingCredentials":
      return t.remote ? "set CLOUDFLARE_API_TOKEN (or CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL)" : undefined
    case "MalformedCredentials":
      return t.remote ? "check the value of CLOUDFLARE_API_TOKEN (or CLOUDFLARE_API_KEY / CLOUDFLARE_EMAIL)" : undefined
    case "InvalidCredentials":
      return credentialsHint(e, t)
    case "Unauthorized":
      return t.remote
        ? "these credentials may not do this; use a token with the needed permissions"
        : "the local demo token may not do this"
    case "RateLimited":
      // edgectl kept within its budget and waited out every Retry-After: another client shares it.
      return t.remote
        ? "other clients use this token's API budget too: try again later, or give edgectl a smaller share with --rate-limit N/SECONDS"
        : "wait a moment and try again"
    case "NoAnswer":
      return noAnswerHint(e, t)
    case "NoRoute":
      return t.remote
        ? "the base URL may be wrong; check CLOUDFLARE_API_BASE_URL"
        : "the local platform has every endpoint edgectl calls: check the ids given"
    case "ApiError":
      if (e.status === 0) {
        if (t.remote) return "check the network and CLOUDFLARE_API_BASE_URL"
        return NativeModule.test(e.message) ? RebuildHint : localStartHint(e.message)
      }
      if (!t.remote && e.status >= 500) {
        const condition = storeConditionHint(e.message)
        if (condition !== undefined) return condition
      }
      return !t.remote && e.status >= 500 && process.env.EDGECTL_DEBUG !== "1"
        ? "run again with EDGECTL_DEBUG=1 for the cause and the stack"
        : undefined
    default:
      return undefined
  }
}
