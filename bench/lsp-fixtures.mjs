// The documents the language server bench checks at real sizes: a KV bulk file of `n` entries of
// about `bytes` characters each, and a Terraform file of `n` cloudflare_filter + cloudflare_firewall_rule
// pairs (one zone, the way a module of a large account is written).

/** A KV bulk file (`kv bulk put`): one entry per line, `entryChars` characters each (about). */
export const kvBulkFile = (n, entryChars = 160) => {
  const pad = "x".repeat(Math.max(0, entryChars - 70))
  return `[\n${Array.from({ length: n }, (_, i) => `  {"key": "user:${i}", "value": "value ${pad} ${i}", "expiration_ttl": 3600}`).join(",\n")}\n]\n`
}

const ACTIONS = ["block", "allow", "challenge", "log", "js_challenge", "managed_challenge"]

/** A Terraform file of `n` filter/rule pairs in one zone (with the provider pinned to 4.x). */
export const firewallTf = (n) => {
  const out = ['terraform {\n  required_providers {\n    cloudflare = {\n      version = "~> 4.52"\n    }\n  }\n}\n']
  for (let i = 0; i < n; i++) {
    out.push(
      `resource "cloudflare_filter" "f${i}" {\n  zone_id     = var.zone_id\n  description = "filter ${i}"\n  expression  = "(http.request.uri.path eq \\"/p${i}\\" and ip.src ne 192.0.2.${i % 250})"\n}\n`,
      `resource "cloudflare_firewall_rule" "r${i}" {\n  zone_id     = var.zone_id\n  description = "rule ${i}"\n  filter_id   = cloudflare_filter.f${i}.id\n  action      = "${ACTIONS[i % ACTIONS.length]}"\n  priority    = ${i % 17}\n}\n`
    )
  }
  return out.join("\n")
}
