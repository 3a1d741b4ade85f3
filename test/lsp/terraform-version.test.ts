/** Provider version constraints as Terraform reads them, and the provider major the rewrite targets for each. */
import { describe, expect, it } from "vitest"
import { parseHcl } from "../../src/lsp/hcl.js"
import { admits, providerTarget } from "../../src/lsp/terraform/version.js"

const targetOf = async (constraint: string | undefined) => {
  const text =
    constraint === undefined
      ? 'resource "x" "y" {}\n'
      : `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${constraint}"\n    }\n  }\n}\n`
  const tree = await parseHcl(text)
  try {
    const t = providerTarget(tree.rootNode)
    return [t.major, t.pinWithinMajor]
  } finally {
    tree.delete()
  }
}

describe("provider version constraints", () => {
  it("reads ~>, comparisons, exact versions and lists of constraints", () => {
    expect(admits("~> 3.0", "3.35.0")).toBe(true)
    expect(admits("~> 3.0", "4.0.0")).toBe(false)
    expect(admits("~> 3.35.0", "3.35.9")).toBe(true)
    expect(admits("~> 3.35.0", "3.36.0")).toBe(false)
    expect(admits("~> 5", "5.22.0")).toBe(true)
    expect(admits("~> 5", "6.0.0")).toBe(false)
    expect(admits(">= 4.2.0, < 5.0.0", "4.52.5")).toBe(true)
    expect(admits(">= 4.2.0, < 5.0.0", "4.1.0")).toBe(false)
    expect(admits("4.52.5", "4.52.5")).toBe(true)
    expect(admits("!= 3.20.0", "3.20.0")).toBe(false)
  })

  it("targets the highest major the pin admits, and changes a pin within it that admits releases without what the rewrite writes", async () => {
    expect(await targetOf("~> 3.0")).toEqual([3, "~> 3.35"]) // 3.0-3.16 have no `status`
    expect(await targetOf("~> 3.35")).toEqual([3, undefined])
    expect(await targetOf(">= 3.17, < 4.0")).toEqual([3, undefined])
    expect(await targetOf("3.10.0")).toEqual([3, "~> 3.35"])
    expect(await targetOf("~> 4.0")).toEqual([4, ">= 4.2.0, < 5.0.0"]) // 4.0-4.1 have no `enabled` on overrides
    expect(await targetOf("4.52.5")).toEqual([4, undefined])
    expect(await targetOf("~> 5")).toEqual([5, undefined])
    expect(await targetOf(">= 3.0")).toEqual([5, undefined]) // terraform init -upgrade selects the newest
    expect(await targetOf(undefined)).toEqual([3, undefined])
    // Terraform 0.12's `cloudflare = "~> 2.0"`: before 3.17, so written for 3.35 with the pin moved.
    const tree = await parseHcl('terraform {\n  required_providers {\n    cloudflare = "~> 2.0"\n  }\n}\n')
    expect(providerTarget(tree.rootNode)).toMatchObject({ constraint: "~> 2.0", major: 3, pinWithinMajor: "~> 3.35" })
    tree.delete()
  })
})
