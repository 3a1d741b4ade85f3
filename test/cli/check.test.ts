/** `edgectl check FILES...` on fixture files of each kind, in text, JSON and SARIF. */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectl, packageVersion, root, tempDir } from "../helpers/cli.js"

const fx = (name: string) => path.join(root, "fixtures", "lsp", name)
const ALL = [
  "bad.rules",
  "good.rules",
  "firewall-rules.json",
  "kv-bulk.json",
  "waf.tf",
  "waf-config.json",
  "acme.net.waf-export.json"
].map(fx)

interface JsonReport {
  errors: number
  warnings: number
  files: Array<{
    path: string
    kind: string
    diagnostics: Array<{
      severity: string
      code: string
      range: { start: { line: number; column: number } }
      fixes: Array<string>
    }>
  }>
}

/** The parts of the SARIF 2.1.0 schema that code-scanning services read, checked field by field. */
const assertSarif = (doc: any) => {
  expect(doc.version).toBe("2.1.0")
  expect(doc.$schema).toMatch(/sarif-2\.1\.0/)
  expect(Array.isArray(doc.runs)).toBe(true)
  for (const run of doc.runs) {
    expect(typeof run.tool.driver.name).toBe("string")
    const ids = run.tool.driver.rules.map((r: { id: string }) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const r of run.results) {
      expect(["none", "note", "warning", "error"]).toContain(r.level)
      expect(typeof r.message.text).toBe("string")
      expect(ids[r.ruleIndex]).toBe(r.ruleId)
      for (const loc of [...r.locations, ...(r.relatedLocations ?? [])]) {
        const { artifactLocation, region } = loc.physicalLocation
        expect(typeof artifactLocation.uri).toBe("string")
        expect(region.startLine).toBeGreaterThanOrEqual(1)
        expect(region.startColumn).toBeGreaterThanOrEqual(1)
        expect(region.endLine).toBeGreaterThanOrEqual(region.startLine)
        if (region.endLine === region.startLine) expect(region.endColumn).toBeGreaterThanOrEqual(region.startColumn)
        expect(region.charLength).toBeGreaterThanOrEqual(0)
      }
    }
  }
}

describe("edgectl check", () => {
  it("prints text diagnostics with file:line:col and a caret, and exits 1 on errors", () => {
    const r = edgectl(["check", ...ALL], { cwd: root })
    expect(r.status).toBe(1)
    expect(r.stdout).toContain(`--> ${fx("bad.rules")}:1:1`)
    expect(r.stdout).toContain("1 | http.hots eq")
    expect(r.stdout).toMatch(/\n {2}\| \^{9}\n/)
    expect(r.stdout).toContain(`--> ${fx("kv-bulk.json")}:2:12`)
    expect(r.stdout).toContain(`= note: ${fx("kv-bulk.json")}:5:12: entry 3 writes key "a" last`)
    expect(r.stdout).toContain(`--> ${fx("waf.tf")}:2:10`)
    expect(r.stdout).toContain(`--> ${fx("waf-config.json")}:11:98`)
    expect(r.stdout).toContain("error[waf-uri-override]")
    expect(r.stderr.trim().split("\n").at(-1)).toMatch(/^error: check: 7 files checked, \d+ errors, \d+ warnings/)
  })

  it("exits 0 when there are only warnings or nothing", () => {
    const ok = edgectl(["check", fx("good.rules")], { cwd: root })
    expect(ok.status).toBe(0)
    expect(ok.stdout).toBe("")
    expect(ok.stderr).toBe("1 file checked, 0 errors, 0 warnings\n")
    const warn = edgectl(["check", fx("waf.tf")], { cwd: root })
    expect(warn.status).toBe(0)
    expect(warn.stdout).toContain("warning[terraform-previous-waf]")
  })

  it("prints JSON with every file's kind and diagnostics", () => {
    const r = edgectl(["check", "--format", "json", ...ALL], { cwd: root })
    expect(r.status).toBe(1)
    const doc = JSON.parse(r.stdout) as JsonReport
    expect(doc.files.map((f) => f.kind)).toEqual([
      "rules",
      "rules",
      "rules-json",
      "kv-bulk",
      "terraform",
      "waf-config",
      "waf-export"
    ])
    const bad = doc.files[0]!.diagnostics[0]!
    expect(bad).toMatchObject({
      severity: "error",
      code: "unknown-field",
      range: { start: { line: 1, column: 1 } },
      fixes: ["Change to `http.host`"]
    })
    expect(doc.files[1]!.diagnostics).toEqual([])
    expect(doc.errors).toBe(doc.files.flatMap((f) => f.diagnostics).filter((d) => d.severity === "error").length)
    expect(doc.files[3]!.diagnostics.map((d) => d.code).sort()).toEqual([
      "kv-base64",
      "kv-duplicate-key",
      "kv-expiration_ttl",
      "kv-key",
      "kv-unknown-property"
    ])
    expect(doc.files[5]!.diagnostics.map((d) => d.code)).toEqual([
      "waf-config",
      "waf-score-threshold",
      "waf-config",
      "waf-skip-order",
      "unknown-field",
      "waf-config"
    ])
    expect(doc.files[6]!.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)).toEqual([
      "waf-uri-override"
    ])
  })

  it("prints SARIF 2.1.0 that follows the schema's shape", () => {
    const r = edgectl(["check", "--format", "sarif", ...ALL], { cwd: root })
    expect(r.status).toBe(1)
    const doc = JSON.parse(r.stdout)
    assertSarif(doc)
    expect(doc.runs[0].tool.driver.version).toBe(packageVersion)
    const results = doc.runs[0].results as Array<any>
    const dup = results.find((x) => x.ruleId === "kv-duplicate-key")
    expect(dup.level).toBe("warning")
    expect(dup.locations[0].physicalLocation.region).toMatchObject({ startLine: 2, startColumn: 12, endColumn: 15 })
    expect(dup.relatedLocations[0].physicalLocation.region).toMatchObject({ startLine: 5, startColumn: 12 })
    const tf = results.find((x) => x.ruleId === "terraform-previous-waf")
    // An absolute path is a file URI (a relative one is against %SRCROOT%).
    expect(tf.locations[0].physicalLocation.artifactLocation.uri).toBe(`file://${fx("waf.tf")}`)
    const mapping = results.find((x) => x.ruleId === "waf-mapping")
    expect(mapping.level).toBe("note")
    expect(results.find((x) => x.ruleId === "waf-uri-override").level).toBe("error")
  })

  it("rejects unreadable files and unknown kinds with exit 1, and a missing FILES with exit 2", () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, "notes.txt"), "x")
    const r = edgectl(["check", "missing.rules", "notes.txt"], { cwd: dir })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain("error: check missing.rules: cannot read it: no such file")
    expect(r.stderr).toContain("error: check notes.txt: unknown kind of file")
    expect(edgectl(["check"], { cwd: dir }).status).toBe(2)
    expect(edgectl(["check", "--format", "xml", fx("good.rules")], { cwd: dir }).status).toBe(2)
  })
})
