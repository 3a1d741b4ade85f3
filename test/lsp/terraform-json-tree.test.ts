/**
 * The `*.tf.json` reader builds the tree jsonc-parser's `parseTree` builds, node for node (type,
 * offset, length, value, `colonOffset`, the keys each node has, parents), with the same errors,
 * on real files, every kind of JSON value and escape, and thousands of damaged variants of them.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { parseTree, type Node, type ParseError } from "jsonc-parser"
import { describe, expect, it } from "vitest"
import { terraformJsonTree } from "../../src/lsp/terraform/json-tree.js"
import { root } from "../helpers/cli.js"

/** A node as data: its own keys in order, and its children the same way; each child's parent checked. */
const shape = (n: Node | undefined): unknown => {
  if (n === undefined) return undefined
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(n)) {
    if (k === "parent") continue
    out[k] = k === "children" ? n.children!.map(shape) : (n as unknown as Record<string, unknown>)[k]
  }
  for (const c of n.children ?? []) expect(c.parent).toBe(n)
  out.keys = Object.keys(n).join(",")
  return out
}

const same = (text: string) => {
  const theirs: Array<ParseError> = []
  const ours: Array<ParseError> = []
  const expected = parseTree(text, theirs, { allowTrailingComma: false, disallowComments: true })
  const got = terraformJsonTree(text, ours)
  expect(shape(got), text.slice(0, 200)).toEqual(shape(expected))
  expect(ours).toEqual(theirs)
}

const DOCS = [
  fs.readFileSync(path.join(root, "fixtures/terraform/expressions.tf.json"), "utf8"),
  `${JSON.stringify(
    {
      terraform: { required_providers: { cloudflare: { version: "~> 4.52" } } },
      resource: {
        cloudflare_filter: {
          a: { zone_id: "${var.zone_id}", expression: 'http.host eq "a\\"b" and ip.src ne 192.0.2.1', paused: false },
          b: [{ expression: "é \u2028 \ud83d\ude00 \t tab / slash", priority: -1.5e3, n: 0, z: -0 }]
        }
      },
      "": [[], {}, null, true, false, [1, [2, [3]]]]
    },
    null,
    2
  )}\n`,
  '{"a":"\\u00e9\\ud800\\/\\b\\f\\n\\r\\t","b":[ ],"c":{ }}',
  '  "top-level string"  ',
  "12",
  '{"big": 1e400, "e": 1E+2, "f": -2.5e-3, "g": 123456789012345678901234567890}',
  "\r\n[\r\n\t1 ,\r\n\t2\r\n]\r\n"
]

describe("terraformJsonTree", () => {
  it("builds parseTree's tree on valid documents", () => {
    for (const d of DOCS) same(d)
  })

  it("answers as parseTree on damaged ones: errors, comments, trailing commas, odd whitespace, bad numbers and escapes", () => {
    const cases = [
      "",
      "   ",
      "{",
      '{"a":1,}',
      "[1,]",
      '{"a" 1}',
      '{"a":1 "b":2}',
      "// c\n{}",
      "{} /* c */",
      "\ufeff{}",
      "{\u000b}",
      "\u00a0[]",
      "01",
      "1.",
      "-",
      "1e",
      ".5",
      "+1",
      "truex",
      "nul",
      '"a\u0001b"',
      '"\\x"',
      '"\\u12"',
      '"open',
      "{} {}",
      '{"a":}',
      "[,1]",
      "{'a':1}",
      "NaN",
      "Infinity"
    ]
    for (const c of cases) same(c)
    // Each document with one character deleted, duplicated or replaced, at many places.
    let seed = 7
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n)
    const noise = ['"', "\\", ",", ":", "{", "}", "[", "]", " ", "\n", "e", "-", "0", "/", "\u0000"]
    for (const d of DOCS)
      for (let k = 0; k < 300; k++) {
        const at = rnd(d.length)
        const op = rnd(3)
        const v =
          op === 0
            ? d.slice(0, at) + d.slice(at + 1)
            : op === 1
              ? d.slice(0, at) + d[at] + d.slice(at)
              : d.slice(0, at) + noise[rnd(noise.length)] + d.slice(at + 1)
        same(v)
      }
  })
})
