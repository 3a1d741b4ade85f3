/**
 * The code action on the `firewall-api-unsupported` warning of a firewall rules JSON document, as an
 * editor drives it over stdio: a new file beside the document holding the custom phase entry
 * point's PUT body (`{rules: [...]}`, the mapping's rules), the counts in the title, and every
 * note of the mapping shown (`window/showMessage`) when the editor runs the action's command.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0

interface Action {
  title: string
  kind: string
  diagnostics?: Array<{ code: string }>
  edit?: {
    documentChanges: [
      { kind: string; uri: string; options: unknown },
      { textDocument: { uri: string }; edits: Array<{ newText: string }> }
    ]
  }
  command?: { command: string; arguments: Array<string> }
}

const actionsFor = async (text: string) => {
  const uri = `file:///work/project/firewall-${n++}.json`
  const d = await client.open(uri, text, "json")
  const warning = d.diagnostics.find((x) => x.code === "firewall-api-unsupported")
  const actions = (await client.connection.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range: warning?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: warning ? [warning] : [] }
  })) as Array<Action>
  return { uri, actions: actions.filter((a) => a.title.startsWith("Write the equivalent WAF custom rules")) }
}

beforeAll(async () => {
  client = await startLsp({ debounceMs: 0 })
})
afterAll(async () => {
  await client.close()
})

describe("firewall rules JSON: the equivalent ruleset JSON as a new file", () => {
  it("an API answer: rules in the order the firewall ran them, allow and bypass as skip rules, paused as disabled", async () => {
    const answer = {
      success: true,
      errors: [],
      messages: [],
      result: [
        {
          id: "r-block",
          action: "block",
          priority: 3,
          paused: false,
          description: "admin",
          filter: { id: "f1", expression: 'http.request.uri.path contains "/admin"', paused: false }
        },
        {
          id: "r-allow",
          action: "allow",
          priority: 3,
          paused: false,
          filter: { id: "f2", expression: "ip.src in {192.0.2.0/24}", paused: false, description: "office" }
        },
        {
          id: "r-bypass",
          action: "bypass",
          products: ["waf", "uaBlock"],
          priority: 1,
          paused: true,
          filter: { id: "f3", expression: "ssl", paused: false }
        }
      ]
    }
    const { uri, actions } = await actionsFor(`${JSON.stringify(answer, null, 2)}\n`)
    expect(actions).toHaveLength(1)
    const a = actions[0]!
    expect(a.kind).toBe("source")
    expect(a.diagnostics?.map((d) => d.code)).toEqual(["firewall-api-unsupported"])
    expect(a.title).toBe(
      "Write the equivalent WAF custom rules (firewall-0.custom-rules.json, the body of PUT …/rulesets/phases/http_request_firewall_custom/entrypoint): 3 custom rules, 1 behaving differently"
    )
    const [create, write] = a.edit!.documentChanges
    expect(create).toEqual({
      kind: "create",
      uri: uri.replace("firewall-0.json", "firewall-0.custom-rules.json"),
      options: { overwrite: false, ignoreIfExists: false }
    })
    expect(write.textDocument.uri).toBe(create.uri)
    const text = write.edits[0]!.newText
    expect(text.endsWith("}\n")).toBe(true)
    expect(JSON.parse(text)).toEqual({
      rules: [
        {
          action: "skip",
          expression: "ssl",
          enabled: false,
          ref: "r-bypass",
          action_parameters: { products: ["waf", "uaBlock"] },
          logging: { enabled: true }
        },
        {
          action: "skip",
          expression: "ip.src in {192.0.2.0/24}",
          description: "office",
          enabled: true,
          ref: "r-allow",
          action_parameters: { ruleset: "current" },
          logging: { enabled: true }
        },
        {
          action: "block",
          expression: 'http.request.uri.path contains "/admin"',
          description: "admin",
          enabled: true,
          ref: "r-block"
        }
      ]
    })
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`)

    // The notes JSON cannot carry: shown when the editor runs the action's command.
    expect(a.command?.command).toBe("edgectl.showMessage")
    await client.connection.sendRequest("workspace/executeCommand", {
      command: a.command!.command,
      arguments: a.command!.arguments
    })
    const shown = client.messages.at(-1)!
    expect(shown.type).toBe(3)
    expect(shown.message.split("\n")).toEqual([
      expect.stringMatching(/^firewall-0\.custom-rules\.json: info: custom rules run in list order/),
      expect.stringMatching(/^info: former allow and bypass rules become skip rules/),
      expect.stringMatching(/^info: rule r-bypass: skips the previous WAF managed rules only/),
      expect.stringMatching(/^info: rule r-allow: has no description; the custom rule takes its filter's description$/),
      expect.stringMatching(/^changed: rule r-block: a firewall block answered with error 1020/)
    ])
  })

  it("a create body: rules named by ref or position, a shared filter by id resolved from the document's filters, one it cannot resolve left out", async () => {
    const doc = {
      filters: [{ id: "shared", expression: "ip.src eq 192.0.2.1", paused: false }],
      rules: [
        { filter: { id: "shared" }, action: "challenge", ref: "chal" },
        { filter: { id: "shared" }, action: "js_challenge" },
        { filter: { id: "elsewhere" }, action: "block" },
        { filter: { expression: 'http.cookie eq "x"' }, action: "log" }
      ]
    }
    const { actions } = await actionsFor(`${JSON.stringify(doc, null, 2)}\n`)
    const a = actions[0]!
    expect(a.title).toMatch(/: 3 custom rules, 1 firewall rule left out$/)
    const written = JSON.parse(a.edit!.documentChanges[1].edits[0]!.newText) as { rules: Array<{ ref: string }> }
    expect(written.rules.map((r) => r.ref)).toEqual(["rule_4", "chal", "rule_2"])
    expect(a.command!.arguments[0]).toContain(
      "left out: rule rule_3: its filter elsewhere is named by id only and is not in this document (no expression to carry over); it is left out"
    )
    expect(a.command!.arguments[0]).toContain("info: rule chal: its filter shared is shared by 2 rules")
    expect(a.command!.arguments[0]).toContain(
      "info: the zone's plan is not known here: the log action of custom rules is Enterprise only"
    )
  })

  it("no action on a filters document (filters decide nothing alone) nor on custom rules", async () => {
    expect((await actionsFor('[{"expression": "ssl", "description": "tls only"}]\n')).actions).toEqual([])
    expect((await actionsFor('{"rules": [{"action": "block", "expression": "ssl"}]}\n')).actions).toEqual([])
  })

  it("more rules than the Free plan allows: the message says which plans they fit", async () => {
    const rules = Array.from({ length: 6 }, (_, i) => ({
      filter: { expression: `ip.src eq 192.0.2.${i}` },
      action: "block"
    }))
    const { actions } = await actionsFor(`${JSON.stringify(rules)}\n`)
    expect(actions[0]!.command!.arguments[0]).toContain(
      "info: the zone's plan is not known here: 6 custom rules fit only the pro (20), business (100), enterprise (1000) plans"
    )
  })
})
