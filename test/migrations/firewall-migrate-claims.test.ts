/**
 * What `firewall migrate` says matches what it did: a zone with no firewall rules has nothing to
 * migrate (and gets no entry point); the table's DESCRIPTION is the custom rule's, which may come
 * from the rule's filter; and runs started together each report only the pauses they sent, so the
 * reports add up to the zone's rules, once.
 */
import { describe, expect, it } from "vitest"
import { edgectl, edgectlAsync, json, tempDir } from "../helpers/cli.js"

describe("firewall migrate says what it did", () => {
  it("a zone without firewall rules: nothing to migrate, and no entry point written", () => {
    const cwd = tempDir("edgectl-claims-")
    const r = edgectl(["firewall", "migrate", "--zone", "acme-labs.org", "--yes"], { cwd })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toBe("Nothing to migrate: zone acme-labs.org has no firewall rules.\n")
    const dry = edgectl(["firewall", "migrate", "--zone", "acme-labs.org", "--dry-run"], { cwd })
    expect(dry.stdout).toBe("Nothing to migrate: zone acme-labs.org has no firewall rules.\n")
    expect(json<unknown[]>(edgectl(["custom-rules", "list", "--zone", "acme-labs.org", "--json"], { cwd }))).toEqual([])
  })

  it("the DESCRIPTION column shows the description the custom rule takes from the rule's filter", () => {
    const cwd = tempDir("edgectl-claims-")
    const z = ["--zone", "acme-labs.org"]
    const filter = edgectl(
      [
        "firewall",
        "filters",
        "create",
        ...z,
        "--expression",
        'http.request.uri.path eq "/old"',
        "--description",
        "old admin path",
        "--json"
      ],
      { cwd }
    )
    expect(filter.status, filter.stderr).toBe(0)
    const id = json<Array<{ id: string }> | { id: string }>(filter)
    const filterId = Array.isArray(id) ? id[0]!.id : id.id
    expect(
      edgectl(["firewall", "rules", "create", ...z, "--filter-id", filterId, "--action", "block"], { cwd }).status
    ).toBe(0)
    const dry = edgectl(["firewall", "migrate", ...z, "--dry-run"], { cwd })
    expect(dry.status, dry.stderr).toBe(0)
    const row = dry.stdout.split("\n").find((l) => /^1\s/.test(l))!
    expect(row).toMatch(/block\s+old admin path$/)
  })

  it("ten runs started together: each reports the pauses it sent, which add up to the zone's rules once", async () => {
    const cwd = tempDir("edgectl-claims-")
    const runs = await Promise.all(
      Array.from({ length: 10 }, () => edgectlAsync(["firewall", "migrate", "--zone", "globex.com", "--yes"], { cwd }))
    )
    let paused = 0
    for (const r of runs) {
      const m = /; (\d+) firewall rule\(s\) paused;/.exec(r.stdout)
      if (m) paused += Number(m[1])
      else if (r.status === 0) expect(r.stdout).toContain("Nothing to do")
    }
    expect(paused).toBe(3)
    const rules = json<Array<{ paused: boolean }>>(
      edgectl(["firewall", "rules", "list", "--zone", "globex.com", "--json"], { cwd })
    )
    expect(rules.every((r) => r.paused)).toBe(true)
  })
})
