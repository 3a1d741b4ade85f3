/**
 * The `terraform fmt` layout rules the Terraform rewrite is written with. canonical.tf is the
 * output of `terraform fmt` (Terraform 1.11.4) on unformatted.tf: the reference's 3.35 and 5.x
 * examples plus the cases below.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { formatHcl, isFmtCanonical } from "../../src/lsp/terraform/fmt.js"
import { root } from "../helpers/cli.js"

const fixture = (name: string) => fs.readFileSync(path.join(root, "fixtures", "terraform", "fmt", name), "utf8")

describe("terraform fmt layout", () => {
  it("lays out a file exactly as terraform fmt did, and leaves fmt's output as it is", () => {
    expect(formatHcl(fixture("unformatted.tf"))).toBe(fixture("canonical.tf"))
    expect(isFmtCanonical(fixture("canonical.tf"))).toBe(true)
    expect(isFmtCanonical(fixture("unformatted.tf"))).toBe(false)
  })

  it("aligns = only within consecutive single-line attributes: a blank line, a comment, a block or a multi-line value ends the run", () => {
    expect(formatHcl("a {\nx = 1\nlong = 2\n\nyy = 3\n# note\nz = 4\nkey = {\nq = 1\nqqq = 2\n}\nk = 5\n}")).toBe(
      "a {\n  x    = 1\n  long = 2\n\n  yy = 3\n  # note\n  z = 4\n  key = {\n    q   = 1\n    qqq = 2\n  }\n  k = 5\n}"
    )
  })

  it("a heredoc's body belongs to its line; comparison operators and = inside strings are not assignments", () => {
    expect(
      formatHcl('r {\nexpression = <<EOT\n  x = 1\nEOT\nb = 2\nc = var.a == "=" ? 1 : 2\nok = var.b >= 3\n}')
    ).toBe(
      'r {\n  expression = <<EOT\n  x = 1\nEOT\n  b          = 2\n  c          = var.a == "=" ? 1 : 2\n  ok         = var.b >= 3\n}'
    )
  })

  it("refuses what the previous rewrite wrote: = aligned across a line that opens a multi-line value", () => {
    expect(
      isFmtCanonical(
        'resource "x" "y" {\n  zone_id = var.zone_id\n  phase   = "p"\n  rules   = [\n    {\n      action = "execute"\n    },\n  ]\n}\n'
      )
    ).toBe(false)
  })
})
