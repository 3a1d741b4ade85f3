/**
 * Invites in the TUI (issue 29): `a` then `i` lists the invitations; `y` accepts one and `x`
 * rejects another, each after a confirmation whose `v` shows the PATCH; read back through the CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyTui } from "../helpers/pty.js"
import { flat } from "../helpers/tui-screen.js"

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
] as const

interface Row {
  readonly id: string
  readonly organization_name: string
  readonly status: string
}

/** The screen without borders or whitespace: a request cut at the dialog's width, or nested in two frames, reads whole. */
const dense = (screen: string): string => screen.replace(/[│\s]/g, "")

describe.each(sizes)("invites at $columns x $rows", (size) => {
  let tui: PtyTui
  let dir: string
  const invites = async (): Promise<ReadonlyArray<Row>> => {
    const r = await edgectlAsync(["invites", "list", "--json", "--persist-to", dir])
    expect(r.status, r.stderr).toBe(0)
    return JSON.parse(r.stdout) as ReadonlyArray<Row>
  }
  beforeAll(async () => {
    dir = tempDir("edgectl-invites-")
    tui = await PtyTui.start({ ...size, persistTo: dir })
    await tui.waitFor("Zones")
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("y accepts the first invite and x rejects the second, v showing each PATCH", async () => {
    const [first, second] = await invites()
    expect(first!.status).toBe("pending")
    tui.write("a")
    await tui.waitFor("Choose an account")
    tui.write("i")
    await tui.waitFor((s) => s.includes("Invitations") && s.includes(first!.organization_name))
    tui.write("yv")
    await tui.waitFor((s) => dense(s).includes(`PATCH/user/invites/${first!.id}{"status":"accepted"}`))
    tui.write("y")
    await tui.waitFor(`Accepted the invite to ${first!.organization_name}`)
    tui.write("jx")
    await tui.waitFor(`Reject the invite to ${second!.organization_name}?`)
    tui.write("v")
    await tui.waitFor((s) => dense(s).includes(`PATCH/user/invites/${second!.id}{"status":"rejected"}`))
    tui.write("y")
    await tui.waitFor(`Rejected the invite to ${second!.organization_name}`)
    const after = await invites()
    expect(after.find((i) => i.id === first!.id)?.status).toBe("accepted")
    expect(after.find((i) => i.id === second!.id)?.status).toBe("rejected")
    // Both are in the session log.
    tui.write("\u001b")
    await tui.waitFor("Choose an account")
    tui.write("\u001b")
    await tui.waitFor((s) => !s.includes("Choose an account"))
    tui.write("L")
    const log = flat(await tui.waitFor("Session log: 2 write(s)"))
    expect(log).toContain(`accepted the invite ${first!.id}`)
  })
})
