// The Terraform JSON firewall rewrite bench (issue 21; run by bench/run.mjs after `node build.mjs`):
// `edgectl check --format json` on a `*.tf.json` file of N `cloudflare_filter` + N
// `cloudflare_firewall_rule` (one zone, every action, priorities), which reads the file, warns on
// each resource, checks each expression and builds the rewrite to one `cloudflare_ruleset` (the
// same analysis the language server runs on every change); the same resources in HCL (`*.tf`).
// Wall time (median of runs) and, with valgrind, instructions (median of 3); the same file without
// firewall resources is the baseline (expression checks only), a file of one filter the start-up.
// Prints a table and writes bench/results/terraform-json.json.
//
//   node bench/terraform-json.bench.mjs [--quick] [--rules N]
//
// Notes (500 resources of each kind, instructions (median of 3), this 2-core machine):
// - Before: firewall.tf.json 2,152 M, firewall.tf 4,302 M, baseline.tf.json 1,191 M, one filter
//   867 M (a .tf of one filter: 1,352 M, tree-sitter loaded). The profile (node --cpu-prof over
//   checkFiles bundled unminified): each resource's warning worked out the pin's major version
//   again, trying every landmark version (majorOf: ~35% of the .tf.json check); every filter
//   expression was parsed and checked twice, by the diagnostics and by the rewrite's mapping
//   (migrateFirewallRules); the rewrite searched the file's resources for each rule's own
//   (quadratic); in HCL the rewrite found each filter's expression in the tree again; jsonc-parser's
//   parseTree (once per check) was about half of what was left of a cold .tf.json check.
// - After: majorOf keeps its last answer; one expressionChecker per document check
//   (src/lsp/terraform/expressions.ts) answers the diagnostics and the mapping; the rewrites find a
//   rule's resource in a map; a .tf check finds each block's expressions once and reads each
//   node's namedChildren once; a .tf.json document is read by a strict JSON reader that builds
//   parseTree's tree (src/lsp/terraform/json-tree.ts; parseTree reads what it does not accept).
//   firewall.tf.json 1,465-1,501 M (-31%; over the one-filter start-up ~1,290 M -> ~620 M, -52%),
//   firewall.tf median of 5 3,707 M (was 4,308 M over the same 5; -14%; over a one-filter .tf
//   2,950 M -> 2,355 M, -20%; runs spread 3,456-3,939 M), baseline.tf.json 1,110-1,120 M (-6%,
//   the reader), one filter 851-865 M (unchanged). Wall: firewall.tf.json 250-317 ms -> 156-192 ms.
//   What is left: the expression checks themselves (src/rules), in HCL tree-sitter's parse and its
//   node accessors, and the rewrite's text. Positions are computed once (report.ts's LineIndex).
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bin, resultsDir, benchArgs, median, round, runOnce, medianInstructions, table } from "./lib.mjs"

const { quick, rules } = benchArgs({ integers: { rules: { quick: 200, full: 500, min: 1, max: 5000 } } })
const runs = quick ? 3 : 7
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-bench-tfjson-"))
process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }))

const actions = ["block", "allow", "bypass", "challenge", "log", "js_challenge", "managed_challenge"]
const filters = {}
const firewall = {}
const rulesets = {
  main: { zone_id: "${var.zone_id}", name: "default", kind: "zone", phase: "http_request_firewall_managed", rules: [] }
}
for (let i = 0; i < rules; i++) {
  const expression = `http.request.uri.path eq "/p${i}" and ip.src ne 192.0.2.${i % 250}`
  filters[`f${i}`] = { zone_id: "${var.zone_id}", expression }
  const action = actions[i % actions.length]
  firewall[`r${i}`] = {
    zone_id: "${var.zone_id}",
    filter_id: `\${cloudflare_filter.f${i}.id}`,
    action,
    ...(action === "bypass" ? { products: ["waf"] } : {}),
    priority: i % 17
  }
  rulesets.main.rules.push({ action: "block", expression })
}
const pin = { terraform: { required_providers: { cloudflare: { version: "~> 4.52" } } } }
const json = (doc) => `${JSON.stringify(doc, null, 2)}\n`
// The same resources in HCL, laid out as `terraform fmt` would.
const hcl = () => {
  const attrs = (o) => {
    const w = Math.max(...Object.keys(o).map((k) => k.length))
    const v = (x) =>
      typeof x === "string"
        ? (/^\$\{(.*)\}$/.exec(x)?.[1] ?? JSON.stringify(x))
        : Array.isArray(x)
          ? `[${x.map((y) => JSON.stringify(y)).join(", ")}]`
          : String(x)
    return Object.entries(o)
      .map(([k, x]) => `  ${k.padEnd(w)} = ${v(x)}\n`)
      .join("")
  }
  let out = `terraform {\n  required_providers {\n    cloudflare = {\n      version = "~> 4.52"\n    }\n  }\n}\n`
  for (let i = 0; i < rules; i++) {
    out += `\nresource "cloudflare_filter" "f${i}" {\n${attrs(filters[`f${i}`])}}\n`
    out += `\nresource "cloudflare_firewall_rule" "r${i}" {\n${attrs(firewall[`r${i}`])}}\n`
  }
  return out
}
const files = {
  "firewall.tf.json": json({ ...pin, resource: { cloudflare_filter: filters, cloudflare_firewall_rule: firewall } }),
  "firewall.tf": hcl(),
  "baseline.tf.json": json({ ...pin, resource: { cloudflare_ruleset: rulesets } }),
  "one-filter.tf.json": json({ ...pin, resource: { cloudflare_filter: { f0: filters.f0 } } })
}
const rows = []
const results = {}
for (const [name, text] of Object.entries(files)) {
  // Each in its own folder: a file's module is its folder (the others are not read for a pin).
  fs.mkdirSync(path.join(dir, name))
  const file = path.join(dir, name, name)
  fs.writeFileSync(file, text)
  const args = [bin, "check", "--format", "json", file]
  const times = []
  let out
  for (let i = 0; i < runs; i++) {
    const r = runOnce(args, { ...process.env, NO_COLOR: "1" })
    times.push(r.ms)
    out = JSON.parse(r.stdout)
  }
  const fixes = out.files[0].diagnostics.filter((d) => d.fixes.length > 0).length
  const ins = quick ? undefined : medianInstructions(args, { ...process.env, NO_COLOR: "1" }, 3)
  results[name] = {
    rules: name.startsWith("one") ? 1 : rules,
    runs,
    medianMs: round(median(times)),
    instructions: ins ?? null,
    warnings: out.warnings,
    withFix: fixes
  }
  rows.push([
    name,
    name.startsWith("one") ? "1" : String(rules),
    `${round(median(times))} ms`,
    ins === undefined ? "" : `${round(ins / 1e6)} M`,
    String(out.warnings),
    String(fixes)
  ])
}
table(
  `edgectl check on a Terraform JSON file (${rules} resources of each kind, median of ${runs})`,
  ["file", "rules", "wall", "instructions", "warnings", "with the fix"],
  rows
)
fs.mkdirSync(resultsDir, { recursive: true })
fs.writeFileSync(path.join(resultsDir, "terraform-json.json"), `${JSON.stringify(results, null, 2)}\n`)
