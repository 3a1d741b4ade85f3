/**
 * Hover on operators, keywords and lists, signature help in function calls, and hover/completion
 * of the platform's values (firewall actions and bypass products, WAF configuration rulesets,
 * rules, categories and actions), over stdio with text after the cursor as editors send it.
 */
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0

const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)

/** Opens `marked` (its `|` is the cursor, removed) and sends `method` there. */
const at = async <T>(method: string, marked: string, ext = "rules", languageId = "plaintext") => {
  const k = marked.indexOf("|")
  const text = marked.slice(0, k) + marked.slice(k + 1)
  const uri = `file:///work/project/h${n++}.${ext}`
  await client.open(uri, text, languageId)
  return (await client.connection.sendRequest(method, { textDocument: { uri }, position: pos(text, k) })) as T | null
}
type Hover = { contents: { value: string }; range: { start: { character: number }; end: { character: number } } }
type Sig = {
  signatures: Array<{ label: string; documentation: string; parameters: Array<{ label: [number, number] }> }>
  activeParameter: number
}
type Items = { items: Array<{ label: string; detail: string; textEdit: { newText: string } }> }
const hover = (marked: string, ext?: string, lang?: string) => at<Hover>("textDocument/hover", marked, ext, lang)
const labels = async (marked: string, ext: string, lang: string) =>
  ((await at<Items>("textDocument/completion", marked, ext, lang))?.items ?? []).map((i) => i.label)

const RULESET = "efb7b8c949ac4650a09736fc376e9aee"
const SQLI_RULE = "518c5de398c70998c0e8cd6afeaaa066"

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  await client.close()
})

describe("hover in expressions", () => {
  it("explains operators as written (words and symbols), with the types they apply to", async () => {
    const word = await hover('http.host con|tains "a"\n')
    expect(word!.contents.value).toContain("`contains`: contains the substring")
    expect(word!.contents.value).toContain("String")
    expect(word!.range).toMatchObject({ start: { character: 10 }, end: { character: 18 } })
    const symbol = await hover("tcp.dstport >|= 1024\n")
    expect(symbol!.contents.value).toContain("`>=` (`ge`): greater or equal")
    expect(symbol!.contents.value).toContain("Integer")
    const ip = await hover("ip.src i|n {10.0.0.0/8}\n")
    expect(ip!.contents.value).toContain("`in`")
    expect(ip!.contents.value).toContain("IP address")
  })

  it("explains and/or/xor/not and their precedence", async () => {
    expect((await hover('ssl an|d http.host eq "a"\n'))!.contents.value).toContain("binds tighter than `xor` and `or`")
    expect((await hover("n|ot ssl\n"))!.contents.value).toContain("negates")
    expect((await hover("ssl |^^ ssl\n"))!.contents.value).toContain("exactly one")
  })

  it("explains named lists (a managed one by its kind)", async () => {
    expect((await hover("ip.src in $cf.mal|ware\n"))!.contents.value).toContain("managed by the platform")
    expect((await hover("ip.src in $my_li|st\n"))!.contents.value).toContain("named list")
  })

  it("works inside a JSON expression string through escapes", async () => {
    const h = await hover('{"expression": "http.host eq \\"a\\" a|nd ssl", "action": "block"}\n', "json", "json")
    expect(h!.contents.value).toContain("`and`")
    expect(h!.range).toMatchObject({ start: { character: 35 }, end: { character: 38 } })
  })
})

describe("signature help", () => {
  it("is advertised on ( and ,", () => {
    expect(client.capabilities.signatureHelpProvider).toMatchObject({ triggerCharacters: ["(", ","] })
  })

  it("shows the call's parameters and the active one, whatever follows the cursor", async () => {
    const first = await at<Sig>("textDocument/signatureHelp", "starts_with(|) and ssl\n")
    expect(first!.signatures[0]!.label).toMatch(/^starts_with\(\w+: String, \w+: String\) -> Boolean$/)
    expect(first!.activeParameter).toBe(0)
    const second = await at<Sig>("textDocument/signatureHelp", 'starts_with(http.host, "a|")\n')
    expect(second!.activeParameter).toBe(1)
    const [s, e] = second!.signatures[0]!.parameters[1]!.label
    expect(second!.signatures[0]!.label.slice(s, e)).toMatch(/: String$/)
    // A comma inside a string does not count; a nested call's own parameters are shown inside it.
    expect((await at<Sig>("textDocument/signatureHelp", 'starts_with(http.host, ",|")\n'))!.activeParameter).toBe(1)
    expect((await at<Sig>("textDocument/signatureHelp", 'starts_with(http.host, r#"a,("#|)\n'))!.activeParameter).toBe(
      1
    )
    const nested = await at<Sig>("textDocument/signatureHelp", 'any(lower(|)[*] eq "a")\n')
    expect(nested!.signatures[0]!.label).toMatch(/^lower\(/)
    expect(await at<Sig>("textDocument/signatureHelp", "ssl and (|)\n")).toBeNull()
  })

  it("works in a JSON expression string", async () => {
    const s = await at<Sig>(
      "textDocument/signatureHelp",
      '{"expression": "ends_with(http.host, \\"|\\")", "action": "block"}\n',
      "json",
      "json"
    )
    expect(s!.signatures[0]!.label).toMatch(/^ends_with\(/)
    expect(s!.activeParameter).toBe(1)
  })
})

describe("the platform's values", () => {
  it("completes and explains firewall actions and bypass products", async () => {
    const body = (cursorInAction: string, products: string) =>
      `[{"action": "${cursorInAction}", "products": [${products}], "filter": {"expression": "ssl"}}]\n`
    expect(await labels(body("|", '"waf"'), "json", "json")).toEqual([
      "block",
      "challenge",
      "js_challenge",
      "managed_challenge",
      "allow",
      "log",
      "bypass"
    ])
    expect(await labels(body("bypass", '"waf", "|"'), "json", "json")).toEqual([
      "zoneLockdown",
      "uaBlock",
      "bic",
      "hot",
      "securityLevel",
      "rateLimit"
    ])
    expect((await hover(body("bypa|ss", '"waf"'), "json", "json"))!.contents.value).toContain("skips the products")
    expect((await hover(body("bypass", '"b|ic"'), "json", "json"))!.contents.value).toContain("Browser Integrity Check")
  })

  const config = (override: string) =>
    JSON.stringify(
      {
        rules: [
          {
            action: "execute",
            expression: "true",
            action_parameters: {
              id: RULESET,
              overrides: { rules: [{ id: "@R", action: "@A" }], categories: [{ category: "@C" }] }
            }
          }
        ]
      },
      null,
      2
    )
      .replace('"@R"', override.includes("R") ? '"|"' : `"${SQLI_RULE}"`)
      .replace('"@A"', override.includes("A") ? '"|"' : '"log"')
      .replace('"@C"', override.includes("C") ? '"|"' : '"sqli"') + "\n"

  it("completes a WAF override's rule ids, actions and categories from the ruleset it overrides", async () => {
    const ids = await labels(config("R"), "json", "json")
    expect(ids).toContain(SQLI_RULE)
    expect(ids).toHaveLength(18)
    expect(await labels(config("A"), "json", "json")).toEqual([
      "block",
      "managed_challenge",
      "js_challenge",
      "challenge",
      "log"
    ])
    expect(await labels(config("C"), "json", "json")).toEqual(expect.arrayContaining(["sqli", "attack-vector"]))
  })

  it("completes a skip rule's rulesets and rule ids", async () => {
    const skip = (inner: string) =>
      `{"rules": [{"action": "skip", "expression": "true", "action_parameters": ${inner}}]}\n`
    expect(await labels(skip('{"rulesets": ["|"]}'), "json", "json")).toEqual([
      RULESET,
      "4814384a9e5d4991b9815dcfc25d2f1f"
    ])
    expect(await labels(skip(`{"rules": {"${RULESET}": ["|"]}}`), "json", "json")).toContain(SQLI_RULE)
  })

  it("explains WAF configuration values: the ruleset, a rule, a category, an action", async () => {
    const text = config("")
    const hoverOn = async (needle: string) =>
      hover(text.replace(needle, needle.slice(0, 3) + "|" + needle.slice(3)), "json", "json")
    expect((await hoverOn(RULESET))!.contents.value).toContain("Cloudflare Managed Ruleset")
    expect((await hoverOn(SQLI_RULE))!.contents.value).toContain("SQLi - UNION based")
    expect((await hoverOn('"sqli"'))!.contents.value).toMatch(
      /category `sqli`: \d+ rules? of Cloudflare Managed Ruleset/
    )
    expect((await hoverOn('"execute"'))!.contents.value).toContain("runs a managed ruleset")
  })
})
