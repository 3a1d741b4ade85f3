/**
 * A store row the local platform cannot encode into its answer (a hand-edited SQLite row) reads as
 * the platform's internal error, not as a wrong request: one `error:` line with code 10001 and the
 * hint naming EDGECTL_DEBUG; with EDGECTL_DEBUG=1, which field of the answer it was, on stderr.
 */
import Database from "better-sqlite3"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { edgectl, edgectlAsync, json, tempDir } from "../helpers/cli.js"

const lines = (s: string) => s.split("\n").filter((l) => l !== "")

describe("zones get on a zone whose row is off its schema", () => {
  let dir: string
  let id: string
  beforeAll(() => {
    dir = tempDir()
    const zones = json<Array<{ id: string; name: string }>>(edgectl(["zones", "list", "--json", "--persist-to", dir]))
    id = zones.find((z) => z.name === "acme.com")!.id
    const db = new Database(path.join(dir, "platform.sqlite"))
    db.prepare("UPDATE zones SET plan = ? WHERE id = ?").run('{"id": 5, "name": "numbered-plan"}', id)
    db.close()
  })

  it("is one internal-error line and the EDGECTL_DEBUG hint, exit 1", async () => {
    const r = await edgectlAsync(["zones", "get", id, "--persist-to", dir])
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(lines(r.stderr)).toEqual([
      "error: zones get: internal error of the local platform [code 10001]",
      "hint: run again with EDGECTL_DEBUG=1 for the cause and the stack"
    ])
  })

  it("with EDGECTL_DEBUG=1 names the field of the answer and what the row held, once", async () => {
    const r = await edgectlAsync(["zones", "get", id, "--persist-to", dir], { env: { EDGECTL_DEBUG: "1" } })
    expect(r.status).toBe(1)
    expect(r.stderr.match(/internal error on GET/g)).toHaveLength(1)
    expect(r.stderr).toContain(`internal error on GET /client/v4/zones/${id}:\n`)
    expect(r.stderr).toContain("result.plan.id: Expected string, actual 5")
    expect(lines(r.stderr).at(-1)).toBe(
      "error: zones get: internal error of the local platform (its cause and stack are on its stderr) [code 10001]"
    )
  })
})
