/**
 * fitTable (tui/components/columns.ts), the certificate packs' columns: fitted widths, and the
 * droppable columns left out lowest first only until the flexible one has the room its cells want.
 */
import { describe, expect, it } from "vitest"
import { fitTable, type Column } from "../../tui/components/columns.js"

interface Pack {
  readonly type: string
  readonly status: string
  readonly authority: string
  readonly hosts: string
}
const columns: ReadonlyArray<Column<Pack>> = [
  { title: "TYPE", text: (p) => p.type, fit: 14, drop: 3 },
  { title: "STATUS", text: (p) => p.status, fit: 20 },
  { title: "AUTHORITY", text: (p) => p.authority, fit: 12, drop: 2 },
  { title: "VALID", text: () => "90d", width: 5, drop: 1 },
  { title: "HOSTS", text: (p) => p.hosts }
]
const active: Pack = { type: "universal", status: "active", authority: "google", hosts: "acme-api.com, *.acme-api.com" }
const pending: Pack = {
  type: "universal",
  status: "pending_validation",
  authority: "google",
  hosts: "acme-legacy.com, *.acme-legacy.com"
}

describe("fitTable", () => {
  it("shows every column, each as wide as its cells, where the pane has room", () => {
    const t = fitTable(100, [active, pending], columns, 40)
    expect(t.header).toBe(`TYPE       STATUS              AUTHORITY  VALID  HOSTS`)
    expect(t.row(pending)).toBe(`universal  pending_validation  google     90d    acme-legacy.com, *.acme-legacy.com`)
  })

  it("leaves out the validity, then the authority, then the type, only until the hosts fit", () => {
    // 60 columns (an 80-column terminal): the validity goes, and the hosts fit.
    expect(fitTable(60, [active], columns, 40).header).toBe("TYPE       STATUS  AUTHORITY  HOSTS")
    expect(fitTable(60, [active], columns, 40).row(active)).toBe(
      "universal  active  google     acme-api.com, *.acme-api.com"
    )
    // A longer status and longer hosts: all three go.
    const t = fitTable(60, [pending], columns, 40)
    expect(t.header).toBe("STATUS              HOSTS")
    expect(t.row(pending)).toBe("pending_validation  acme-legacy.com, *.acme-legacy.com")
  })

  it("drops nothing for hosts past `want`: they are cut where the others keep their place", () => {
    const long = { ...active, hosts: "a".repeat(70) }
    // Hosts of 70 would take 7 more columns were the validity left out; past 40 it stays.
    const t = fitTable(80, [long], columns, 40)
    expect(t.header).toBe("TYPE       STATUS  AUTHORITY  VALID  HOSTS")
    expect(t.row(long)).toBe(`universal  active  google     90d    ${"a".repeat(40)}…`)
  })
})
