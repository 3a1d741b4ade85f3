// The Terraform JSON firewall rewrite bench (issue 21; run by bench/run.mjs after `node build.mjs`):
// `edgectl check --format json` on a `*.tf.json` file of N `cloudflare_filter` + N
// `cloudflare_firewall_rule` (one zone, every action, priorities), which reads the file, warns on
// each resource, checks each expression and builds the rewrite to one `cloudflare_ruleset` (the
// same analysis the language server runs on every change). Wall time (median of runs) and, with
// valgrind, instructions; the same file without firewall resources is the baseline (expression
// checks only). Prints a table and writes bench/results/terraform-json.json.
//
//   node bench/terraform-json.bench.mjs [--quick] [--rules N]
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bin, resultsDir, benchArgs, median, round, runOnce, instructions, table } from "./lib.mjs"

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
const files = {
  "firewall.tf.json": { ...pin, resource: { cloudflare_filter: filters, cloudflare_firewall_rule: firewall } },
  "baseline.tf.json": { ...pin, resource: { cloudflare_ruleset: rulesets } }
}
const rows = []
const results = {}
for (const [name, doc] of Object.entries(files)) {
  const file = path.join(dir, name)
  fs.writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`)
  const args = [bin, "check", "--format", "json", file]
  const times = []
  let out
  for (let i = 0; i < runs; i++) {
    const r = runOnce(args, { ...process.env, NO_COLOR: "1" })
    times.push(r.ms)
    out = JSON.parse(r.stdout)
  }
  const fixes = out.files[0].diagnostics.filter((d) => d.fixes.length > 0).length
  const ins = quick ? undefined : instructions(args, { ...process.env, NO_COLOR: "1" })
  results[name] = {
    rules,
    runs,
    medianMs: round(median(times)),
    instructions: ins ?? null,
    warnings: out.warnings,
    withFix: fixes
  }
  rows.push([
    name,
    String(rules),
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
