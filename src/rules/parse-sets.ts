/** Sets (`{item item ...}`, items read in the left-hand side's type) and named lists (`$name`). */
import type { ListRef, SetItem, SetLiteral } from "./ast.js"
import { describeChar, isSpace, scanListName, scanWord, startsRawString, placeOf } from "./lexer.js"
import { expectFor, readBare } from "./literals.js"
import { parseString } from "./parse-string.js"
import type { ListKind, ParserState } from "./parse-state.js"
import { didYouMean, suggest } from "./scheme.js"
import { typeName, type Type } from "./types.js"

/** Named lists the platform manages for every account (IP lists). */
export const MANAGED_LISTS: ReadonlyMap<string, ListKind> = new Map(
  ["cf.open_proxies", "cf.anonymizer", "cf.vpn", "cf.malware", "cf.botnetcc"].map((n) => [n, "ip" as const])
)

// ---------------------------------------------------------------------------------------------
// Sets and lists

export const parseSet = (s: ParserState, type: Type | undefined, quiet: boolean): SetLiteral => {
  const open = s.pos
  s.pos++
  s.token("punctuation", open, open + 1)
  const items: Array<SetItem> = []
  const expect = expectFor(type)
  for (;;) {
    s.ws()
    s.expect({ kind: "value", type, operator: "in" })
    s.expect({ kind: "close", text: "}" })
    const at = s.pos
    if (s.eof || s.code() === 41) {
      s.error(
        "unclosed-set",
        `expected } to close the set opened at ${placeOf(s.src, open)}`,
        { start: at, end: at },
        "add the missing }"
      )
      break
    }
    const c = s.code()
    if (c === 125) {
      s.token("punctuation", at, at + 1)
      s.pos++
      break
    }
    if (c === 44) {
      s.error(
        "set-comma",
        "set items are separated by spaces, not commas",
        { start: at, end: at + 1 },
        "remove the comma"
      )
      s.pos++
      continue
    }
    if (c === 34 || startsRawString(s.src, at)) {
      const { node } = parseString(s, false)
      if (!quiet && (type?.kind === "Int" || type?.kind === "Ip")) {
        s.error(
          "type-mismatch",
          `expected ${type.kind === "Int" ? "an integer" : "an IP address"}, got a string`,
          node.range,
          "remove the quotes"
        )
      }
      items.push(node)
    } else {
      const end = scanWord(s.src, at)
      if (end === at) {
        const ch = s.src.slice(at, at + (s.src.codePointAt(at)! > 0xffff ? 2 : 1))
        s.error("unexpected-character", `unexpected ${describeChar(ch)} in a set`, { start: at, end: at + ch.length })
        s.pos = at + ch.length
        continue
      }
      const lit = readBare(at, end, expect, { src: s.src, out: s.out, inSet: true, quiet })
      s.token(
        lit.kind === "int" || lit.kind === "int-range" ? "number" : lit.kind === "bytes" ? "bytes" : "ip",
        at,
        end
      )
      items.push(lit)
      s.pos = end
    }
    const n = s.code()
    if (!s.eof && n !== 125 && !isSpace(n) && n !== 9 && n !== 44 && n !== 41) {
      s.error("set-separator", "separate set items with a space", { start: s.pos, end: s.pos })
    }
  }
  const node: SetLiteral = { kind: "set", items, range: { start: open, end: s.pos } }
  if (items.length === 0 && !quiet) s.info("empty-set", "an empty set matches nothing", node.range)
  return node
}

const LIST_FOR: Record<ListKind, Type["kind"]> = { ip: "Ip", hostname: "Bytes", asn: "Int" }
const LIST_NAME: Record<ListKind, string> = { ip: "an IP list", hostname: "a hostname list", asn: "an ASN list" }

export const parseList = (s: ParserState, type: Type | undefined, quiet: boolean): ListRef => {
  const at = s.pos
  s.pos++
  const scanned = scanListName(s.src, s.pos)
  const name = s.src.slice(s.pos, scanned.end)
  s.pos = scanned.end
  const range = { start: at, end: s.pos }
  s.token("list", at, s.pos)
  if (scanned.error !== undefined) {
    s.error(
      "invalid-list-name",
      `invalid list name: ${scanned.error}`,
      range,
      "list names use lowercase letters, digits and _ (managed lists: cf.name)"
    )
  } else if (s.opts.lists !== undefined && !quiet) {
    const kind = s.opts.lists.get(name) ?? MANAGED_LISTS.get(name)
    if (kind === undefined) {
      s.error("unknown-list", `there is no list named $${name}`, range, didYouMean(suggestList(s, name)))
    } else if (type !== undefined && LIST_FOR[kind] !== type.kind) {
      s.error(
        "list-type-mismatch",
        `$${name} is ${LIST_NAME[kind]}; ${article(typeName(type))} value cannot be in it`,
        range
      )
    }
  }
  return { kind: "list", name, range }
}

const suggestList = (s: ParserState, name: string) => {
  const found = suggest(name, [...(s.opts.lists?.keys() ?? []), ...MANAGED_LISTS.keys()])
  return found === undefined ? undefined : `$${found}`
}

const article = (t: string) => (/^[AEIOU]/.test(t) ? `an ${t}` : `a ${t}`)
